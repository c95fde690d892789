// End to end: hooks answering in Claude Code's JSON on stdout, and hook timeouts, through the
// real binary against the fake model server.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";
import {
  commandHook,
  messagesOf,
  statsLine,
  toolResultsOf,
  useHarness,
  writeScript,
  writeSettings,
} from "./harness-support.js";

const h = useHarness();
const bypass = ["--permission-mode", "bypassPermissions"];
const hook = commandHook;
/** A hook command printing `answer` as JSON. */
const answers = (answer: unknown) => hook(`cat >/dev/null; echo '${JSON.stringify(answer)}'`);
const preToolUse = (permissionDecision: string, permissionDecisionReason?: string) =>
  answers({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision, permissionDecisionReason },
  });

describe("PreToolUse JSON decisions", () => {
  it("permissionDecision deny: the call does not run and the reason is the tool result", async () => {
    writeSettings(h.work, {
      hooks: { PreToolUse: [{ matcher: "bash", hooks: [preToolUse("deny", "no touching today")] }] },
    });
    h.server.reply().tool("bash", { command: "touch ran" });
    h.server.reply().text("done");
    const run = await h.agent("go", bypass);
    expect(toolResultsOf(h.server.requests[1])[0]).toBe("no touching today");
    expect(existsSync(path.join(h.work, "ran"))).toBe(false);
    expect(statsLine(run.stderr)).toMatch(/blocked=1 /);
  });

  it("allow skips the question the mode would ask (headless: a refusal), never a deny rule", async () => {
    writeSettings(h.work, {
      permissions: { deny: ["bash(rm *)"] },
      hooks: { PreToolUse: [{ matcher: "bash", hooks: [preToolUse("allow", "checked by the hook")] }] },
    });
    h.server.reply().tool("bash", { command: "touch ran" }).tool("bash", { command: "rm -f keep.txt" });
    h.server.reply().text("done");
    writeFileSync(path.join(h.work, "keep.txt"), "x");
    await h.agent("go");
    const results = toolResultsOf(h.server.requests[1]);
    expect(existsSync(path.join(h.work, "ran"))).toBe(true);
    expect(results[1]).toMatch(
      /^Permission denied: bash\(rm -f keep\.txt\) matches the deny rule bash\(rm \*\)/,
    );
    expect(existsSync(path.join(h.work, "keep.txt"))).toBe(true);
  });

  it("ask makes even bypassPermissions ask, and headless that is a refusal", async () => {
    writeSettings(h.work, {
      hooks: { PreToolUse: [{ matcher: "bash", hooks: [preToolUse("ask", "looks risky")] }] },
    });
    h.server.reply().tool("bash", { command: "touch ran" });
    h.server.reply().text("done");
    await h.agent("go", bypass);
    expect(existsSync(path.join(h.work, "ran"))).toBe(false);
    expect(toolResultsOf(h.server.requests[1])[0]).toBe(
      "Permission denied: a PreToolUse hook asks to confirm bash(touch ran) (looks risky), and there is no terminal to ask. Run hx in a terminal to approve it.",
    );
  });
});

describe("JSON answers of the other events", () => {
  it("Stop: decision block with a reason sends the model back to work", async () => {
    const flag = path.join(tempDir("hx-hook-out-"), "once");
    writeSettings(h.work, {
      hooks: {
        Stop: [
          {
            hooks: [
              hook(
                `cat >/dev/null; if [ ! -f '${flag}' ]; then touch '${flag}'; echo '{"decision":"block","reason":"run the tests first"}'; fi`,
              ),
            ],
          },
        ],
      },
    });
    h.server.reply().text("I am done");
    h.server.reply().text("Tests pass");
    const run = await h.agent("work");
    expect(run.stdout).toBe("Tests pass\n");
    expect(messagesOf(h.server.requests[1]).at(-1)).toEqual({ role: "user", content: "run the tests first" });
  });

  it("UserPromptSubmit: decision block refuses the prompt; additionalContext reaches the model", async () => {
    writeSettings(h.work, {
      hooks: { UserPromptSubmit: [{ hooks: [answers({ decision: "block", reason: "not on Fridays" })] }] },
    });
    const refused = await h.agent("deploy");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("hx: the prompt was refused: not on Fridays");
    expect(h.server.requests).toHaveLength(0);

    writeSettings(h.work, {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              answers({
                hookSpecificOutput: {
                  hookEventName: "UserPromptSubmit",
                  additionalContext: "branch is main",
                },
              }),
            ],
          },
        ],
      },
    });
    h.server.reply().text("ok");
    await h.agent("hello");
    expect(JSON.stringify(messagesOf(h.server.requests[0]).at(-1))).toContain("branch is main");
  });

  it("PostToolUse: additionalContext is added to the tool result; systemMessage is shown to the user", async () => {
    writeSettings(h.work, {
      hooks: {
        PostToolUse: [
          {
            matcher: "bash",
            hooks: [
              answers({
                systemMessage: "formatter ran",
                hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "lint: 0 problems" },
              }),
            ],
          },
        ],
      },
    });
    h.server.reply().tool("bash", { command: "echo built" });
    h.server.reply().text("done");
    const run = await h.agent("build", bypass);
    expect(toolResultsOf(h.server.requests[1])[0]).toBe(
      "built\n\n[PostToolUse hook context] lint: 0 problems",
    );
    expect(run.stderr).toContain("PostToolUse hook: formatter ran");
  });

  it("continue: false on a prompt hook stops before the model is asked, with stopReason", async () => {
    writeSettings(h.work, {
      hooks: { UserPromptSubmit: [{ hooks: [answers({ continue: false, stopReason: "quota used up" })] }] },
    });
    const run = await h.agent("anything");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("quota used up");
    expect(h.server.requests).toHaveLength(0);
  });
});

describe("hook timeouts", () => {
  it('a "timeout" too big for a timer is clamped to 10 minutes, so the blocking hook still blocks', async () => {
    const guard = writeScript(
      h.work,
      "slow-guard.sh",
      "cat >/dev/null; sleep 1; echo 'checked: refused' >&2; exit 2",
    );
    writeSettings(h.work, { hooks: { PreToolUse: [{ matcher: "bash", hooks: [hook(guard, 2147484)] }] } });
    h.server.reply().tool("bash", { command: "touch ran" });
    h.server.reply().text("done");
    const run = await h.agent("go", bypass);
    expect(run.stderr).toContain("timeout 2147484 s is above the 600 s maximum; using 600 s.");
    expect(toolResultsOf(h.server.requests[1])[0]).toBe("checked: refused");
    expect(existsSync(path.join(h.work, "ran"))).toBe(false);
  });
});

describe("continue: false ends the run (as in Claude Code)", () => {
  it("from PreToolUse: the call does not run, no further model request, the reason is shown", async () => {
    writeSettings(h.work, {
      hooks: {
        PreToolUse: [{ matcher: "bash", hooks: [answers({ continue: false, stopReason: "frozen branch" })] }],
      },
    });
    h.server.reply().tool("bash", { command: "touch ran" });
    h.server.reply().text("never asked");
    const run = await h.agent("go", bypass);
    expect(existsSync(path.join(h.work, "ran"))).toBe(false);
    expect(h.server.requests).toHaveLength(1);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("hx: A PreToolUse hook stopped the run: frozen branch");
  });

  it("from PostToolUse: the call ran, the calls after it in the turn do not, and the run ends", async () => {
    writeSettings(h.work, {
      hooks: {
        PostToolUse: [
          { matcher: "bash", hooks: [answers({ continue: false, stopReason: "enough for today" })] },
        ],
      },
    });
    h.server.reply().tool("bash", { command: "touch first" }).tool("bash", { command: "touch second" });
    h.server.reply().text("never asked");
    const run = await h.agent("go", bypass);
    expect(existsSync(path.join(h.work, "first"))).toBe(true);
    expect(existsSync(path.join(h.work, "second"))).toBe(false);
    expect(h.server.requests).toHaveLength(1);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("hx: A PostToolUse hook stopped the run: enough for today");
  });
});

describe("hook output the model reads is bounded", () => {
  it("a block reason of 200 KB is cut to its start and end with a note, as Claude Code does", async () => {
    const guard = writeScript(
      h.work,
      "loud-guard.sh",
      "cat >/dev/null; echo FIRST >&2; yes 'test output line' | head -n 12000 >&2; echo LAST >&2; exit 2",
    );
    writeSettings(h.work, { hooks: { PreToolUse: [{ matcher: "bash", hooks: [hook(guard)] }] } });
    h.server.reply().tool("bash", { command: "touch ran" });
    h.server.reply().text("done");
    await h.agent("go", bypass);
    const result = toolResultsOf(h.server.requests[1])[0];
    expect(result.length).toBeLessThanOrEqual(10_000);
    expect(result.startsWith("FIRST\n")).toBe(true);
    expect(result.endsWith("\nLAST")).toBe(true);
    expect(result).toMatch(/\[… [\d,]+ lines \([\d,]+ chars\) cut from the middle\.\]/);
  });

  it("a SessionStart hook printing 200 KB adds at most 10,000 characters of context", async () => {
    const loud = writeScript(h.work, "loud-start.sh", "cat >/dev/null; yes 'context line' | head -n 15000");
    writeSettings(h.work, { hooks: { SessionStart: [{ hooks: [hook(loud)] }] } });
    h.server.reply().text("done");
    await h.agent("go", bypass);
    const sent = JSON.stringify(h.server.requests[0].body);
    expect(sent).toContain("context line");
    expect(sent.length).toBeLessThan(40_000);
  });
});
