import type { StreamDelta } from "../core/events.js";
import type { AssistantMessage, ToolCall, Usage } from "../core/messages.js";
import type { ModelResponse, StopReason } from "./provider.js";

/** The parts of Anthropic stream events hx reads (`ping` and unknown events are ignored). */
export interface MessagesEvent {
  type: string;
  index?: number;
  message?: { usage?: AnthropicUsage | null };
  content_block?: { type: string; id?: string; name?: string };
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    stop_reason?: string | null;
  };
  usage?: AnthropicUsage | null;
}

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

interface ToolBlock {
  id: string;
  name: string;
  json: string;
}

/**
 * Assembles Anthropic stream events into one assistant message. Text blocks are joined,
 * thinking text is joined and keeps the (last) signature, tool inputs are built from
 * `input_json_delta` fragments. Usage: `message_start` gives the input side, `message_delta`
 * the running output count (gateways also send input numbers there); each field keeps its
 * largest value, so a later zero never erases a count.
 */
export class MessagesStreamAssembler {
  private text = "";
  private thinking = "";
  private signature: string | undefined;
  private readonly tools = new Map<number, ToolBlock>();
  private readonly usage: Required<{ [K in keyof AnthropicUsage]: number }> = {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
  private stop: string | undefined;
  private stopped = false;
  private started = false;

  constructor(private readonly onDelta?: (delta: StreamDelta) => void) {}

  /** True once `message_stop` (or a `message_delta` with a stop reason) arrived. */
  get finished(): boolean {
    return this.stopped;
  }

  /** True while no `message_start` arrived (the stream carried no message). */
  get empty(): boolean {
    return !this.started;
  }

  push(event: MessagesEvent): void {
    switch (event.type) {
      case "message_start":
        this.started = true;
        this.addUsage(event.message?.usage);
        break;
      case "content_block_start":
        if (event.content_block?.type === "tool_use") {
          this.tools.set(event.index ?? this.tools.size, {
            id: event.content_block.id ?? "",
            name: event.content_block.name ?? "",
            json: "",
          });
        }
        break;
      case "content_block_delta":
        this.pushDelta(event);
        break;
      case "message_delta":
        this.addUsage(event.usage);
        if (event.delta?.stop_reason) {
          this.stop = event.delta.stop_reason;
          this.stopped = true;
        }
        break;
      case "message_stop":
        this.stopped = true;
        break;
    }
  }

  result(): ModelResponse {
    const toolCalls: ToolCall[] = [...this.tools.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, block]) => ({ id: block.id, name: block.name, arguments: block.json.trim() || "{}" }));
    const message: AssistantMessage = { role: "assistant", content: this.text, toolCalls };
    if (this.thinking || this.signature) {
      message.reasoning = { text: this.thinking };
      if (this.signature) message.reasoning.signature = this.signature;
    }
    const u = this.usage;
    const usage: Usage = {
      inputTokens: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens,
      outputTokens: u.output_tokens,
      cachedInputTokens: u.cache_read_input_tokens,
      cacheWriteTokens: u.cache_creation_input_tokens,
      reasoningTokens: 0,
    };
    return { message, usage, stopReason: stopReason(this.stop, toolCalls) };
  }

  private pushDelta(event: MessagesEvent): void {
    const delta = event.delta;
    if (delta?.type === "text_delta" && delta.text) {
      this.text += delta.text;
      this.onDelta?.({ type: "text", text: delta.text });
    } else if (delta?.type === "thinking_delta" && delta.thinking) {
      this.thinking += delta.thinking;
      this.onDelta?.({ type: "reasoning", text: delta.thinking });
    } else if (delta?.type === "signature_delta" && delta.signature) {
      this.signature = delta.signature;
    } else if (delta?.type === "input_json_delta" && delta.partial_json) {
      const block = this.tools.get(event.index ?? -1);
      if (block) block.json += delta.partial_json;
    }
  }

  private addUsage(usage: AnthropicUsage | null | undefined): void {
    if (!usage) return;
    for (const key of Object.keys(this.usage) as (keyof AnthropicUsage)[]) {
      const value = usage[key];
      if (typeof value === "number") this.usage[key] = Math.max(this.usage[key], value);
    }
  }
}

function stopReason(stop: string | undefined, toolCalls: ToolCall[]): StopReason {
  if (stop === "max_tokens") return "length";
  if (toolCalls.length > 0) return "tool_calls";
  return "stop";
}
