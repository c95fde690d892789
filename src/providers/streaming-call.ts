import { type EndpointInfo, isTransientStreamError, StreamDroppedError, toProviderError } from "./errors.js";
import type {
  CompleteOptions,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ProviderConfig,
} from "./provider.js";
import { ProviderError } from "./provider.js";
import { observeSdkRetries, type RetryCounter, retryDroppedStreams } from "./retry.js";

/** What one try at a streamed model call gets from `runStreamingCall`. */
export interface StreamAttempt {
  /** Aborts on user cancel or when the stream goes idle; pass it to the SDK. */
  signal: AbortSignal;
  /** `fetch` that reports the SDK's silent retries through `onRetry`; pass it to the SDK client. */
  fetch: typeof fetch;
  /** Call for every event received; the stream counts as dropped after `idleTimeoutMs` without one. */
  touch(): void;
}

export interface StreamingCallSetup {
  endpoint: EndpointInfo;
  maxRetries: number;
  /** First backoff before retrying a dropped stream. */
  retryBaseDelayMs: number;
  /** Longest silence allowed inside a stream before it counts as dropped. */
  idleTimeoutMs: number;
  options: CompleteOptions;
}

/** Builds one streamed answer from a wire API's events. */
export interface StreamAssembler<Event> {
  push(event: Event): void;
  /** True once the stream said the answer is complete. */
  readonly finished: boolean;
  result(): ModelResponse;
}

/** What differs between wire APIs; everything else is shared by `createStreamingProvider`. */
export interface StreamingProviderSpec<Event> {
  name: string;
  config: ProviderConfig;
  endpoint: EndpointInfo;
  /** First backoff before retrying a dropped stream (default 250 ms); tests set it small. */
  retryBaseDelayMs?: number;
  buildBody(request: ModelRequest): unknown;
  /** Opens the stream for one attempt: a fresh SDK client given `attempt.fetch` and `attempt.signal`. */
  openStream(body: unknown, attempt: StreamAttempt): Promise<AsyncIterable<Event>>;
  newAssembler(onDelta: CompleteOptions["onDelta"]): StreamAssembler<Event>;
}

const DEFAULT_RETRY_BASE_DELAY_MS = 250;

/** A ModelProvider for a streaming wire API: one request body, one stream, one assembler per try. */
export function createStreamingProvider<Event>(spec: StreamingProviderSpec<Event>): ModelProvider {
  async function complete(request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
    const body = spec.buildBody(request);
    const setup: StreamingCallSetup = {
      endpoint: spec.endpoint,
      maxRetries: spec.config.maxRetries,
      retryBaseDelayMs: spec.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
      idleTimeoutMs: spec.config.timeoutMs,
      options,
    };
    return runStreamingCall(setup, async (attempt) => {
      const stream = await spec.openStream(body, attempt);
      attempt.touch();
      const assembler = spec.newAssembler(options.onDelta);
      await consumeStream(stream, (event) => {
        attempt.touch();
        assembler.push(event);
      });
      if (!assembler.finished)
        throw new StreamDroppedError("the stream ended before the answer was complete");
      return assembler.result();
    });
  }
  return { name: spec.name, model: spec.config.model, complete };
}

/**
 * Runs one streamed model call with hx's failure rules: the SDK retries 429/5xx/connection
 * errors itself (we only report them); a stream that breaks after 200 OK is retried here;
 * every failure leaves as a ProviderError, cancellation as kind "aborted".
 *
 * `run` must consume the whole stream through `consumeStream` and throw a StreamDroppedError
 * when the stream ended before the answer was complete.
 */
export async function runStreamingCall<R>(
  setup: StreamingCallSetup,
  run: (attempt: StreamAttempt) => Promise<R>,
): Promise<R> {
  const userSignal = setup.options.signal;
  if (userSignal?.aborted) throw new ProviderError("aborted", "Cancelled.");
  const counter: RetryCounter = { count: 0 };
  try {
    return await retryDroppedStreams(() => runAttempt(setup, counter, run), droppedReason, {
      maxRetries: setup.maxRetries,
      baseDelayMs: setup.retryBaseDelayMs,
      counter,
      signal: userSignal,
      onRetry: setup.options.onRetry,
    });
  } catch (error) {
    throw toProviderError(error, setup.endpoint, userSignal);
  }
}

/**
 * Iterates an SDK stream, calling `onEvent` for each item. Errors thrown while reading
 * (socket closed, garbled frame, transient in-stream error) become StreamDroppedError;
 * HTTP and permanent in-stream errors pass through unchanged.
 */
export async function consumeStream<T>(stream: AsyncIterable<T>, onEvent: (event: T) => void): Promise<void> {
  try {
    for await (const event of stream) onEvent(event);
  } catch (error) {
    if (error instanceof StreamDroppedError) throw error;
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === "number") throw error;
    if (isTransientStreamError(error)) throw new StreamDroppedError(describe(error));
    const className = (error as { constructor?: { name?: string } } | null)?.constructor?.name;
    if (className === "APIError") throw error;
    throw new StreamDroppedError(describe(error));
  }
}

async function runAttempt<R>(
  setup: StreamingCallSetup,
  counter: RetryCounter,
  run: (attempt: StreamAttempt) => Promise<R>,
): Promise<R> {
  const controller = new AbortController();
  const userSignal = setup.options.signal;
  const cancel = () => controller.abort();
  userSignal?.addEventListener("abort", cancel, { once: true });
  let idled = false;
  let timer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      idled = true;
      controller.abort();
    }, setup.idleTimeoutMs);
  };
  const attempt: StreamAttempt = {
    signal: controller.signal,
    fetch: observeSdkRetries(globalThis.fetch, setup.maxRetries, counter, setup.options.onRetry),
    touch,
  };
  try {
    const result = await run(attempt);
    if (userSignal?.aborted) throw new ProviderError("aborted", "Cancelled.");
    return result;
  } catch (error) {
    if (userSignal?.aborted) throw new ProviderError("aborted", "Cancelled.");
    if (idled) throw new StreamDroppedError(`no data for ${Math.round(setup.idleTimeoutMs / 1000)} s`);
    throw error;
  } finally {
    clearTimeout(timer);
    userSignal?.removeEventListener("abort", cancel);
  }
}

function droppedReason(error: unknown): string | undefined {
  if (!(error instanceof StreamDroppedError)) return undefined;
  return `connection dropped mid-answer (${error.reason}); starting the answer again`;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${error.message}: ${detail}` : error.message;
}
