import type { AssistantMessage, Message } from "../core/messages.js";
import type { ModelRequest } from "./provider.js";

/** Output limit when the user sets none; Anthropic requires `max_tokens` on every request. */
const DEFAULT_MAX_OUTPUT_TOKENS = 16_000;

const CACHE = { type: "ephemeral" } as const;

type Block = Record<string, unknown>;

export interface WireMessage {
  role: "user" | "assistant";
  content: Block[];
}

export interface MessagesRequestSettings {
  model: string;
  maxOutputTokens?: number;
  /** true = extended thinking on, false = explicitly off, undefined = not sent. */
  thinking?: boolean;
}

/**
 * Builds the streaming body for `POST /v1/messages`. Prompt caching: the system prompt,
 * the last tool and the last user message each carry a `cache_control` breakpoint, so a
 * growing conversation reuses the cached prefix.
 */
export function buildMessagesRequest(
  request: ModelRequest,
  settings: MessagesRequestSettings,
): Record<string, unknown> {
  const maxTokens = settings.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const body: Record<string, unknown> = {
    model: settings.model,
    max_tokens: maxTokens,
    messages: toAnthropicMessages(request.messages),
    stream: true,
  };
  if (request.system) body.system = [{ type: "text", text: request.system, cache_control: CACHE }];
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool, index) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
      ...(index === request.tools.length - 1 ? { cache_control: CACHE } : {}),
    }));
  }
  if (settings.thinking === true) {
    body.thinking = { type: "enabled", budget_tokens: Math.max(1024, Math.floor(maxTokens / 2)) };
  } else if (settings.thinking === false) {
    body.thinking = { type: "disabled" };
  }
  return body;
}

/**
 * Converts hx messages to Anthropic messages. Consecutive tool results (and a user message
 * right after them) share one user message, since roles must alternate. Thinking blocks with
 * their signature are sent back only on assistant messages that called tools.
 */
export function toAnthropicMessages(messages: readonly Message[]): WireMessage[] {
  const out: WireMessage[] = [];
  const pushUserBlock = (block: Block) => {
    const last = out[out.length - 1];
    if (last?.role === "user") last.content.push(block);
    else out.push({ role: "user", content: [block] });
  };
  for (const message of messages) {
    if (message.role === "user") pushUserBlock({ type: "text", text: message.content });
    else if (message.role === "tool") {
      pushUserBlock({
        type: "tool_result",
        tool_use_id: message.toolCallId,
        content: message.images?.length
          ? [
              { type: "text", text: message.content },
              ...message.images.map((image) => ({
                type: "image",
                source: { type: "base64", media_type: image.mimeType, data: image.data },
              })),
            ]
          : message.content,
        ...(message.isError ? { is_error: true } : {}),
      });
    } else {
      const content = assistantBlocks(message);
      if (content.length > 0) out.push({ role: "assistant", content });
    }
  }
  markLastUserBlock(out);
  return out;
}

function assistantBlocks(message: AssistantMessage): Block[] {
  const blocks: Block[] = [];
  const hasCalls = message.toolCalls.length > 0;
  if (hasCalls && message.reasoning?.signature) {
    blocks.push({
      type: "thinking",
      thinking: message.reasoning.text,
      signature: message.reasoning.signature,
    });
  }
  if (message.content) blocks.push({ type: "text", text: message.content });
  for (const call of message.toolCalls) {
    blocks.push({ type: "tool_use", id: call.id, name: call.name, input: parseInput(call.arguments) });
  }
  return blocks;
}

/** Tool input must be an object on the wire; a call whose JSON was broken is sent as `{}`. */
function parseInput(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || "{}");
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function markLastUserBlock(messages: WireMessage[]): void {
  const lastUser = [...messages].reverse().find((message) => message.role === "user");
  const block = lastUser?.content[lastUser.content.length - 1];
  if (block) block.cache_control = CACHE;
}
