import type { Message } from "../core/messages.js";
import type { ToolSchema } from "../core/tool.js";

/**
 * A cheap token estimate for planning (when to compact, what `/context` shows). Real counts
 * come from the provider's usage; this only has to be close and rather too high than too low.
 *
 * Rule: ASCII text costs one token per 4 characters; CJK ideographs, kana and hangul one token
 * each (BPE vocabularies of DeepSeek, OpenAI and Anthropic spend 0.6–1.3 tokens per such
 * character); every other non-ASCII code point half a token. One pass, no tables.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let wide = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) ascii += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A surrogate pair: one code point outside the BMP (emoji, rare CJK).
      wide += 1;
      i += 1;
    } else if (isWide(code)) wide += 1;
    else other += 1;
  }
  return Math.ceil(ascii / 4 + wide + other / 2);
}

/** CJK ideographs and punctuation, kana, hangul, full-width forms. */
function isWide(code: number): boolean {
  return (
    (code >= 0x2e80 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff00 && code <= 0xffef)
  );
}

/** Framing the wire formats add per message (role, separators). */
const MESSAGE_OVERHEAD = 4;

export function estimateMessageTokens(message: Message): number {
  switch (message.role) {
    case "user":
      return MESSAGE_OVERHEAD + estimateTokens(message.content);
    case "tool":
      return MESSAGE_OVERHEAD + estimateTokens(message.content) + estimateTokens(message.toolCallId);
    case "assistant": {
      let total = MESSAGE_OVERHEAD + estimateTokens(message.content);
      if (message.reasoning) total += estimateTokens(message.reasoning.text);
      for (const call of message.toolCalls) {
        total += MESSAGE_OVERHEAD + estimateTokens(call.name) + estimateTokens(call.arguments);
      }
      return total;
    }
  }
}

export function estimateMessagesTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

export function estimateToolSchemasTokens(tools: readonly ToolSchema[]): number {
  return tools.length === 0 ? 0 : estimateTokens(JSON.stringify(tools));
}

/** The whole request as the model will see it. */
export function estimateRequestTokens(request: {
  system: string;
  messages: readonly Message[];
  tools: readonly ToolSchema[];
}): number {
  return (
    estimateTokens(request.system) +
    estimateToolSchemasTokens(request.tools) +
    estimateMessagesTokens(request.messages)
  );
}
