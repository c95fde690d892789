import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/core/events.js";
import { createSessionHooks } from "../../src/hooks/hooks.js";
import { HookRegistry } from "../../src/hooks/registry.js";
import type { HookMatcher } from "../../src/hooks/settings.js";
import { PermissionChecker } from "../../src/permissions/checker.js";
import type { PermissionDecision } from "../../src/permissions/decide.js";
import { createPermissionExtension } from "../../src/permissions/extension.js";
import { parseRules } from "../../src/permissions/rules.js";
import { ScriptedProvider } from "../../src/providers/scripted.js";
import { Workspace } from "../../src/tools/workspace.js";
import { fakeBaseTools, recordingTool, runLoop, toolResults } from "../support/harness-tools.js";
import { tempDir } from "../support/temp-dir.js";

function hooksWith(settings: Record<string, HookMatcher[]>, cwd = tempDir()) {
  const { registry, warnings } = HookRegistry.fromSettings(settings);
  expect(warnings).toEqual([]);
  const lines: string[] = [];
  const events: AgentEvent[] = [];
  const hooks = createSessionHooks({
    registry,
    sessionId: "session-1",
    workspace: new Workspace(cwd),
    transcriptPath: path.join(cwd, "transcript.jsonl"),
    log: (line) => lines.push(line),
    emit: (event) => events.push(event),
  });
  return { hooks, lines, events, cwd };
}

const command = (text: string, timeout?: number) => ({ type: "command" as const, command: text, timeout });

describe("built-in log hook", () => {
  it("prints exactly the seed's lines", async () => {
    const { hooks, lines, cwd } = hooksWith({});
    const skill = recordingTool(
      "load_skill",
      "none",
      `<skill name="sync-upstream">${"x".repeat(797)}</skill>`,
    );
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "load_skill", arguments: { subject: "sync-upstream" } }] },
      { text: "summary" },
    ]);
    await hooks.runPromptHooks("load it");
    await runLoop({ provider: model, tools: [skill], extensions: [hooks.extension], root: cwd });
    expect(lines).toEqual([
      `[HOOK] UserPromptSubmit cwd=${cwd}`,
      `[HOOK] PreToolUse load_skill({"subject":"sync-upstream"})`,
      "[HOOK] PostToolUse load_skill output_chars=833",
      "[HOOK] Stop: turns=2, tool_calls=1, blocked=0",
    ]);
  });
});

describe("command hooks in the loop (real processes)", () => {
  it("PreToolUse exit 2: the call is not run, stderr is the tool result, counted as blocked", async () => {
    const dir = tempDir();
    const file = path.join(dir, "pre.json");
    const { hooks } = hooksWith(
      {
        PreToolUse: [
          { matcher: "bash", hooks: [command(`cat > '${file}'; echo 'pushing is not allowed' >&2; exit 2`)] },
        ],
      },
      dir,
    );
    const tools = fakeBaseTools();
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "bash", arguments: { subject: "git push" } }] },
      { text: "ok" },
    ]);
    const { messages, result } = await runLoop({
      provider: model,
      tools,
      extensions: [hooks.extension],
      root: dir,
    });
    expect(toolResults(messages)).toEqual(["pushing is not allowed"]);
    expect(tools[0].calls).toHaveLength(0);
    expect(result.stats.blocked).toBe(1);
    // A fake tool has no Claude Code shape: its own name and arguments, hx's riding along.
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      hook_event_name: "PreToolUse",
      session_id: "session-1",
      transcript_path: path.join(dir, "transcript.jsonl"),
      permission_mode: "default",
      cwd: dir,
      tool_name: "bash",
      tool_input: { subject: "git push" },
      tool_use_id: expect.any(String),
      hx_tool_name: "bash",
      hx_tool_input: { subject: "git push" },
    });
  });

  it("the matcher picks tools: write_file|edit_file does not fire for bash", async () => {
    const { hooks } = hooksWith({
      PreToolUse: [{ matcher: "write_file|edit_file", hooks: [command("exit 2")] }],
    });
    const tools = fakeBaseTools();
    const model = new ScriptedProvider([
      {
        toolCalls: [
          { name: "bash", arguments: { subject: "ls" } },
          { name: "edit_file", arguments: { subject: "a" } },
        ],
      },
      { text: "ok" },
    ]);
    const { messages } = await runLoop({ provider: model, tools, extensions: [hooks.extension] });
    const [bash, edit] = toolResults(messages);
    expect(bash).toBe("bash ran");
    expect(edit).toContain("gave no reason");
  });

  it("PostToolUse gets tool_output; other exit codes warn and the agent goes on", async () => {
    const dir = tempDir();
    const file = path.join(dir, "post.json");
    const { hooks } = hooksWith(
      { PostToolUse: [{ matcher: "*", hooks: [command(`cat > '${file}'; exit 3`)] }] },
      dir,
    );
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "read_file", arguments: { subject: "a" } }] },
      { text: "ok" },
    ]);
    const { messages, events, result } = await runLoop({
      provider: model,
      tools: fakeBaseTools(),
      extensions: [hooks.extension],
      root: dir,
    });
    expect(result.text).toBe("ok");
    expect(toolResults(messages)).toEqual(["read_file ran"]);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "read_file",
      tool_output: "read_file ran",
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "notice",
        level: "warn",
        text: expect.stringContaining("exited with code 3"),
      }),
    );
  });

  it("PostToolUse exit 2 shows stderr to the model with the output", async () => {
    const { hooks } = hooksWith({ PostToolUse: [{ hooks: [command("echo 'lint failed' >&2; exit 2")] }] });
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "write_file", arguments: { subject: "a" } }] },
      { text: "ok" },
    ]);
    const { messages } = await runLoop({
      provider: model,
      tools: fakeBaseTools(),
      extensions: [hooks.extension],
    });
    expect(toolResults(messages)[0]).toBe("write_file ran\n\n[PostToolUse hook] lint failed");
  });

  it("a hook that hangs is killed at its timeout and the call goes on", async () => {
    const { hooks } = hooksWith({ PreToolUse: [{ hooks: [command("sleep 30", 0.3)] }] });
    const model = new ScriptedProvider([{ toolCalls: [{ name: "grep", arguments: {} }] }, { text: "ok" }]);
    // sleep 30 outlasts the test's timeout: only the hook's timeout lets the run end.
    const { messages, events } = await runLoop({
      provider: model,
      tools: fakeBaseTools(),
      extensions: [hooks.extension],
    });
    expect(toolResults(messages)).toEqual(["grep ran"]);
    expect(events).toContainEqual(expect.objectContaining({ text: expect.stringContaining("timed out") }));
  });

  it("a hook that cannot start never stops the agent", async () => {
    const { hooks } = hooksWith({ PreToolUse: [{ hooks: [command("/no/such/hook-binary")] }] });
    const model = new ScriptedProvider([{ toolCalls: [{ name: "grep", arguments: {} }] }, { text: "ok" }]);
    const { messages, result } = await runLoop({
      provider: model,
      tools: fakeBaseTools(),
      extensions: [hooks.extension],
    });
    expect(toolResults(messages)).toEqual(["grep ran"]);
    expect(result.stop).toBe("done");
  });

  it("Stop exit 2 feeds stderr back and the loop goes on, at most 3 times", async () => {
    const dir = tempDir();
    const log = path.join(dir, "stop.log");
    const { hooks } = hooksWith(
      { Stop: [{ hooks: [command(`cat >> '${log}'; echo 'run the tests first' >&2; exit 2`)] }] },
      dir,
    );
    const model = new ScriptedProvider([{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }]);
    const { messages, result } = await runLoop({
      provider: model,
      tools: [],
      extensions: [hooks.extension],
      root: dir,
    });
    expect(result).toMatchObject({ stop: "done", text: "d" });
    expect(messages.filter((m) => m.role === "user" && m.content === "run the tests first")).toHaveLength(3);
    const payloads = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(payloads.map((p) => p.stop_hook_active)).toEqual([false, true, true]);
  });

  it("hooks and permissions together: a hook-blocked call never reaches the asker", async () => {
    const { hooks } = hooksWith({ PreToolUse: [{ hooks: [command("echo nope >&2; exit 2")] }] });
    let asked = 0;
    const permissions = createPermissionExtension({
      mode: "default",
      rules: parseRules({}).rules,
      projectRoot: tempDir(),
      ask: async () => {
        asked += 1;
        return "yes";
      },
    });
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "bash", arguments: { subject: "ls" } }] },
      { text: "ok" },
    ]);
    const { messages } = await runLoop({
      provider: model,
      tools: fakeBaseTools(),
      extensions: [hooks.extension, permissions],
    });
    expect(toolResults(messages)).toEqual(["nope"]);
    expect(asked).toBe(0);
  });

  /** A permission extension that reads the hooks' verdicts, in bypassPermissions with `bash` allowed. */
  function decidingPermissions(hooks: ReturnType<typeof hooksWith>["hooks"], root: string) {
    const checker = new PermissionChecker({
      mode: "bypassPermissions",
      rules: parseRules({ allow: ["bash"] }).rules,
      root,
    });
    const decisions: PermissionDecision[] = [];
    const check = checker.check.bind(checker);
    checker.check = async (target, inputs) => {
      const checked = await check(target, inputs);
      decisions.push(checked.decision);
      return checked;
    };
    const extension = createPermissionExtension({
      mode: "bypassPermissions",
      rules: parseRules({ allow: ["bash"] }).rules,
      projectRoot: root,
      checker,
      hookPermissions: hooks.permissions,
    });
    return { extension, decisions };
  }

  it.each([
    ["exit 2", "echo 'no pushing' >&2; exit 2", "no pushing"],
    ["decision block", `echo '{"decision":"block","reason":"no pushing"}'`, "no pushing"],
    [
      "permissionDecision deny",
      `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no pushing"}}'`,
      "no pushing",
    ],
    [
      "continue false",
      `echo '{"continue":false,"stopReason":"enough"}'`,
      "Not run: a hook stopped the run (enough).",
    ],
  ])(
    "a hook's deny (%s) is decided by the permission check, band hook-deny, over bypassPermissions and an allow rule",
    async (_kind, hook, shown) => {
      const dir = tempDir();
      const { hooks } = hooksWith({ PreToolUse: [{ hooks: [command(hook)] }] }, dir);
      const { extension, decisions } = decidingPermissions(hooks, dir);
      const tools = fakeBaseTools();
      const model = new ScriptedProvider([
        { toolCalls: [{ name: "bash", arguments: { subject: "git push" } }] },
        { text: "ok" },
      ]);
      const { messages, result } = await runLoop({
        provider: model,
        tools,
        extensions: [hooks.extension, extension],
        root: dir,
      });
      expect(toolResults(messages)).toEqual([shown]);
      expect(tools[0].calls).toHaveLength(0);
      expect(result.stats.blocked).toBe(1);
      expect(decisions.map((decision) => [decision.action, decision.band])).toEqual([["deny", "hook-deny"]]);
    },
  );

  it("fails closed: hooks no permission extension took over refuse a denied call themselves", async () => {
    const { hooks } = hooksWith({ PreToolUse: [{ hooks: [command("echo nope >&2; exit 2")] }] });
    // Another session's permission extension took its own hooks' verdicts, not these.
    decidingPermissions(hooksWith({}).hooks, tempDir());
    const tools = fakeBaseTools();
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "bash", arguments: { subject: "ls" } }] },
      { text: "ok" },
    ]);
    const { messages } = await runLoop({ provider: model, tools, extensions: [hooks.extension] });
    expect(toolResults(messages)).toEqual(["nope"]);
    expect(tools[0].calls).toHaveLength(0);
  });
});

describe("session-level hooks", () => {
  it("UserPromptSubmit exit 2 refuses the prompt with stderr; the payload has the prompt", async () => {
    const dir = tempDir();
    const file = path.join(dir, "prompt.json");
    const { hooks } = hooksWith(
      {
        UserPromptSubmit: [{ hooks: [command(`cat > '${file}'; echo 'no secrets in prompts' >&2; exit 2`)] }],
      },
      dir,
    );
    expect(await hooks.runPromptHooks("my password is hunter2")).toEqual({
      blocked: "no secrets in prompts",
    });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      hook_event_name: "UserPromptSubmit",
      session_id: "session-1",
      transcript_path: path.join(dir, "transcript.jsonl"),
      permission_mode: "default",
      cwd: dir,
      prompt: "my password is hunter2",
    });
  });

  it("UserPromptSubmit and SessionStart stdout comes back as context; failures warn", async () => {
    const { hooks, events } = hooksWith({
      UserPromptSubmit: [{ hooks: [command("echo 'branch: main'"), command("exit 7")] }],
      SessionStart: [{ hooks: [command("echo started")] }],
    });
    expect(await hooks.runPromptHooks("hi")).toEqual({ context: "branch: main" });
    expect(await hooks.runSessionStart()).toEqual({ context: "started" });
    expect(events).toContainEqual(
      expect.objectContaining({ level: "warn", text: expect.stringContaining("code 7") }),
    );
  });

  it("SubagentStop runs with the subagent's description and logs its stats", async () => {
    const dir = tempDir();
    const file = path.join(dir, "sub.json");
    const { hooks, lines } = hooksWith({ SubagentStop: [{ hooks: [command(`cat > '${file}'`)] }] }, dir);
    await hooks.runSubagentStop({
      description: "find tests",
      agentType: "explore",
      result: {
        text: "found 3",
        stop: "done",
        stats: { turns: 2, toolCalls: 1, blocked: 0, usage: {} as never },
      },
    });
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      hook_event_name: "SubagentStop",
      description: "find tests",
      agent_type: "explore",
      final_text: "found 3",
    });
    expect(lines).toEqual(["  [HOOK] SubagentStop: turns=2, tool_calls=1, blocked=0"]);
  });
});
