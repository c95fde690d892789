import type { AssistantMessage, ToolCall } from "../core/messages.js";

/** Characters of one tool-call argument kept in the history (the rest is left out). */
export const MAX_HISTORY_ARGUMENT_CHARS = 16_384;

/**
 * The assistant message as the history keeps it: a tool-call argument longer than
 * {@link MAX_HISTORY_ARGUMENT_CHARS} (a 20 MB `write_file` content) is cut, with a marker
 * saying how much was left out and that the tool received it whole. The history is sent
 * again on every turn; the calls themselves run with the full arguments. Arguments stay JSON
 * (string values are cut inside their quotes); arguments that are not JSON are cut as text.
 */
export function forHistory(message: AssistantMessage): AssistantMessage {
  if (!message.toolCalls.some((call) => call.arguments.length > MAX_HISTORY_ARGUMENT_CHARS)) return message;
  return { ...message, toolCalls: message.toolCalls.map(shortenCall) };
}

function shortenCall(call: ToolCall): ToolCall {
  if (call.arguments.length <= MAX_HISTORY_ARGUMENT_CHARS) return call;
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    return { ...call, arguments: shorten(call.arguments) };
  }
  return { ...call, arguments: JSON.stringify(shortenValue(parsed)) };
}

function shortenValue(value: unknown): unknown {
  if (typeof value === "string") return value.length > MAX_HISTORY_ARGUMENT_CHARS ? shorten(value) : value;
  if (Array.isArray(value)) return value.map(shortenValue);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shortenValue(inner)]));
  return value;
}

function shorten(text: string): string {
  const kept = text.slice(0, MAX_HISTORY_ARGUMENT_CHARS);
  const left = text.length - kept.length;
  return `${kept}\n[hx: ${left.toLocaleString("en-US")} more characters of this argument are left out of the conversation history to save context; the tool received the whole argument]`;
}
