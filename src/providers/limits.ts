import type { ProviderConfig } from "./provider.js";

/** Node's timers hold at most 2^31−1 ms; a longer delay fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The defaults of every bound on one model call, and the variable that changes each. */
export const CALL_LIMIT_DEFAULTS = {
  /**
   * HX_REQUEST_TIMEOUT_MS: waiting for the response to begin (headers). Servers stream, so
   * headers come at once; a slow local model still starts within this while it reads a long
   * prompt. A server that never answers costs at most two such waits (see HEADER_TIMEOUT_RETRIES).
   */
  requestTimeoutMs: 120_000,
  /** HX_STREAM_IDLE_TIMEOUT_MS: silence inside a stream before it counts as dropped. */
  streamIdleTimeoutMs: 120_000,
  /** HX_MAX_RETRIES. */
  maxRetries: 4,
  /** HX_RETRY_MAX_WAIT_MS: the longest `Retry-After` waited out. */
  maxRetryWaitMs: 60_000,
  /** HX_MAX_RESPONSE_BYTES: 64 MiB, far above any answer within an output limit. */
  maxResponseBytes: 64 * 1024 * 1024,
} as const;

/**
 * Retries after a wait for the headers ran out: one. A server that accepts the connection and
 * never answers is unlikely to answer the fifth time (5 × 600 s was waited before).
 */
export const HEADER_TIMEOUT_RETRIES = 1;

/** The bounds of one model call, every one resolved. */
export interface CallLimits {
  requestTimeoutMs: number;
  streamIdleTimeoutMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  maxResponseBytes: number;
}

/** Fills the bounds a config leaves out with the defaults; timers are clamped to what Node can hold. */
export function callLimits(config: ProviderConfig): CallLimits {
  const timer = (value: number) => Math.min(Math.max(1, value), MAX_TIMER_MS);
  return {
    requestTimeoutMs: timer(config.timeoutMs),
    streamIdleTimeoutMs: timer(config.streamIdleTimeoutMs ?? CALL_LIMIT_DEFAULTS.streamIdleTimeoutMs),
    maxRetries: Math.max(0, config.maxRetries),
    maxRetryWaitMs: Math.min(
      Math.max(0, config.maxRetryWaitMs ?? CALL_LIMIT_DEFAULTS.maxRetryWaitMs),
      MAX_TIMER_MS,
    ),
    maxResponseBytes: config.maxResponseBytes ?? CALL_LIMIT_DEFAULTS.maxResponseBytes,
  };
}

/** "45 s", "2 min 5 s", "1 h", "1 h 30 min": a wait as a person reads it. */
export function formatWait(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 1) return `${Math.max(0, Math.round(ms))} ms`;
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}
