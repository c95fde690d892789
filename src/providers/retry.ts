import type { CompleteOptions } from "./provider.js";

type RetryNotice = NonNullable<CompleteOptions["onRetry"]>;

/** Shared by both retry layers of one `complete` call, so attempts are numbered 1, 2, 3... */
export interface RetryCounter {
  count: number;
}

/**
 * Wraps `fetch` so the user hears about the retries the SDK does silently (429, 5xx,
 * connection errors). It predicts the SDK's decision with the SDK's own rules (status 408,
 * 409, 429, >= 500, or `x-should-retry: true`; never when `x-should-retry: false`) and only
 * while the SDK still has retries left. It never changes a request or a response.
 */
export function observeSdkRetries(
  inner: typeof fetch,
  maxRetries: number,
  counter: RetryCounter,
  onRetry: RetryNotice | undefined,
): typeof fetch {
  let attempts = 0;
  const observed = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    attempts += 1;
    const willRetry = attempts <= maxRetries;
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (error) {
      const aborted = init?.signal?.aborted ?? false;
      if (willRetry && !aborted) notify(counter, onRetry, defaultDelayMs(attempts), connectionReason(error));
      throw error;
    }
    if (willRetry && sdkRetriesStatus(response)) {
      notify(
        counter,
        onRetry,
        retryAfterMs(response.headers) ?? defaultDelayMs(attempts),
        `HTTP ${response.status}`,
      );
    }
    return response;
  };
  return observed as typeof fetch;
}

export interface DroppedStreamRetry {
  maxRetries: number;
  /** First backoff; doubles per retry, capped at 8 s. */
  baseDelayMs: number;
  counter: RetryCounter;
  signal?: AbortSignal;
  onRetry?: RetryNotice;
}

/**
 * Runs `attempt` again when it fails with an error `isRetryable` accepts (a stream that
 * dropped after 200 OK), up to `maxRetries` times with exponential backoff, telling
 * `onRetry` first. Other errors and the last failure are rethrown unchanged.
 */
export async function retryDroppedStreams<T>(
  attempt: () => Promise<T>,
  isRetryable: (error: unknown) => string | undefined,
  options: DroppedStreamRetry,
): Promise<T> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await attempt();
    } catch (error) {
      const reason = isRetryable(error);
      if (reason === undefined || retry >= options.maxRetries || options.signal?.aborted) throw error;
      const delayMs = Math.min(options.baseDelayMs * 2 ** retry, 8000);
      notify(options.counter, options.onRetry, delayMs, reason);
      await sleep(delayMs, options.signal);
    }
  }
}

function notify(
  counter: RetryCounter,
  onRetry: RetryNotice | undefined,
  delayMs: number,
  reason: string,
): void {
  counter.count += 1;
  onRetry?.({ attempt: counter.count, delayMs: Math.round(delayMs), reason });
}

function sdkRetriesStatus(response: Response): boolean {
  const header = response.headers.get("x-should-retry");
  if (header === "true") return true;
  if (header === "false") return false;
  const status = response.status;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The wait the server asked for, as the SDKs read it (`retry-after-ms`, then `retry-after`). */
function retryAfterMs(headers: Headers): number | undefined {
  const millis = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(millis) && millis >= 0) return millis;
  const seconds = Number.parseFloat(headers.get("retry-after") ?? "");
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  return undefined;
}

/** The SDKs' own default: 0.5 s doubling per retry, at most 8 s (jitter ignored). */
function defaultDelayMs(attempt: number): number {
  return Math.min(500 * 2 ** (attempt - 1), 8000);
}

function connectionReason(error: unknown): string {
  const name = (error as { name?: string } | null)?.name ?? "";
  if (name === "TimeoutError") return "request timed out";
  const cause = (error as { cause?: { code?: string } } | null)?.cause?.code;
  return cause ? `connection failed (${cause})` : "connection failed";
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
