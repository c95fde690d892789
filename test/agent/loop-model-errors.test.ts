import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { LoopExtension } from "../../src/agent/extension.js";
import { runAgentLoop } from "../../src/agent/loop.js";
import type { AgentLoopConfig } from "../../src/agent/loop-config.js";
import { Conversation } from "../../src/core/conversation.js";
import type { AgentEvent } from "../../src/core/events.js";
import { emptyUsage } from "../../src/core/messages.js";
import { type ModelProvider, type ModelResponse, ProviderError } from "../../src/providers/provider.js";
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

type Step = ProviderError | Omit<ModelResponse, "usage">;

/** A provider that plays `steps` in order: a ProviderError is thrown, a response returned. */
function playing(steps: Step[]): ModelProvider & { calls: number } {
  const provider = {
    name: "steps",
    model: "steps",
    calls: 0,
    async complete(): Promise<ModelResponse> {
      const step = steps[provider.calls++];
      if (!step) throw new Error("no step left");
      if (step instanceof ProviderError) throw step;
      return { ...step, usage: emptyUsage() };
    },
  };
  return provider;
}

const answer = (text: string, stopReason: ModelResponse["stopReason"] = "stop"): Step => ({
  message: { role: "assistant", content: text, toolCalls: [] },
  stopReason,
});
const echoCall = (id: string): Step => ({
  message: { role: "assistant", content: "", toolCalls: [{ id, name: "echo", arguments: '{"text":"x"}' }] },
  stopReason: "tool_calls",
});

function run(provider: ModelProvider, extensions: LoopExtension[] = []) {
  const events: AgentEvent[] = [];
  const config: AgentLoopConfig = {
    provider,
    system: "system",
    tools: new ToolRegistry([echo]),
    workspace: new Workspace(tempDir("hx-loop-errors-")),
    maxTurns: 10,
    extensions,
    emit: (event) => events.push(event),
  };
  const conversation = new Conversation([{ role: "user", content: "task" }]);
  return { events, result: runAgentLoop(config, conversation) };
}

describe("onModelError retry", () => {
  it("retries once after a model error, not twice", async () => {
    let asked = 0;
    const retrier: LoopExtension = {
      name: "retrier",
      onModelError: () => {
        asked += 1;
        return "retry";
      },
    };
    const provider = playing([
      new ProviderError("context_overflow", "too long"),
      new ProviderError("context_overflow", "still too long"),
      answer("never reached"),
    ]);
    const { result } = run(provider, [retrier]);
    expect(await result).toMatchObject({ stop: "error", error: { message: "still too long" } });
    expect(provider.calls).toBe(2);
    expect(asked).toBe(1);
  });

  it("earns the retry again after a call succeeds", async () => {
    const retrier: LoopExtension = { name: "retrier", onModelError: () => "retry" };
    const provider = playing([
      new ProviderError("context_overflow", "too long"),
      echoCall("c1"),
      new ProviderError("context_overflow", "too long again"),
      answer("finished"),
    ]);
    const { result } = run(provider, [retrier]);
    expect(await result).toMatchObject({ stop: "done", text: "finished", stats: { turns: 2 } });
    expect(provider.calls).toBe(4);
  });
});

describe("onModelError extensions", () => {
  it("run one after another, in order, as every other extension point", async () => {
    const order: string[] = [];
    const slow: LoopExtension = {
      name: "slow",
      onModelError: async () => {
        order.push("slow starts");
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push("slow ends");
        return undefined;
      },
    };
    const next: LoopExtension = {
      name: "next",
      onModelError: () => {
        order.push("next");
        return "retry";
      },
    };
    const { result } = run(playing([new ProviderError("context_overflow", "too long"), answer("ok")]), [
      slow,
      next,
    ]);
    expect(await result).toMatchObject({ stop: "done", text: "ok" });
    expect(order).toEqual(["slow starts", "slow ends", "next"]);
  });

  it("are not called after one ends the run", async () => {
    let called = false;
    const ender: LoopExtension = {
      name: "ender",
      onModelError: (_error, state) => {
        state.endRun("stop here");
        return undefined;
      },
    };
    const after: LoopExtension = {
      name: "after",
      onModelError: () => {
        called = true;
        return "retry";
      },
    };
    const { result } = run(playing([new ProviderError("context_overflow", "too long")]), [ender, after]);
    expect(await result).toMatchObject({ stop: "ended" });
    expect(called).toBe(false);
  });

  it("count a retried request as the same turn", async () => {
    const retrier: LoopExtension = { name: "retrier", onModelError: () => "retry" };
    const { result, events } = run(
      playing([new ProviderError("context_overflow", "too long"), echoCall("c1"), answer("done")]),
      [retrier],
    );
    expect(await result).toMatchObject({ stop: "done", stats: { turns: 2 } });
    const starts = events.flatMap((event) => (event.type === "turn_start" ? [event.turn] : []));
    expect(starts).toEqual([1, 1, 2]);
  });
});

describe("an answer cut at the output limit", () => {
  it("ends with stop 'length' and a warning", async () => {
    const { result, events } = run(playing([answer("half a sent", "length")]));
    expect(await result).toMatchObject({ stop: "length", text: "half a sent" });
    expect(events).toContainEqual({
      type: "notice",
      level: "warn",
      text: "the answer was cut off at the model's output limit; it is incomplete.",
    });
  });

  it("warns when tool calls were cut, and carries on with the tools", async () => {
    const cut = echoCall("c1");
    const { result, events } = run(playing([{ ...cut, stopReason: "length" } as Step, answer("done")]));
    expect(await result).toMatchObject({ stop: "done", text: "done" });
    expect(events.filter((event) => event.type === "notice").map((event) => event.type)).toHaveLength(1);
  });
});
