// An in-memory ModelProvider for unit tests: replies from a list, records every request
// (deep-copied, so later mutation of the history does not change what was "sent").
import { emptyUsage, type Message, type ToolCall, type Usage } from "../../src/core/messages.js";
import {
  type CompleteOptions,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  ProviderError,
} from "../../src/providers/provider.js";

export interface ScriptedReply {
  text?: string;
  reasoning?: string;
  toolCalls?: Array<{ name: string; arguments: unknown; id?: string }>;
  usage?: Partial<Usage>;
  /** Throw this instead of answering. */
  error?: ProviderError;
}

/** A reply computed from the request (e.g. to answer a summarisation prompt). */
export type ReplyFn = (request: ModelRequest) => ScriptedReply;

export class ScriptedModel implements ModelProvider {
  readonly name = "scripted-test";
  readonly model = "scripted-test-model";
  readonly requests: ModelRequest[] = [];
  private readonly queue: Array<ScriptedReply | ReplyFn>;
  private callCounter = 0;

  constructor(replies: Array<ScriptedReply | ReplyFn>) {
    this.queue = [...replies];
  }

  /** Adds replies to the end of the script. */
  push(...replies: Array<ScriptedReply | ReplyFn>): void {
    this.queue.push(...replies);
  }

  async complete(request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
    this.requests.push(structuredClone(request));
    if (options.signal?.aborted) throw new ProviderError("aborted", "Cancelled.");
    const next = this.queue.shift();
    if (!next)
      throw new ProviderError("config", `ScriptedModel: no reply left for request ${this.requests.length}`);
    const reply = typeof next === "function" ? next(request) : next;
    if (reply.error) throw reply.error;
    if (reply.reasoning) options.onDelta?.({ type: "reasoning", text: reply.reasoning });
    if (reply.text) options.onDelta?.({ type: "text", text: reply.text });
    const toolCalls: ToolCall[] = (reply.toolCalls ?? []).map((call) => ({
      id: call.id ?? `call_${++this.callCounter}`,
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    }));
    return {
      message: {
        role: "assistant",
        content: reply.text ?? "",
        toolCalls,
        ...(reply.reasoning ? { reasoning: { text: reply.reasoning } } : {}),
      },
      usage: { ...emptyUsage(), inputTokens: estimate(request), outputTokens: 10, ...reply.usage },
      stopReason: toolCalls.length ? "tool_calls" : "stop",
    };
  }

  /** The messages of request `index` (0-based). */
  sent(index: number): Message[] {
    return this.requests[index].messages;
  }
}

function estimate(request: ModelRequest): number {
  return Math.ceil((request.system.length + JSON.stringify(request.messages).length) / 4);
}
