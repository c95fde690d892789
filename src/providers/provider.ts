import type { RetryInfo, StreamDelta } from "../core/events.js";
import type { AssistantMessage, Message, Usage } from "../core/messages.js";
import type { ToolSchema } from "../core/tool.js";
import { redactUrlPasswords } from "../secrets/redact.js";

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
  onRetry?: (info: RetryInfo) => void;
}

/**
 * One model behind one wire API. `complete` sends the whole request and resolves with the
 * assembled assistant message; it throws a ProviderError (never a raw SDK error).
 */
export interface ModelProvider {
  readonly name: string;
  readonly model: string;
  complete(request: ModelRequest, options?: CompleteOptions): Promise<ModelResponse>;
  /**
   * The model's context window as the server reports it (its model list), for models hx's
   * table does not know; undefined when the server does not say. Never throws.
   */
  reportedContextWindow?(): Promise<number | undefined>;
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
  /** Longest wait for the response to begin (HX_REQUEST_TIMEOUT_MS). */
  timeoutMs: number;
  /** Retries on 429, 5xx, connection errors, dropped or stalled streams (HX_MAX_RETRIES). */
  maxRetries: number;
  /** Longest silence inside a stream before it counts as dropped (HX_STREAM_IDLE_TIMEOUT_MS). */
  streamIdleTimeoutMs?: number;
  /** Longest `Retry-After` hx waits out; a longer one ends the call at once (HX_RETRY_MAX_WAIT_MS). */
  maxRetryWaitMs?: number;
  /** Largest response body read, in bytes (HX_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  maxOutputTokens?: number;
}

export type ProviderErrorKind =
  | "auth"
  | "rate_limit"
  | "context_overflow"
  | "bad_request"
  | "server"
  | "network"
  /** The endpoint answered in a form hx cannot read (not an event stream, malformed, too large). */
  | "protocol"
  | "aborted"
  | "config";

/** A failure the user can act on: `message` names the cause, `hint` the fix. */
export class ProviderError extends Error {
  readonly hint?: string;
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    hint?: string,
    readonly status?: number,
  ) {
    // Messages name the base URL; a password in it is never shown (errors, -v, json, transcripts).
    super(redactUrlPasswords(message));
    this.name = "ProviderError";
    this.hint = hint === undefined ? undefined : redactUrlPasswords(hint);
  }
}
