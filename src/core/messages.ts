/**
 * Provider-neutral conversation messages. Providers translate these to and from their wire
 * formats; everything above the provider layer speaks only these types.
 */

/** One tool call the model asked for. `arguments` is the raw JSON text the model produced. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface UserMessage {
  role: "user";
  content: string;
}

/** Reasoning ("thinking") the model produced before answering. */
export interface Reasoning {
  text: string;
  /** Anthropic signs thinking blocks; the signature must be sent back unchanged. */
  signature?: string;
}

export interface AssistantMessage {
  role: "assistant";
  content: string;
  toolCalls: ToolCall[];
  reasoning?: Reasoning;
}

export interface ToolResultMessage {
  role: "tool";
  toolCallId: string;
  toolName: string;
  content: string;
  isError?: boolean;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export interface Usage {
  /** Prompt tokens in total, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens served from the provider's prefix cache. */
  cachedInputTokens: number;
  /** Prompt tokens written to the cache (Anthropic). */
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
}

export function addUsage(total: Usage, more: Usage): Usage {
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    cachedInputTokens: total.cachedInputTokens + more.cachedInputTokens,
    cacheWriteTokens: total.cacheWriteTokens + more.cacheWriteTokens,
    reasoningTokens: total.reasoningTokens + more.reasoningTokens,
  };
}

export function userMessage(content: string): UserMessage {
  return { role: "user", content };
}
