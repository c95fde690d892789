import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { LoopExtension } from "../../src/agent/extension.js";
import { runAgentLoop } from "../../src/agent/loop.js";
import type { AgentLoopConfig } from "../../src/agent/loop-config.js";
import { Conversation } from "../../src/core/conversation.js";
import { RunError } from "../../src/core/errors.js";
import type { AgentEvent } from "../../src/core/events.js";
import type { Message, ToolResultMessage } from "../../src/core/messages.js";
import { ProviderError } from "../../src/providers/provider.js";
import { ScriptedProvider, type ScriptedReply } from "../../src/providers/scripted.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { defineTool } from "../../src/tools/tool.js";
import { Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";

const echo = defineTool({
  name: "echo",
  description: "Echoes text.",
  parameters: () => z.object({ text: z.string() }),
  effect: "none",
  execute: async ({ text }) => `echo: ${text}`,
});
const explode = defineTool({
  name: "explode",
  description: "Always throws.",
  parameters: () => z.object({}),
  effect: "none",
  execute: async () => {
    throw new Error("kaboom");
  },
});

function setup(replies: ScriptedReply[], overrides: Partial<AgentLoopConfig> = {}) {
  const model = new ScriptedProvider(replies);
  const events: AgentEvent[] = [];
  const config: AgentLoopConfig = {
    provider: model,
    system: "system prompt",
    tools: new ToolRegistry([echo, explode]),
    workspace: new Workspace(tempDir("hx-loop-")),
    maxTurns: 10,
    extensions: [],
    emit: (event) => events.push(event),
    ...overrides,
  };
  const conversation = new Conversation([{ role: "user", content: "task" }]);
  return { model, events, config, conversation, messages: conversation.messages };
}

const toolResults = (messages: readonly Message[]) =>
  messages.filter((m): m is ToolResultMessage => m.role === "tool");

describe("runAgentLoop", () => {
  it("ends when the model answers in text", async () => {
    const { config, conversation } = setup([{ text: "done" }]);
    const result = await runAgentLoop(config, conversation);
    expect(result).toMatchObject({
      text: "done",
      stop: "done",
      stats: { turns: 1, toolCalls: 0, blocked: 0 },
    });
  });

  it("runs parallel tool calls in order, each with its own result, and sends them back", async () => {
    const { config, conversation, model } = setup([
      {
        toolCalls: [
          { name: "echo", arguments: { text: "a" } },
          { name: "echo", arguments: { text: "b" } },
        ],
      },
      { text: "ok" },
    ]);
    const result = await runAgentLoop(config, conversation);
    expect(result.stats).toMatchObject({ turns: 2, toolCalls: 2 });
    const sent = model.sent(1);
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool"]);
    const [first, second] = toolResults(sent);
    const assistant = sent[1];
    if (assistant.role !== "assistant") throw new Error("expected assistant");
    expect(first).toMatchObject({ toolCallId: assistant.toolCalls[0].id, content: "echo: a" });
    expect(second).toMatchObject({ toolCallId: assistant.toolCalls[1].id, content: "echo: b" });
  });

  it("survives bad input: unknown tool, broken JSON, schema mismatch, a throwing tool", async () => {
    const { config, conversation, messages } = setup([
      {
        toolCalls: [
          { name: "nope", arguments: {} },
          { name: "echo", arguments: "{not json" },
          { name: "echo", arguments: { text: 42 } },
          { name: "explode", arguments: {} },
        ],
      },
      { text: "recovered" },
    ]);
    const result = await runAgentLoop(config, conversation);
    expect(result.text).toBe("recovered");
    const [unknown, badJson, badSchema, thrown] = toolResults(messages);
    expect(unknown.content).toBe("Error: Unknown tool 'nope'. Available tools: echo, explode");
    expect(badJson.content).toMatch(/^Error: the arguments for echo are not valid JSON/);
    expect(badSchema.content).toMatch(/^Error: invalid arguments for echo: text: /);
    expect(thrown).toMatchObject({ content: "Error: kaboom", isError: true });
  });

  it("stops a runaway loop at maxTurns with a clear message", async () => {
    const replies = Array.from({ length: 5 }, () => ({
      toolCalls: [{ name: "echo", arguments: { text: "x" } }],
    }));
    const { config, conversation, messages } = setup(replies, { maxTurns: 3 });
    const result = await runAgentLoop(config, conversation);
    expect(result.stop).toBe("max_turns");
    expect(result.stats.turns).toBe(3);
    expect(result.error?.message).toBe("Stopped after 3 turns without a final answer.");
    expect(result.error?.hint).toMatch(/--max-turns/);
    expect(result.error).toBeInstanceOf(RunError);
    expect(result.error?.kind).toBe("max_turns");
    expect(messages.at(-1)?.role).toBe("tool");
  });

  it("an extension that ends the run before a request: the extensions after it are not called", async () => {
    const called: string[] = [];
    const budget: LoopExtension = {
      name: "budget",
      beforeModelCall: (state) => {
        called.push("budget");
        state.endRun("The budget is spent.");
      },
    };
    const compactor: LoopExtension = {
      name: "compactor",
      beforeModelCall: () => void called.push("compactor"),
    };
    const { config, conversation, model } = setup([{ text: "never asked" }], {
      extensions: [budget, compactor],
    });
    const result = await runAgentLoop(config, conversation);
    expect(result.stop).toBe("ended");
    expect(called).toEqual(["budget"]);
    expect(model.requests).toHaveLength(0);
  });

  it("an extension ends the run: later calls of the turn get a 'not run' result, no further request", async () => {
    const stopper: LoopExtension = {
      name: "stopper",
      afterToolCall: (prepared, _output, state) => {
        if (prepared.call.name === "echo") state.endRun("The stopper ended the run.");
        return undefined;
      },
    };
    const { config, conversation, model, messages } = setup(
      [
        {
          toolCalls: [
            { name: "echo", arguments: { text: "a" } },
            { name: "explode", arguments: {} },
          ],
        },
        { text: "never asked" },
      ],
      { extensions: [stopper] },
    );
    const result = await runAgentLoop(config, conversation);
    expect(result.stop).toBe("ended");
    expect(result.error).toBeInstanceOf(RunError);
    expect(result.error).toMatchObject({ kind: "ended", message: "The stopper ended the run." });
    expect(model.requests).toHaveLength(1);
    const [first, second] = toolResults(messages);
    expect(first.content).toBe("echo: a");
    expect(second).toMatchObject({
      isError: true,
      content: "Error: not run, the run was ended. The stopper ended the run.",
    });
  });

  it("keeps a tool output's meta on its result message and tells subscribers of each message", async () => {
    const tagged = defineTool({
      name: "tagged",
      description: "Returns a tagged result.",
      parameters: () => z.object({}),
      effect: "none",
      execute: async () => ({ content: "body", meta: { skill: "deploy" } }),
    });
    const { config, conversation, messages } = setup(
      [{ toolCalls: [{ name: "tagged", arguments: {} }] }, { text: "done" }],
      { tools: new ToolRegistry([tagged]) },
    );
    const appended: string[] = [];
    conversation.subscribe((change) => {
      if (change.type === "append") appended.push(change.message.role);
    });
    await runAgentLoop(config, conversation);
    expect(toolResults(messages)[0]).toMatchObject({ content: "body", meta: { skill: "deploy" } });
    expect(appended).toEqual(["assistant", "tool", "assistant"]);
  });

  it("lets an extension block a call; the block is the result and counts as blocked", async () => {
    const guard: LoopExtension = {
      name: "guard",
      beforeToolCall: (prepared) =>
        prepared.tool.name === "echo" ? { block: "Permission denied: test" } : undefined,
    };
    const { config, conversation, messages } = setup(
      [{ toolCalls: [{ name: "echo", arguments: { text: "a" } }] }, { text: "fine" }],
      { extensions: [guard] },
    );
    const result = await runAgentLoop(config, conversation);
    expect(result.stats.blocked).toBe(1);
    expect(toolResults(messages)[0].content).toBe("Permission denied: test");
  });

  it("reports a throwing extension as a warning and goes on", async () => {
    const broken: LoopExtension = {
      name: "broken",
      beforeModelCall: () => {
        throw new Error("bad extension");
      },
    };
    const { config, conversation, events } = setup([{ text: "still fine" }], {
      extensions: [broken],
    });
    const result = await runAgentLoop(config, conversation);
    expect(result.text).toBe("still fine");
    expect(events).toContainEqual({
      type: "notice",
      level: "warn",
      text: "extension broken failed: bad extension",
    });
  });

  it("refuses a call whose check throws (fails closed) and tells the model why", async () => {
    const broken: LoopExtension = {
      name: "permissions",
      beforeToolCall: () => {
        throw new Error("rule engine crashed");
      },
    };
    const ran: string[] = [];
    const spy = defineTool({
      name: "echo",
      description: "Echoes text.",
      parameters: () => z.object({ text: z.string() }),
      effect: "execute",
      execute: async ({ text }) => {
        ran.push(text);
        return text;
      },
    });
    const { config, conversation, messages, events } = setup(
      [{ toolCalls: [{ name: "echo", arguments: { text: "a" } }] }, { text: "done" }],
      { extensions: [broken], tools: new ToolRegistry([spy]) },
    );
    const result = await runAgentLoop(config, conversation);
    expect(ran).toEqual([]);
    expect(result.stats.blocked).toBe(1);
    const [refusal] = toolResults(messages);
    expect(refusal.isError).toBe(true);
    expect(refusal.content).toContain("the permissions check failed (rule engine crashed)");
    expect(events).toContainEqual({
      type: "notice",
      level: "warn",
      text: "extension permissions failed: rule engine crashed",
    });
  });

  it("feeds onStop text back, at most three times", async () => {
    const nag: LoopExtension = { name: "nag", onStop: () => "keep going" };
    const replies = Array.from({ length: 5 }, (_, i) => ({ text: `answer ${i}` }));
    const { config, conversation, messages } = setup(replies, { extensions: [nag] });
    const result = await runAgentLoop(config, conversation);
    expect(result.text).toBe("answer 3");
    expect(messages.filter((m) => m.role === "user" && m.content === "keep going")).toHaveLength(3);
  });

  it("ends with stop=error on a provider failure, and retries once when an extension asks", async () => {
    const failing = setup([{ error: new ProviderError("server", "boom") }]);
    const failed = await runAgentLoop(failing.config, failing.conversation);
    expect(failed).toMatchObject({ stop: "error", error: { kind: "server", message: "boom" } });

    const retrier: LoopExtension = { name: "retrier", onModelError: () => "retry" };
    const retried = setup(
      [{ error: new ProviderError("context_overflow", "too long") }, { text: "after retry" }],
      {
        extensions: [retrier],
      },
    );
    expect((await runAgentLoop(retried.config, retried.conversation)).text).toBe("after retry");
  });

  it("fills in a result for every call when cancelled mid-turn", async () => {
    const controller = new AbortController();
    const stopper = defineTool({
      name: "stopper",
      description: "Cancels the run.",
      parameters: () => z.object({}),
      effect: "none",
      execute: async () => {
        controller.abort();
        return "stopped";
      },
    });
    const { config, conversation, messages } = setup(
      [
        {
          toolCalls: [
            { name: "stopper", arguments: {} },
            { name: "echo", arguments: { text: "later" } },
          ],
        },
      ],
      { tools: new ToolRegistry([echo, stopper]), signal: controller.signal },
    );
    const result = await runAgentLoop(config, conversation);
    expect(result.stop).toBe("aborted");
    const results = toolResults(messages);
    expect(results).toHaveLength(2);
    expect(results[1].content).toMatch(/cancelled/);
  });

  it("sends byte-identical system prompt and tool schemas on every request", async () => {
    const { config, conversation, model } = setup([
      { toolCalls: [{ name: "echo", arguments: { text: "a" } }] },
      { toolCalls: [{ name: "echo", arguments: { text: "b" } }] },
      { text: "end" },
    ]);
    await runAgentLoop(config, conversation);
    const first = JSON.stringify([model.requests[0].system, model.requests[0].tools]);
    for (const request of model.requests) expect(JSON.stringify([request.system, request.tools])).toBe(first);
  });
});
