import type { Failure } from "./failure.js";
import { type CallLimits, formatWait, MAX_TIMER_MS } from "./limits.js";
import { ProviderError } from "./provider.js";

/** The longest backoff between two tries when the server names no wait. */
const MAX_BACKOFF_MS = 8000;

export interface RetryLoop<T> {
  limits: CallLimits;
  /** First backoff; doubles per retry up to 8 s, less up to a quarter of jitter. */
  baseDelayMs: number;
  signal?: AbortSignal;
  /** One try; any throw is passed to `classify`. */
  attempt(): Promise<T>;
  classify(error: unknown): Failure;
  /** Told the wait hx is about to sleep, before it sleeps it. */
  onRetry?(notice: { attempt: number; delayMs: number; reason: string }): void;
}

/**
 * hx's one retry policy: runs `attempt` until it succeeds, the failure is not worth another
 * try, or `limits.maxRetries` retries are spent (fewer when the failure says so: a wait for
 * the headers that ran out is retried once). The wait is the server's `Retry-After` when
 * it gave one (a wait beyond `limits.maxRetryWaitMs` ends the call at once with an error
 * naming it), else exponential backoff. Every wait ends at once when `signal` aborts; the
 * call then fails with kind "aborted". Throws only ProviderErrors.
 */
export async function withRetries<T>(loop: RetryLoop<T>): Promise<T> {
  const { limits, signal } = loop;
  for (let retry = 0; ; retry += 1) {
    if (signal?.aborted) throw cancelled();
    try {
      return await loop.attempt();
    } catch (error) {
      if (signal?.aborted) throw cancelled();
      const failure = loop.classify(error);
      if (failure.error.kind === "aborted" || !failure.retry) throw failure.error;
      const asked = failure.retry.afterMs;
      if (retry >= Math.min(limits.maxRetries, failure.retry.maxRetries ?? limits.maxRetries)) {
        throw asked === undefined ? failure.error : withRequestedWait(failure.error, asked);
      }
      if (asked !== undefined && asked > limits.maxRetryWaitMs) {
        throw waitTooLong(failure.error, asked, limits);
      }
      const delayMs = Math.round(asked ?? backoffMs(loop.baseDelayMs, retry));
      loop.onRetry?.({ attempt: retry + 1, delayMs, reason: failure.retry.reason });
      if (!(await sleep(delayMs, signal))) throw cancelled();
    }
  }
}

/** Adds the wait the server asked for to the last error of a run of retries. */
function withRequestedWait(error: ProviderError, afterMs: number): ProviderError {
  return new ProviderError(
    error.kind,
    `${error.message.replace(/\.$/, "")}; it asked to wait ${formatWait(afterMs)} before trying again.`,
    error.hint,
    error.status,
  );
}

/** The error for a `Retry-After` longer than hx waits: it names the wait and how to allow it. */
function waitTooLong(error: ProviderError, afterMs: number, limits: CallLimits): ProviderError {
  return new ProviderError(
    error.kind,
    `${error.message.replace(/\.$/, "")}; it asked to wait ${formatWait(afterMs)} before trying again, longer than hx waits (${formatWait(limits.maxRetryWaitMs)}).`,
    // Past what a timer holds no setting helps.
    afterMs <= MAX_TIMER_MS
      ? `Try again later, or set HX_RETRY_MAX_WAIT_MS=${Math.ceil(afterMs)} to wait it out.`
      : "Try again later.",
    error.status,
  );
}

function backoffMs(baseDelayMs: number, retry: number): number {
  const full = Math.min(baseDelayMs * 2 ** retry, MAX_BACKOFF_MS);
  return full * (1 - Math.random() * 0.25);
}

function cancelled(): ProviderError {
  return new ProviderError("aborted", "Cancelled.");
}

/** Sleeps `ms`; resolves false at once (and early) when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(true), ms);
    const onAbort = () => finish(false);
    signal?.addEventListener("abort", onAbort, { once: true });
    function finish(slept: boolean) {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(slept);
    }
  });
}
