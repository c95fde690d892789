import { describe, expect, it, vi } from "vitest";
import type { AgentEvent } from "../../src/core/events.js";
import { createSessionHooks } from "../../src/hooks/hooks.js";
import { HookRegistry } from "../../src/hooks/registry.js";
import { createPermissionExtension } from "../../src/permissions/extension.js";
import { parseRules } from "../../src/permissions/rules.js";
import { ScriptedProvider, type ScriptedReply } from "../../src/providers/scripted.js";
import { createTaskTool } from "../../src/subagent/task-tool.js";
import type { SubagentStopInfo } from "../../src/subagent/types.js";
import { Workspace } from "../../src/tools/workspace.js";
import { fakeBaseTools, recordingTool, runLoop, toolResults } from "../support/harness-tools.js";
import { tempDir } from "../support/temp-dir.js";

function setup(script: ScriptedReply[], options: { maxTurns?: number; mode?: "default" | "plan" } = {}) {
  const root = tempDir();
  const base = fakeBaseTools();
  const sessionOnly = [recordingTool("load_skill", "none"), recordingTool("todo_write", "none")];
  const model = new ScriptedProvider(script);
  const permissions = createPermissionExtension({
    mode: options.mode ?? "default",
    rules: parseRules({ allow: ["bash(ls*)"] }).rules,
    projectRoot: root,
  });
  const lines: string[] = [];
  const hooks = createSessionHooks({
    registry: HookRegistry.empty(),
    sessionId: "s",
    workspace: new Workspace(root),
    transcriptPath: `${root}/transcript.jsonl`,
    log: (line) => lines.push(line),
  });
  const stops: SubagentStopInfo[] = [];
  const task = createTaskTool({
    provider: model,
    tools: [...base, ...sessionOnly],
    workspace: new Workspace(root),
    extensions: [permissions, hooks.subagentExtension],
    systemPrompt: "You are a subagent.",
    maxTurns: options.maxTurns,
    onSubagentStop: async (info) => {
      stops.push(info);
      await hooks.runSubagentStop(info);
    },
  });
  const parentTools = [...base, ...sessionOnly, task];
  const extensions = [permissions, hooks.extension];
  return { root, base, model, parentTools, extensions, lines, stops };
}

const taskCall = (args: Record<string, unknown>): ScriptedReply => ({
  toolCalls: [{ name: "task", arguments: args }],
});

describe("task tool: a subagent run inside the parent loop", () => {
  it("gets fresh history and its own tools; only its final text returns; events are wrapped; permissions apply", async () => {
    const { model, parentTools, extensions, lines, stops, base } = setup([
      taskCall({ description: "find the config", prompt: "Where is the config loaded?" }),
      { text: "Let me look.", toolCalls: [{ name: "bash", arguments: { subject: "ls src" } }] },
      { toolCalls: [{ name: "write_file", arguments: { subject: "notes.md" } }] },
      { text: "The config is loaded in src/config/settings.ts." },
      { text: "It is in settings.ts." },
    ]);
    const { messages, events, result } = await runLoop({
      provider: model,
      tools: parentTools,
      extensions,
      prompt: "find where the config is loaded",
      system: "parent system",
    });

    // The subagent's requests: fresh history, its own system prompt and tool list.
    const subRequests = model.requests.slice(1, 4);
    for (const request of subRequests) {
      expect(request.system).toBe("You are a subagent.");
      expect(request.tools.map((tool) => tool.name)).toEqual([
        "bash",
        "read_file",
        "write_file",
        "edit_file",
        "glob",
        "grep",
      ]);
    }
    expect(subRequests[0].messages).toEqual([{ role: "user", content: "Where is the config loaded?" }]);
    expect(model.requests[0].tools.map((tool) => tool.name)).toContain("task");

    // Permissions apply inside: the allowed command ran, the write was refused (no asker).
    expect(base[0].calls).toEqual([{ subject: "ls src" }]);
    expect(base[2].calls).toEqual([]);
    const subHistory = model.requests[3].messages;
    expect(subHistory.at(-1)).toMatchObject({
      role: "tool",
      content: expect.stringMatching(/^Permission denied: /),
    });

    // Only the final text comes back; the parent's history holds no subagent messages.
    expect(toolResults(messages)).toEqual(["The config is loaded in src/config/settings.ts."]);
    expect(model.requests[4].messages).toHaveLength(3);
    expect(result).toMatchObject({ text: "It is in settings.ts." });

    // Parent stats count only the parent's calls; the subagent's are reported separately.
    expect(result.stats).toMatchObject({ turns: 2, toolCalls: 1, blocked: 0 });
    const wrapped = events.filter(
      (event): event is Extract<AgentEvent, { type: "subagent" }> => event.type === "subagent",
    );
    expect(wrapped.length).toBeGreaterThan(0);
    expect(new Set(wrapped.map((event) => event.label))).toEqual(new Set(["find the config"]));
    expect(wrapped.filter((event) => event.event.type === "tool_call")).toHaveLength(2);
    const end = wrapped.find((event) => event.event.type === "end")?.event;
    expect(end).toMatchObject({ type: "end", result: { stats: { turns: 3, toolCalls: 2, blocked: 1 } } });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "notice",
        text: 'subagent "find the config" stats turns=3 tool_calls=2 blocked=1',
      }),
    );

    // SubagentStop fired once, and the hook log shows the subagent's calls indented.
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatchObject({ description: "find the config", agentType: "general" });
    expect(lines).toEqual([
      '[HOOK] PreToolUse task({"description":"find the config","prompt":"Where is the config loaded?"})',
      '  [HOOK] PreToolUse bash({"subject":"ls src"})',
      "  [HOOK] PostToolUse bash output_chars=8",
      "  [HOOK] SubagentStop: turns=3, tool_calls=2, blocked=1",
      "[HOOK] PostToolUse task output_chars=47",
      "[HOOK] Stop: turns=2, tool_calls=1, blocked=0",
    ]);
  });

  it("agent_type explore gets read-only tools", async () => {
    const { model, parentTools, extensions } = setup([
      taskCall({ description: "explore", prompt: "look around", agent_type: "explore" }),
      { text: "nothing here" },
      { text: "ok" },
    ]);
    await runLoop({ provider: model, tools: parentTools, extensions });
    expect(model.requests[1].tools.map((tool) => tool.name)).toEqual(["read_file", "glob", "grep"]);
  });

  it("stops at its turn limit and says so, returning its last words", async () => {
    const { model, parentTools, extensions } = setup(
      [
        taskCall({ description: "loop", prompt: "keep going" }),
        { text: "checking a", toolCalls: [{ name: "grep", arguments: {} }] },
        { text: "checking b", toolCalls: [{ name: "grep", arguments: {} }] },
        { text: "ok" },
      ],
      { maxTurns: 2 },
    );
    const { messages } = await runLoop({ provider: model, tools: parentTools, extensions });
    const [output] = toolResults(messages);
    expect(output).toMatch(/^checking b\n\n\[Note: the subagent stopped after 2 turns/);
  });

  it("plan mode holds inside the subagent too", async () => {
    const { model, parentTools, extensions, base } = setup(
      [
        taskCall({ description: "edit", prompt: "edit it" }),
        { toolCalls: [{ name: "edit_file", arguments: { subject: "a.ts" } }] },
        { text: "could not edit" },
        { text: "ok" },
      ],
      { mode: "plan" },
    );
    await runLoop({ provider: model, tools: parentTools, extensions });
    expect(base[3].calls).toEqual([]);
    expect(model.requests[2].messages.at(-1)).toMatchObject({
      content: expect.stringContaining("plan mode"),
    });
  });

  it("an abort in the parent stops the subagent", async () => {
    const controller = new AbortController();
    const onSubagentStop = vi.fn();
    const root = tempDir();
    const stopper = recordingTool("grep", "read");
    stopper.execute = async () => {
      controller.abort();
      return "aborting";
    };
    const model = new ScriptedProvider([
      taskCall({ description: "long", prompt: "go" }),
      { toolCalls: [{ name: "grep", arguments: {} }] },
      { text: "never" },
    ]);
    const task = createTaskTool({
      provider: model,
      tools: [stopper],
      workspace: new Workspace(root),
      extensions: [],
      systemPrompt: "sub",
      onSubagentStop,
    });
    const { result, messages } = await runLoop({
      provider: model,
      tools: [task],
      signal: controller.signal,
      root,
    });
    expect(result.stop).toBe("aborted");
    expect(toolResults(messages)[0]).toContain("cancelled");
    expect(model.requests).toHaveLength(2);
    expect(onSubagentStop).toHaveBeenCalledWith(
      expect.objectContaining({ result: expect.objectContaining({ stop: "aborted" }) }),
    );
  });
});
