import type { AssistantMessage, Message } from "../core/messages.js";
import type { ModelRequest } from "./provider.js";

/**
 * How one OpenAI-compatible endpoint differs from plain OpenAI. Vendor differences live
 * here as flags set by the registry entry, never as checks on vendor names.
 */
export interface OpenAIChatCompat {
  /**
   * Send `reasoning_content` back on assistant messages (DeepSeek thinking mode). Rule from
   * DeepSeek's docs: between two user messages, if the model called tools, every assistant
   * message there carries its `reasoning_content` (empty string when it had none) in all later
   * requests, or the API answers 400; if it called no tools, the reasoning is dropped.
   * When false, reasoning is never sent back.
   */
  sendReasoningContent: boolean;
  /** How `config.thinking` is sent: "deepseek" = `thinking: {type: "enabled" | "disabled"}`; "none" = never. */
  thinkingFormat: "deepseek" | "none";
  /** Field for the output limit: OpenAI's reasoning models reject `max_tokens`. */
  maxTokensField: "max_tokens" | "max_completion_tokens";
  /**
   * The endpoint takes image parts: tool results' images follow the turn's tool messages as
   * one user message (Chat Completions tool messages carry text only). Off: the notes only.
   */
  images?: boolean;
}

/** Wire shape of one outgoing chat message (only the fields hx sends). */
export type ChatMessageParam =
  | { role: "system" | "user"; content: string }
  | {
      role: "user";
      content: Array<{ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } }>;
    }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
      reasoning_content?: string;
    }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ChatRequestSettings {
  model: string;
  compat: OpenAIChatCompat;
  thinking?: boolean;
  maxOutputTokens?: number;
}

/** Builds the streaming request body for `POST /chat/completions`. */
export function buildChatRequest(
  request: ModelRequest,
  settings: ChatRequestSettings,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: settings.model,
    messages: toChatMessages(request, settings.compat),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (settings.maxOutputTokens !== undefined) body[settings.compat.maxTokensField] = settings.maxOutputTokens;
  if (settings.compat.thinkingFormat === "deepseek" && settings.thinking !== undefined) {
    body.thinking = { type: settings.thinking ? "enabled" : "disabled" };
  }
  return body;
}

/** Converts hx messages to Chat Completions messages, system prompt first. */
export function toChatMessages(request: ModelRequest, compat: OpenAIChatCompat): ChatMessageParam[] {
  const out: ChatMessageParam[] = [];
  if (request.system) out.push({ role: "system", content: request.system });
  const toolTurns = compat.sendReasoningContent ? turnsWithToolCalls(request.messages) : new Set<number>();
  let images: Array<{ name: string; image: { mimeType: string; data: string } }> = [];
  const flushImages = () => {
    if (images.length === 0) return;
    out.push({
      role: "user",
      content: [
        { type: "text", text: `Images returned by ${[...new Set(images.map((i) => i.name))].join(", ")}:` },
        ...images.map(({ image }) => ({
          type: "image_url" as const,
          image_url: { url: `data:${image.mimeType};base64,${image.data}` },
        })),
      ],
    });
    images = [];
  };
  request.messages.forEach((message, index) => {
    if (message.role !== "tool") flushImages();
    if (message.role === "user") out.push({ role: "user", content: message.content });
    else if (message.role === "tool") {
      out.push({ role: "tool", tool_call_id: message.toolCallId, content: message.content });
      if (compat.images)
        for (const image of message.images ?? []) images.push({ name: message.toolName, image });
    } else out.push(toAssistant(message, toolTurns.has(index)));
  });
  flushImages();
  return out;
}

function toAssistant(message: AssistantMessage, sendReasoning: boolean): ChatMessageParam {
  const hasCalls = message.toolCalls.length > 0;
  const param: ChatMessageParam = {
    role: "assistant",
    content: message.content || (hasCalls ? null : ""),
  };
  if (hasCalls) {
    param.tool_calls = message.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments || "{}" },
    }));
  }
  if (sendReasoning) param.reasoning_content = message.reasoning?.text ?? "";
  return param;
}

/** Indexes of assistant messages that sit between two user messages where some assistant called tools. */
function turnsWithToolCalls(messages: readonly Message[]): Set<number> {
  const result = new Set<number>();
  let turn: number[] = [];
  let calledTools = false;
  const close = () => {
    if (calledTools) for (const index of turn) result.add(index);
    turn = [];
    calledTools = false;
  };
  messages.forEach((message, index) => {
    if (message.role === "user") close();
    else if (message.role === "assistant") {
      turn.push(index);
      if (message.toolCalls.length > 0) calledTools = true;
    }
  });
  close();
  return result;
}
