import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { LoopExtension } from "../../src/agent/extension.js";
import { runAgentLoop } from "../../src/agent/loop.js";
import { Conversation } from "../../src/core/conversation.js";
import type { ToolEffect } from "../../src/core/tool.js";
import { ScriptedProvider } from "../../src/providers/scripted.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { defineTool } from "../../src/tools/tool.js";
import { Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";

/**
 * Tools that record when they start and finish and wait until `release` says so, so the test
 * sees which calls were running at the same time without relying on timing.
 */
function recordingTools() {
  const log: string[] = [];
  const waiting = new Map<string, () => void>();
  let onStart: () => void = () => {};
  const started = () => new Promise<void>((resolve) => (onStart = resolve));
  const make = (name: string, effect: ToolEffect) =>
    defineTool({
      name,
      description: `${name} (${effect})`,
      parameters: () => z.object({ id: z.string() }),
      effect,
      async execute({ id }) {
        log.push(`start ${id}`);
        await new Promise<void>((resolve) => {
          waiting.set(id, resolve);
          onStart();
        });
        log.push(`end ${id}`);
        return `result ${id}`;
      },
    });
  const release = (id: string) => waiting.get(id)?.();
  return { log, waiting, started, release, read: make("look", "read"), write: make("change", "write") };
}

function run(
  tools: ReturnType<typeof recordingTools>,
  calls: Array<[string, string]>,
  extensions: LoopExtension[] = [],
) {
  const model = new ScriptedProvider([
    { toolCalls: calls.map(([name, id]) => ({ name, arguments: { id } })) },
    { text: "done" },
  ]);
  const conversation = new Conversation([{ role: "user", content: "task" }]);
  const events: string[] = [];
  const done = runAgentLoop(
    {
      provider: model,
      system: "s",
      tools: new ToolRegistry([tools.read, tools.write]),
      workspace: new Workspace(tempDir("hx-parallel-")),
      maxTurns: 5,
      extensions,
      emit: (event) => {
        if (event.type === "tool_call" || event.type === "tool_result")
          events.push(`${event.type} ${event.call.id}`);
      },
    },
    conversation,
  );
  return { done, conversation, events };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe("parallel read-only calls", () => {
  it("runs the read calls of one turn together and appends their results in call order", async () => {
    const tools = recordingTools();
    const { done, conversation, events } = run(tools, [
      ["look", "a"],
      ["look", "b"],
      ["look", "c"],
      ["look", "d"],
    ]);
    // All four are running before any of them ends.
    await until(() => tools.waiting.size === 4);
    expect(tools.log).toEqual(["start a", "start b", "start c", "start d"]);
    for (const id of ["d", "c", "b", "a"]) tools.release(id);
    await done;
    const results = conversation.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(results).toEqual(["result a", "result b", "result c", "result d"]);
    const asked = conversation.messages.flatMap((m) =>
      m.role === "assistant" ? m.toolCalls.map((c) => c.id) : [],
    );
    const answered = conversation.messages.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : []));
    expect(answered).toEqual(asked);
    expect(events.slice(0, 4).every((e) => e.startsWith("tool_call"))).toBe(true);
    expect(events.slice(4).every((e) => e.startsWith("tool_result"))).toBe(true);
  });

  it("a call with another effect runs alone, so reads after a write see it", async () => {
    const tools = recordingTools();
    const { done } = run(tools, [
      ["look", "a"],
      ["look", "b"],
      ["change", "w"],
      ["look", "c"],
    ]);
    await until(() => tools.waiting.size === 2);
    expect(tools.log).toEqual(["start a", "start b"]);
    tools.release("b");
    tools.release("a");
    await until(() => tools.waiting.has("w"));
    expect(tools.log).toEqual(["start a", "start b", "end b", "end a", "start w"]);
    tools.release("w");
    await until(() => tools.waiting.has("c"));
    tools.release("c");
    await done;
    expect(tools.log.slice(-3)).toEqual(["end w", "start c", "end c"]);
  });

  it("checks calls one at a time in call order and runs after-call extensions in call order", async () => {
    const tools = recordingTools();
    const seen: string[] = [];
    const extension: LoopExtension = {
      name: "order",
      async beforeToolCall(prepared) {
        seen.push(`before ${(prepared.args as { id: string }).id}`);
        await new Promise((resolve) => setImmediate(resolve));
        return (prepared.args as { id: string }).id === "b" ? { block: "no b" } : undefined;
      },
      afterToolCall(prepared, output) {
        seen.push(`after ${(prepared.args as { id: string }).id}`);
        return output;
      },
    };
    const { done, conversation } = run(
      tools,
      [
        ["look", "a"],
        ["look", "b"],
        ["look", "c"],
      ],
      [extension],
    );
    await until(() => tools.waiting.size === 2);
    tools.release("c");
    tools.release("a");
    await done;
    expect(seen).toEqual(["before a", "before b", "before c", "after a", "after c"]);
    const results = conversation.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(results).toEqual(["result a", "no b", "result c"]);
  });
});
