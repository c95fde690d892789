// End to end: hooks written for Claude Code, run unchanged through the real binary against the
// fake model server: a published guard (cc-safety-net from npm) and guards written the way
// Claude Code users write them (test/fixtures/claude-hooks/, see its README); each must behave
// as in Claude Code: guards
// block, the formatter gets the file's absolute path, context reaches the model, a
// transcript-reading Stop loop goes on as many times as it counts.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/run-hx.js";
import { HAS_JQ, SAFETY_NET_BIN } from "../support/safety-net.js";
import { tempDir } from "../support/temp-dir.js";
import {
  commandHook,
  messagesOf,
  toolResultsOf,
  useHarness,
  writeScript,
  writeSettings,
} from "./harness-support.js";

const FIXTURES = path.join(REPO_ROOT, "test", "fixtures", "claude-hooks");
const GUARDS = path.join(FIXTURES, "guards");
const PROJECT_HOOKS = path.join(FIXTURES, "claude-project", ".claude", "hooks");

const h = useHarness();
const bypass = ["--permission-mode", "bypassPermissions"];
const hooked = (event: string, matcher: string, command: string) => ({
  hooks: { [event]: [{ matcher, hooks: [commandHook(command)] }] },
});
/** Everything the model server was sent, as one string. */
const allRequests = () => JSON.stringify(h.server.requests.map((request) => request.body));

describe.skipIf(!HAS_JQ)("tool guards written for Claude Code block in hx", () => {
  it("a Bash validator (exit 2 on rm) blocks rm -rf ./build; the model reads why", async () => {
    writeSettings(h.work, hooked("PreToolUse", "Bash", path.join(GUARDS, "no-rm.sh")));
    mkdirSync(path.join(h.work, "build"));
    writeFileSync(path.join(h.work, "build", "keep.txt"), "x");
    h.server.reply().tool("bash", { command: "rm -rf ./build" });
    h.server.reply().text("ok");
    await h.agent("clean up", bypass);
    expect(existsSync(path.join(h.work, "build", "keep.txt"))).toBe(true);
    expect(toolResultsOf(h.server.requests[1])[0]).toContain("BLOCKED: rm is not allowed here");
  });

  it("a JSON-deciding guard (safety-net: permissionDecision deny) blocks git reset --hard", async () => {
    writeSettings(h.work, hooked("PreToolUse", "Bash", `node "${SAFETY_NET_BIN}" --claude-code`));
    const git = (...args: string[]) => execFileSync("git", args, { cwd: h.work, stdio: "ignore" });
    git("init", "-q");
    writeFileSync(path.join(h.work, "work.txt"), "committed\n");
    git("add", ".");
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init");
    writeFileSync(path.join(h.work, "work.txt"), "uncommitted work\n");
    h.server.reply().tool("bash", { command: "git reset --hard" });
    h.server.reply().text("ok");
    await h.agent("reset", bypass);
    expect(readFileSync(path.join(h.work, "work.txt"), "utf8")).toBe("uncommitted work\n");
    expect(toolResultsOf(h.server.requests[1])[0]).toMatch(/git reset --hard/);
  });

  it("a secrets guard on Read blocks .env: its content never reaches the model", async () => {
    writeSettings(h.work, hooked("PreToolUse", "Read", path.join(GUARDS, "no-env-read.sh")));
    writeFileSync(path.join(h.work, ".env"), "API_TOKEN=sk-live-do-not-leak\n");
    h.server.reply().tool("read_file", { path: ".env" });
    h.server.reply().text("ok");
    await h.agent("read the env", bypass);
    expect(toolResultsOf(h.server.requests[1])[0]).toContain(
      "BLOCKED: .env files hold secrets and are not read.",
    );
    expect(toolResultsOf(h.server.requests[1])[0]).toContain(`File: ${path.join(h.work, ".env")}`);
    expect(allRequests()).not.toContain("sk-live-do-not-leak");
  });

  it("a matcher for Edit|Write guards hx's edit_file and write_file (protect-manifesto)", async () => {
    writeSettings(
      h.work,
      hooked("PreToolUse", "Edit|Write", path.join(PROJECT_HOOKS, "protect-manifesto.sh")),
    );
    writeFileSync(path.join(h.work, "MANIFESTO.md"), "v1\n");
    h.server
      .reply()
      .tool("write_file", { path: "MANIFESTO.md", content: "v2\n" })
      .tool("edit_file", { path: "MANIFESTO.md", old_text: "v1", new_text: "v3" });
    h.server.reply().text("ok");
    await h.agent("edit", bypass);
    expect(readFileSync(path.join(h.work, "MANIFESTO.md"), "utf8")).toBe("v1\n");
    expect(toolResultsOf(h.server.requests[1])).toEqual([
      expect.stringContaining("Blocked: MANIFESTO files are the top-priority spec"),
      expect.stringContaining("Blocked: MANIFESTO files are the top-priority spec"),
    ]);
  });
});

describe.skipIf(!HAS_JQ)("hooks that add to the work", () => {
  it("a PostToolUse formatter gets the written file's absolute path and formats it", async () => {
    // A stand-in for ruff on PATH: records how it was called and rewrites the file.
    const bin = tempDir("hx-fake-bin-");
    const calls = path.join(tempDir("hx-ruff-log-"), "calls");
    writeFileSync(
      path.join(bin, "ruff"),
      `#!/usr/bin/env bash\necho "$*" >> '${calls}'\nif [ "$1" = format ]; then printf 'x = 1\\n' > "$2"; fi\n`,
      { mode: 0o755 },
    );
    writeSettings(h.work, hooked("PostToolUse", "Edit|Write", path.join(PROJECT_HOOKS, "format-python.sh")));
    h.server.reply().tool("write_file", { path: "src/app.py", content: "x=1" });
    h.server.reply().text("ok");
    await h.agent("write", bypass, { env: { PATH: `${bin}:${process.env.PATH}` } });
    const file = path.join(h.work, "src", "app.py");
    expect(readFileSync(calls, "utf8").trim().split("\n")).toEqual([`check --fix ${file}`, `format ${file}`]);
    expect(readFileSync(file, "utf8")).toBe("x = 1\n");
  });

  it("a SessionStart context injector: what it prints is in the model's first request", async () => {
    writeSettings(h.work, hooked("SessionStart", "startup", path.join(PROJECT_HOOKS, "conventions.sh")));
    h.server.reply().text("ok");
    await h.agent("hello");
    expect(JSON.stringify(messagesOf(h.server.requests[0]))).toContain("Project conventions reminder:");
  });

  it("SessionStart matchers pick the source: a `compact` hook does not run at startup", async () => {
    writeSettings(h.work, hooked("SessionStart", "compact", path.join(PROJECT_HOOKS, "conventions.sh")));
    h.server.reply().text("ok");
    await h.agent("hello");
    expect(JSON.stringify(messagesOf(h.server.requests[0]))).not.toContain("Project conventions reminder");
  });
});

/**
 * A Stop loop written the way ralph-wiggum's stop-hook.sh is: it counts its iterations in a
 * state file, reads the model's last words from `transcript_path` (the last line with
 * `"role":"assistant"`, its text blocks) and blocks the stop until they hold the promise.
 */
function ralphLoop(work: string, maxIterations: number, promise: string): string {
  mkdirSync(path.join(work, ".claude"), { recursive: true });
  writeFileSync(
    path.join(work, ".claude", "ralph-loop.local.md"),
    `---\niteration: 1\nmax_iterations: ${maxIterations}\n---\nKeep improving the code.\n`,
  );
  return writeScript(
    work,
    "stop-hook.sh",
    `set -euo pipefail
HOOK_INPUT=$(cat)
STATE=.claude/ralph-loop.local.md
[[ -f "$STATE" ]] || exit 0
ITERATION=$(sed -n 's/^iteration: *//p' "$STATE")
MAX=$(sed -n 's/^max_iterations: *//p' "$STATE")
if [[ $ITERATION -ge $MAX ]]; then rm "$STATE"; exit 0; fi
TRANSCRIPT=$(echo "$HOOK_INPUT" | jq -r '.transcript_path')
[[ -f "$TRANSCRIPT" ]] || { echo "no transcript at $TRANSCRIPT" >&2; exit 0; }
LAST=$(grep '"role":"assistant"' "$TRANSCRIPT" | tail -1 | jq -r '.message.content | map(select(.type == "text")) | map(.text) | join("\\n")')
if [[ "$LAST" == *"<promise>${promise}</promise>"* ]]; then rm "$STATE"; exit 0; fi
sed -i "s/^iteration: .*/iteration: $((ITERATION + 1))/" "$STATE"
jq -n --arg prompt "Keep improving the code. (last said: $LAST)" --arg msg "iteration $((ITERATION + 1))" '{decision: "block", reason: $prompt, systemMessage: $msg}'`,
  );
}

describe.skipIf(!HAS_JQ)("a transcript-reading Stop loop", () => {
  it("goes on as many times as it counts (more than the 3 rounds hx used to allow)", async () => {
    writeSettings(h.work, hooked("Stop", "", ralphLoop(h.work, 6, "DONE")));
    for (let i = 1; i <= 6; i++) h.server.reply().text(`round ${i}`);
    const run = await h.agent("improve");
    expect(h.server.requests).toHaveLength(6);
    expect(run.stdout).toBe("round 6\n");
    // The hook read each answer from the transcript and quoted it back.
    expect(messagesOf(h.server.requests[5]).at(-1).content).toBe(
      "Keep improving the code. (last said: round 5)",
    );
    expect(existsSync(path.join(h.work, ".claude", "ralph-loop.local.md"))).toBe(false);
  });

  it("stops when the model keeps its promise, read from the transcript", async () => {
    writeSettings(h.work, hooked("Stop", "", ralphLoop(h.work, 20, "DONE")));
    h.server.reply().text("working");
    h.server.reply().text("all good <promise>DONE</promise>");
    await h.agent("improve");
    expect(h.server.requests).toHaveLength(2);
  });

  it("maxStopHookContinuations caps the loop", async () => {
    writeSettings(h.work, {
      ...hooked("Stop", "", ralphLoop(h.work, 20, "DONE")),
      maxStopHookContinuations: 2,
    });
    for (let i = 1; i <= 3; i++) h.server.reply().text(`round ${i}`);
    await h.agent("improve");
    expect(h.server.requests).toHaveLength(3);
  });
});

describe("the payload, as Claude Code sends it", () => {
  /** A hook that saves each payload it gets as <dir>/<event>-<n>.json. */
  const recorder = () => {
    const dir = tempDir("hx-payloads-");
    const command = `f="${dir}/$(date +%s%N).json"; cat > "$f"`;
    const read = () =>
      execFileSync("bash", ["-c", `cat "${dir}"/*.json 2>/dev/null || true`], { encoding: "utf8" })
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    return { command, read };
  };

  it("tool events carry Claude Code's names and fields, hx's riding along", async () => {
    const rec = recorder();
    const events = [
      "PreToolUse",
      "PostToolUse",
      "PostToolUseFailure",
      "Stop",
      "UserPromptSubmit",
      "SessionStart",
      "SessionEnd",
    ];
    writeSettings(h.work, {
      hooks: Object.fromEntries(events.map((event) => [event, [{ hooks: [commandHook(rec.command)] }]])),
    });
    writeFileSync(path.join(h.work, "a.txt"), "one\n");
    h.server
      .reply()
      .tool("edit_file", { path: "a.txt", old_text: "one", new_text: "two" }, { id: "call_e" })
      .tool("read_file", { path: "missing.txt" }, { id: "call_r" });
    h.server.reply().text("done");
    await h.agent("edit it", ["--permission-mode", "acceptEdits"]);
    const payloads = rec.read();
    const of = (event: string) => payloads.filter((p) => p.hook_event_name === event);
    const common = {
      session_id: expect.any(String),
      transcript_path: expect.stringMatching(/\.jsonl$/),
      cwd: h.work,
      permission_mode: "acceptEdits",
    };
    const edit = of("PreToolUse").find((p) => p.tool_use_id === "call_e");
    expect(edit).toEqual({
      ...common,
      hook_event_name: "PreToolUse",
      tool_name: "Edit",
      tool_input: {
        file_path: path.join(h.work, "a.txt"),
        old_string: "one",
        new_string: "two",
        replace_all: false,
      },
      tool_use_id: "call_e",
      hx_tool_name: "edit_file",
      hx_tool_input: { path: "a.txt", old_text: "one", new_text: "two" },
    });
    expect(of("PostToolUse")[0]).toMatchObject({
      tool_name: "Edit",
      tool_response: {
        filePath: path.join(h.work, "a.txt"),
        oldString: "one",
        newString: "two",
        success: true,
      },
    });
    expect(of("PostToolUseFailure")[0]).toMatchObject({
      tool_name: "Read",
      tool_input: { file_path: path.join(h.work, "missing.txt") },
      error: expect.stringContaining("missing.txt"),
    });
    expect(of("UserPromptSubmit")[0]).toMatchObject({ ...common, prompt: "edit it" });
    expect(of("SessionStart")[0]).toMatchObject({ source: "startup" });
    expect(of("Stop")[0]).toMatchObject({ stop_hook_active: false });
    expect(of("SessionEnd")[0]).toMatchObject({ reason: "other" });
    // The transcript in Claude Code's shape: the tool_use with Claude's name and input, its result.
    const lines = readFileSync(edit.transcript_path, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.type)).toEqual(["user", "assistant", "user", "user", "assistant"]);
    expect(lines[1].message.content[0]).toEqual({
      type: "tool_use",
      id: "call_e",
      name: "Edit",
      input: {
        file_path: path.join(h.work, "a.txt"),
        old_string: "one",
        new_string: "two",
        replace_all: false,
      },
    });
    expect(lines[2].message.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "call_e" });
    expect(lines[4].message.content).toEqual([{ type: "text", text: "done" }]);
  });

  it("updatedInput rewrites the call before it runs, and the permission check judges the new call", async () => {
    const rewrite = (command: string) =>
      JSON.stringify({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          updatedInput: { command },
        },
      });
    const hook = `input=$(cat); case "$input" in *original*) echo '${rewrite("echo rewritten")}';; *harmless*) echo '${rewrite("rm -f keep.txt")}';; esac`;
    writeSettings(h.work, { permissions: { deny: ["Bash(rm:*)"] }, ...hooked("PreToolUse", "Bash", hook) });
    writeFileSync(path.join(h.work, "keep.txt"), "x");
    h.server.reply().tool("bash", { command: "echo original" }).tool("bash", { command: "echo harmless" });
    h.server.reply().text("ok");
    await h.agent("go");
    const results = toolResultsOf(h.server.requests[1]);
    expect(results[0]).toBe("rewritten");
    expect(results[1]).toMatch(
      /^Permission denied: bash\(rm -f keep\.txt\) matches the deny rule Bash\(rm:\*\)/,
    );
    expect(existsSync(path.join(h.work, "keep.txt"))).toBe(true);
  });

  it("a PermissionRequest hook answers the question hx would ask (headless too)", async () => {
    const allow = {
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    };
    writeSettings(
      h.work,
      hooked("PermissionRequest", "Bash", `cat >/dev/null; echo '${JSON.stringify(allow)}'`),
    );
    h.server.reply().tool("bash", { command: "touch ran" });
    h.server.reply().text("ok");
    await h.agent("go");
    expect(existsSync(path.join(h.work, "ran"))).toBe(true);
  });

  it("a settings file with every Claude Code event loads: the ones hx never fires are warnings", async () => {
    const rec = recorder();
    writeSettings(h.work, {
      hooks: {
        Notification: [{ matcher: "", hooks: [commandHook(rec.command)] }],
        Setup: [{ hooks: [commandHook(rec.command)] }],
        TeammateIdle: [{ hooks: [commandHook(rec.command)] }],
        Stop: [{ hooks: [{ type: "prompt", prompt: "Is the task complete?" }] }],
        SomethingNewer: [{ hooks: [commandHook(rec.command)] }],
      },
    });
    h.server.reply().text("ok");
    const run = await h.agent("hi");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("ok\n");
    expect(run.stderr).toContain("hooks.Setup: hx has no Setup moment; its hooks never run.");
    expect(run.stderr).toContain("hooks.TeammateIdle: hx has no TeammateIdle moment");
    expect(run.stderr).toContain('hooks.Stop: a "prompt" hook was ignored');
    expect(run.stderr).toMatch(/hooks\.SomethingNewer: not a hook event hx knows/);
  });

  it("-v shows what a hook wrote on stderr; a failing hook is reported", async () => {
    writeSettings(h.work, {
      hooks: {
        UserPromptSubmit: [{ hooks: [commandHook("cat >/dev/null; echo 'checked the prompt' >&2")] }],
        Stop: [{ hooks: [commandHook("cat >/dev/null; echo 'lint failed' >&2; exit 1")] }],
      },
    });
    h.server.reply().text("ok");
    const quiet = await h.agent("hi");
    expect(quiet.stderr).not.toContain("checked the prompt");
    expect(quiet.stderr).toContain("exited with code 1: lint failed");
    h.server.reply().text("ok");
    const verbose = await h.agent("hi", ["-v"]);
    expect(verbose.stderr).toContain("checked the prompt");
  });
});
