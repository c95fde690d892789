import type { StreamDelta } from "../core/events.js";
import { type AssistantMessage, emptyUsage, type ToolCall, type Usage } from "../core/messages.js";
import type { ModelResponse, StopReason } from "./provider.js";

/** The parts of a `chat.completion.chunk` hx reads; vendors add more, all optional here. */
export interface ChatChunk {
  choices?: {
    index?: number;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      /** Ollama and OpenRouter name the reasoning field `reasoning`. */
      reasoning?: string | null;
      tool_calls?: ToolCallDelta[] | null;
    } | null;
    finish_reason?: string | null;
  }[];
  usage?: ChatUsage | null;
  /** Groq repeats the usage here. */
  x_groq?: { usage?: ChatUsage | null } | null;
}

interface ToolCallDelta {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

interface ChatUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek's name for cached prompt tokens. */
  prompt_cache_hit_tokens?: number | null;
}

interface CallSlot {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Assembles streamed chat chunks into one assistant message. Tool calls are keyed by
 * `index` (any starting number), and tolerate the known vendor quirks: ids repeated as
 * `""`, continuation deltas with `"name": ""`, whole arguments in one delta, usage in the
 * finish chunk or in a trailing `choices: []` chunk, and `choices: []` chunks anywhere.
 * A new non-empty id on an index that already has another id starts a new call (servers
 * that number all parallel calls 0).
 */
export class ChatStreamAssembler {
  private text = "";
  private reasoning = "";
  private readonly slots: CallSlot[] = [];
  private readonly slotByIndex = new Map<number, CallSlot>();
  private lastIndex = 0;
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private sawChoice = false;

  constructor(private readonly onDelta?: (delta: StreamDelta) => void) {}

  /** True once a choice reported its finish reason: the answer is complete. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /** True while no chunk carried a choice (a stream of only `choices: []`, or of nothing). */
  get empty(): boolean {
    return !this.sawChoice;
  }

  push(chunk: ChatChunk): void {
    const usage = chunk.usage ?? chunk.x_groq?.usage;
    if (usage) this.usage = toUsage(usage);
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return;
    this.sawChoice = true;
    const delta = choice.delta;
    const reasoning = delta?.reasoning_content ?? delta?.reasoning;
    if (reasoning) {
      this.reasoning += reasoning;
      this.onDelta?.({ type: "reasoning", text: reasoning });
    }
    if (delta?.content) {
      this.text += delta.content;
      this.onDelta?.({ type: "text", text: delta.content });
    }
    for (const call of delta?.tool_calls ?? []) this.pushToolCall(call);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  result(): ModelResponse {
    const toolCalls: ToolCall[] = this.slots.map((slot, position) => ({
      id: slot.id || `call_${position}`,
      name: slot.name,
      arguments: slot.arguments.trim() === "" ? "{}" : slot.arguments,
    }));
    const message: AssistantMessage = { role: "assistant", content: this.text, toolCalls };
    if (this.reasoning) message.reasoning = { text: this.reasoning };
    return {
      message,
      usage: this.usage ?? emptyUsage(),
      stopReason: stopReason(this.finishReason, toolCalls),
    };
  }

  private pushToolCall(delta: ToolCallDelta): void {
    const index = delta.index ?? this.lastIndex;
    this.lastIndex = index;
    const id = delta.id ?? "";
    let slot = this.slotByIndex.get(index);
    if (!slot || (id !== "" && slot.id !== "" && slot.id !== id)) {
      slot = { id: "", name: "", arguments: "" };
      this.slots.push(slot);
      this.slotByIndex.set(index, slot);
    }
    if (id !== "" && slot.id === "") slot.id = id;
    const name = delta.function?.name;
    if (name && slot.name === "") slot.name = name;
    const fragment = delta.function?.arguments;
    if (fragment) slot.arguments += fragment;
  }
}

/** Maps Chat Completions usage to hx usage; cached tokens stay counted in `inputTokens`. */
function toUsage(usage: ChatUsage): Usage {
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0,
    cacheWriteTokens: 0,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

function stopReason(finish: string | undefined, toolCalls: ToolCall[]): StopReason {
  if (finish === "length") return "length";
  if (toolCalls.length > 0) return "tool_calls";
  return "stop";
}
