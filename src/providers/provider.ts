import type { StreamDelta } from "../core/events.js";
import type { AssistantMessage, Message, Usage } from "../core/messages.js";
import type { ToolSchema } from "../core/tool.js";

export interface ModelRequest {
  system: string;
  messages: readonly Message[];
  tools: readonly ToolSchema[];
}

export type StopReason = "stop" | "tool_calls" | "length";

export interface ModelResponse {
  message: AssistantMessage;
  usage: Usage;
  stopReason: StopReason;
}

export interface CompleteOptions {
  signal?: AbortSignal;
  onDelta?: (delta: StreamDelta) => void;
  /** Called before a retry, so the user can be told why the answer is late. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

/**
 * One model behind one wire API. `complete` sends the whole request and resolves with the
 * assembled assistant message; it throws a ProviderError (never a raw SDK error).
 */
export interface ModelProvider {
  readonly name: string;
  readonly model: string;
  complete(request: ModelRequest, options?: CompleteOptions): Promise<ModelResponse>;
}

export interface ProviderConfig {
  provider: string;
  model: string;
  baseURL?: string;
  apiKey?: string;
  /** DeepSeek thinking switch; undefined = provider default. */
  thinking?: boolean;
  /** Script file for the scripted provider. */
  script?: string;
  /** Request timeout in milliseconds. */
  timeoutMs: number;
  /** Retries on 429, 5xx and dropped connections. */
  maxRetries: number;
  maxOutputTokens?: number;
}

export type ProviderErrorKind =
  | "auth"
  | "rate_limit"
  | "context_overflow"
  | "bad_request"
  | "server"
  | "network"
  | "aborted"
  | "config";

/** A failure the user can act on: `message` names the cause, `hint` the fix. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly hint?: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}
