// End to end: hooks from .hx/settings.json in Claude Code's shape, run as real child processes
// by the real binary.
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import {
  commandHook,
  hookLines,
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

/** A hook that appends its stdin (one JSON line) to `file`. */
const recordTo = (file: string) => hook(`cat >> '${file}'`);

function readPayloads(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("hook payloads", () => {
  it("every event's hook reads the Claude Code JSON payload on stdin", async () => {
    const out = path.join(tempDir("hx-hook-out-"), "payloads.jsonl");
    const record = [{ hooks: [recordTo(out)] }];
    writeSettings(h.work, {
      hooks: {
        SessionStart: record,
        UserPromptSubmit: record,
        PreToolUse: [{ matcher: "bash", hooks: [recordTo(out)] }],
        PostToolUse: [{ matcher: "*", hooks: [recordTo(out)] }],
        Stop: record,
      },
    });
    h.server.reply().tool("bash", { command: "echo hi" });
    h.server.reply().text("done");

    const run = await h.agent("say hi", bypass);

    expect(run.code).toBe(0);
    const payloads = readPayloads(out);
    expect(payloads.map((p) => p.hook_event_name)).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "Stop",
    ]);
    const root = realpathSync(h.work);
    const sessionIds = new Set(payloads.map((p) => p.session_id));
    expect(sessionIds.size).toBe(1);
    expect([...sessionIds][0]).toMatch(/^[\w-]{8,}$/);
    for (const payload of payloads) expect(payload.cwd).toBe(root);
    const [start, prompt, pre, post, stop] = payloads;
    expect(start.source).toBe("startup");
    expect(prompt.prompt).toBe("say hi");
    expect(pre).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "echo hi" },
      hx_tool_name: "bash",
    });
    expect(post).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "echo hi" },
      tool_response: { stdout: "hi", stderr: "", interrupted: false, isImage: false },
      tool_output: "hi",
    });
    expect(stop).toMatchObject({ stop_hook_active: false });
  });

  it("the session id in hook payloads is the saved session's id (for hx --resume)", async () => {
    const out = path.join(tempDir("hx-hook-out-"), "payloads.jsonl");
    writeSettings(h.work, { hooks: { UserPromptSubmit: [{ hooks: [recordTo(out)] }] } });
    h.server.reply().text("done");
    const home = tempDir("hx-home-");
    const run = await h.agent("hello", [], { env: { HOME: home } });
    expect(run.code).toBe(0);
    const [payload] = readPayloads(out);
    const sessions = await runHx(["sessions", "list", "-C", h.work], { env: { HOME: home } });
    expect(sessions.stdout).toContain(String(payload.session_id));
  });
});

describe("PreToolUse hooks", () => {
  it("exit 2 blocks the call: it does not run and the hook's stderr is the tool result", async () => {
    const guard = writeScript(
      h.work,
      "guard.sh",
      'input=$(cat)\ncase "$input" in *forbidden*) echo "forbidden.txt is off limits" >&2; exit 2;; esac\nexit 0',
    );
    writeSettings(h.work, {
      hooks: { PreToolUse: [{ matcher: "write_file|edit_file", hooks: [hook(guard, 30)] }] },
    });
    h.server
      .reply()
      .tool("write_file", { path: "forbidden.txt", content: "x" })
      .tool("write_file", { path: "fine.txt", content: "y" })
      .tool("bash", { command: "echo forbidden > via-bash.txt" });
    h.server.reply().text("done");

    const run = await h.agent("write", bypass);

    const results = toolResultsOf(h.server.requests[1]);
    expect(results[0]).toBe("forbidden.txt is off limits");
    expect(existsSync(path.join(h.work, "forbidden.txt"))).toBe(false);
    expect(readFileSync(path.join(h.work, "fine.txt"), "utf8")).toBe("y");
    // The matcher names write_file and edit_file only: bash is not checked by this hook.
    expect(existsSync(path.join(h.work, "via-bash.txt"))).toBe(true);
    expect(statsLine(run.stderr)).toMatch(/^turns=2 tool_calls=3 blocked=1 /);
    expect(run.stderr).toContain("  blocked: forbidden.txt is off limits");
  });

  it("other exit codes and a crashing hook warn and go on", async () => {
    writeSettings(h.work, {
      hooks: {
        PreToolUse: [
          { matcher: "bash", hooks: [hook("echo 'lint failed' >&2; exit 1")] },
          { matcher: "bash", hooks: [hook("/no/such/hook-binary")] },
        ],
      },
    });
    h.server.reply().tool("bash", { command: "echo ran > ran.txt" });
    h.server.reply().text("done");

    const run = await h.agent("run", bypass);

    expect(run.code).toBe(0);
    expect(existsSync(path.join(h.work, "ran.txt"))).toBe(true);
    expect(run.stderr).toContain(
      "warning: PreToolUse hook `echo 'lint failed' >&2; exit 1` exited with code 1: lint failed; going on.",
    );
    expect(run.stderr).toMatch(/warning: PreToolUse hook `\/no\/such\/hook-binary` exited with code 127/);
    expect(statsLine(run.stderr)).toMatch(/blocked=0 /);
  });

  it("a hook that hangs is killed at its timeout and the call goes on", async () => {
    writeSettings(h.work, {
      hooks: { PreToolUse: [{ matcher: "bash", hooks: [hook("sleep 60", 1)] }] },
    });
    h.server.reply().tool("bash", { command: "echo ran > ran.txt" });
    h.server.reply().text("done");

    const run = await h.agent("run", bypass, { timeoutMs: 20_000 });

    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "warning: PreToolUse hook `sleep 60` timed out after 1s and was killed; going on.",
    );
    expect(existsSync(path.join(h.work, "ran.txt"))).toBe(true);
  });

  it("hooks run before the permission check, and a hook's block counts once", async () => {
    writeSettings(h.work, {
      hooks: { PreToolUse: [{ matcher: "bash", hooks: [hook("echo 'hook says no' >&2; exit 2")] }] },
    });
    h.server.reply().tool("bash", { command: "rm -rf /" });
    h.server.reply().text("done");
    const run = await h.agent("run", bypass);
    expect(toolResultsOf(h.server.requests[1])[0]).toBe("hook says no");
    expect(statsLine(run.stderr)).toMatch(/tool_calls=1 blocked=1 /);
  });
});

describe("PostToolUse hooks", () => {
  it("exit 2 adds the hook's stderr to the tool result the model reads", async () => {
    writeSettings(h.work, {
      hooks: {
        PostToolUse: [{ matcher: "bash", hooks: [hook("echo 'tests failed: fix them' >&2; exit 2")] }],
      },
    });
    h.server.reply().tool("bash", { command: "echo built" });
    h.server.reply().text("done");
    await h.agent("build", bypass);
    expect(toolResultsOf(h.server.requests[1])[0]).toBe("built\n\n[PostToolUse hook] tests failed: fix them");
  });
});

describe("UserPromptSubmit hooks", () => {
  it("exit 2 refuses the prompt: exit 1, the reason on stderr, the model never called", async () => {
    writeSettings(h.work, {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              hook('grep -q password && { echo "prompts must not contain secrets" >&2; exit 2; }; exit 0'),
            ],
          },
        ],
      },
    });
    const run = await h.agent("my password is hunter2");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("hx: the prompt was refused: prompts must not contain secrets");
    expect(h.server.requests.length).toBe(0);

    h.server.reply().text("fine");
    const allowed = await h.agent("hello");
    expect(allowed.code).toBe(0);
    expect(h.server.requests.length).toBe(1);
  });

  it("a failing prompt, session-start or subagent-stop hook warns and the run goes on", async () => {
    const failing = (name: string) => [{ hooks: [hook(`echo '${name} broke' >&2; exit 1`)] }];
    writeSettings(h.work, {
      hooks: {
        SessionStart: failing("start"),
        UserPromptSubmit: failing("prompt"),
        SubagentStop: failing("substop"),
      },
    });
    h.server.reply().tool("task", { description: "look", prompt: "look around" });
    h.server.reply().text("nothing here");
    h.server.reply().text("answered");

    const run = await h.agent("hello");

    expect(run.code).toBe(0);
    expect(run.stdout).toBe("answered\n");
    expect(run.stderr).toContain(
      "warning: SessionStart hook `echo 'start broke' >&2; exit 1` exited with code 1: start broke; going on.",
    );
    expect(run.stderr).toContain(
      "warning: UserPromptSubmit hook `echo 'prompt broke' >&2; exit 1` exited with code 1: prompt broke; going on.",
    );
    expect(run.stderr).toContain(
      "warning: SubagentStop hook `echo 'substop broke' >&2; exit 1` exited with code 1: substop broke; going on.",
    );
  });

  it("what a prompt or session-start hook prints on stdout goes to the model as context", async () => {
    writeSettings(h.work, {
      hooks: {
        SessionStart: [{ hooks: [hook("echo 'branch: main'")] }],
        UserPromptSubmit: [{ hooks: [hook("echo 'ticket: HX-42'")] }],
      },
    });
    h.server.reply().text("ok");
    await h.agent("fix it");
    const user = messagesOf(h.server.requests[0]).find((m) => m.role === "user");
    expect(user.content).toBe("fix it\n\n<hook-context>\nbranch: main\nticket: HX-42\n</hook-context>");
  });
});

describe("Stop hooks", () => {
  it("exit 2 feeds stderr back to the model and the loop goes on", async () => {
    const counter = path.join(tempDir("hx-hook-out-"), "count");
    const payloads = path.join(path.dirname(counter), "stop.jsonl");
    // Refuses the first stop only.
    writeSettings(h.work, {
      hooks: {
        Stop: [
          {
            hooks: [
              hook(
                `cat >> '${payloads}'; if [ ! -f '${counter}' ]; then touch '${counter}'; echo 'run the tests first' >&2; exit 2; fi`,
              ),
            ],
          },
        ],
      },
    });
    h.server.reply().text("I am done");
    h.server.reply().text("Tests pass, done");

    const run = await h.agent("work");

    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Tests pass, done\n");
    expect(h.server.requests).toHaveLength(2);
    const second = messagesOf(h.server.requests[1]);
    expect(second.at(-2)).toMatchObject({ role: "assistant", content: "I am done" });
    expect(second.at(-1)).toEqual({ role: "user", content: "run the tests first" });
    expect(readPayloads(payloads).map((p) => p.stop_hook_active)).toEqual([false, true]);
  });

  it("a Stop hook that always refuses cannot keep the loop going forever", async () => {
    writeSettings(h.work, {
      maxStopHookContinuations: 3,
      hooks: { Stop: [{ hooks: [hook("echo 'keep going' >&2; exit 2")] }] },
    });
    for (let i = 0; i < 6; i += 1) h.server.reply().text(`answer ${i}`);

    const run = await h.agent("work", [], { timeoutMs: 20_000 });

    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    // The first answer plus three continuations.
    expect(h.server.requests).toHaveLength(4);
    expect(run.stdout).toBe("answer 3\n");
  });
});

describe("the built-in log hook", () => {
  it("-v prints exactly the seed's lines, in order", async () => {
    writeFileSync(path.join(h.work, "a.txt"), "alpha\n");
    h.server.reply().tool("read_file", { path: "a.txt" });
    h.server.reply().text("alpha");

    const run = await h.agent("read a.txt", ["-v"]);

    const output = toolResultsOf(h.server.requests[1])[0];
    expect(hookLines(run.stderr)).toEqual([
      `[HOOK] UserPromptSubmit cwd=${realpathSync(h.work)}`,
      '[HOOK] PreToolUse read_file({"path":"a.txt"})',
      `[HOOK] PostToolUse read_file output_chars=${output.length}`,
      "[HOOK] Stop: turns=2, tool_calls=1, blocked=0",
    ]);
    // The trace line comes first, as in the seed.
    const lines = run.stderr.split("\n");
    expect(lines.indexOf("> read_file path=a.txt")).toBeLessThan(
      lines.indexOf('[HOOK] PreToolUse read_file({"path":"a.txt"})'),
    );
  });

  it('"logHooks": true in settings turns it on without -v; off by default', async () => {
    h.server.reply().text("one");
    const quiet = await h.agent("hello");
    expect(hookLines(quiet.stderr)).toEqual([]);

    writeSettings(h.work, { logHooks: true });
    h.server.reply().text("two");
    const logged = await h.agent("hello");
    expect(hookLines(logged.stderr)).toEqual([
      `[HOOK] UserPromptSubmit cwd=${realpathSync(h.work)}`,
      "[HOOK] Stop: turns=1, tool_calls=0, blocked=0",
    ]);
  });

  it("counts blocked calls on the Stop line", async () => {
    h.server.reply().tool("bash", { command: "touch x" });
    h.server.reply().text("no");
    const run = await h.agent("try", ["-v"]);
    expect(hookLines(run.stderr).at(-1)).toBe("[HOOK] Stop: turns=2, tool_calls=1, blocked=1");
  });
});

describe("hook settings problems", () => {
  it("a misspelled event or a bad matcher stops the run (exit 2): a hook hx cannot read never silently drops out", async () => {
    writeSettings(h.work, {
      hooks: {
        PreTooluse: [{ hooks: [hook("true")] }],
        PreToolUse: [
          { matcher: "(", hooks: [hook("true")] },
          { matcher: "bash", hooks: [hook("echo 'still guarded' >&2; exit 2")] },
        ],
      },
    });
    const run = await h.agent("go", bypass);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /hx: \.hx\/settings\.json: hooks\.PreTooluse: unknown key, did you mean PreToolUse\?/,
    );
    expect(run.stderr).toMatch(
      /hx: \.hx\/settings\.json: hooks\.PreToolUse\.0\.matcher: matcher '\(' is not a tool name/,
    );
    expect(h.server.requests).toHaveLength(0);
  });
});
