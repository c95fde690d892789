import type { RetryInfo, StreamDelta } from "../core/events.js";
import { classifyFailure, type SdkErrorClasses } from "./errors.js";
import type { EndpointInfo } from "./failure.js";
import { HttpConnections } from "./http-fetch.js";
import { type CallLimits, callLimits } from "./limits.js";
import type {
  CompleteOptions,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ProviderConfig,
} from "./provider.js";
import { ProviderError } from "./provider.js";
import { expectEventStream } from "./response-guard.js";
import { withRetries } from "./retry.js";
import {
  EmptyAnswerError,
  ProtocolError,
  ResponseTooLargeError,
  StreamDroppedError,
  StreamStalledError,
} from "./stream-errors.js";
import { withUniqueToolCallIds } from "./tool-call-ids.js";

/** What one try at a streamed model call gets: pass both to a fresh SDK client. */
interface StreamAttempt {
  /** Aborts on user cancel or when the stream goes idle. */
  signal: AbortSignal;
  /** `fetch` that bounds the size of response bodies. */
  fetch: typeof fetch;
  /** The same for hx's own clients: a plain `Response` that loads no undici (http-fetch.ts). */
  liteFetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** An opened stream and the HTTP response it reads (the SDKs' `.withResponse()`). */
interface OpenedStream<Event> {
  events: AsyncIterable<Event>;
  response: Response;
}

/** Builds one streamed answer from a wire API's events. */
interface StreamAssembler<Event> {
  push(event: Event): void;
  /** True once the stream said the answer is complete. */
  readonly finished: boolean;
  /** True while no part of an answer (a choice, a message) has arrived. */
  readonly empty: boolean;
  result(): ModelResponse;
}

/** What differs between wire APIs; everything else is shared by `createStreamingProvider`. */
export interface StreamingProviderSpec<Event> {
  name: string;
  config: ProviderConfig;
  endpoint: EndpointInfo;
  /** The SDK's error classes, for `classifyFailure`. */
  sdkErrors: SdkErrorClasses;
  /** First retry backoff (default 500 ms); tests set it small. */
  retryBaseDelayMs?: number;
  buildBody(request: ModelRequest): unknown;
  /** Opens the stream for one attempt with a fresh SDK client (`maxRetries: 0`, logging off). */
  openStream(body: unknown, attempt: StreamAttempt): Promise<OpenedStream<Event>>;
  newAssembler(onDelta: CompleteOptions["onDelta"]): StreamAssembler<Event>;
}

const DEFAULT_RETRY_BASE_DELAY_MS = 500;

/**
 * A ModelProvider for a streaming wire API. Each call runs hx's one retry policy
 * (`withRetries`) around attempts of: open the stream (the SDK's own timeout bounds the wait
 * for the response to begin), check it is an event stream, read it with an idle timeout,
 * assemble the answer. The answer's tool-call ids are made unique before it is returned.
 */
export function createStreamingProvider<Event>(spec: StreamingProviderSpec<Event>): ModelProvider {
  const limits = callLimits(spec.config);
  const context = { endpoint: spec.endpoint, sdk: spec.sdkErrors, limits };
  const connections = new HttpConnections();
  async function complete(request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
    const body = spec.buildBody(request);
    let streamed: RetryInfo["discard"] = { text: 0, reasoning: 0 };
    // A finished answer with nothing in it is asked for once more, then taken as it is: some
    // models legitimately end a turn with nothing to add, and five tries would only cost.
    let emptyAnswers = 0;
    const onDelta = (delta: StreamDelta) => {
      streamed[delta.type] += delta.text.length;
      options.onDelta?.(delta);
    };
    const response = await withRetries({
      limits,
      baseDelayMs: spec.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
      signal: options.signal,
      attempt: () => {
        streamed = { text: 0, reasoning: 0 };
        return runAttempt(spec, limits, connections, body, onDelta, options.signal, emptyAnswers > 0);
      },
      classify: (error) => {
        if (error instanceof EmptyAnswerError && error.finished) emptyAnswers += 1;
        return classifyFailure(error, context);
      },
      onRetry: (notice) => options.onRetry?.({ ...notice, discard: streamed }),
    });
    return { ...response, message: withUniqueToolCallIds(response.message, request.messages) };
  }
  return { name: spec.name, model: spec.config.model, complete };
}

/**
 * One try: a fresh abort controller (user cancel or idle timeout), the stream opened and
 * checked, every event pushed to a new assembler. An answer that ends unfinished is a dropped
 * stream; one with nothing in it is an empty answer; both are worth a retry.
 */
async function runAttempt<Event>(
  spec: StreamingProviderSpec<Event>,
  limits: CallLimits,
  connections: HttpConnections,
  body: unknown,
  onDelta: (delta: StreamDelta) => void,
  userSignal: AbortSignal | undefined,
  acceptEmpty: boolean,
): Promise<ModelResponse> {
  const controller = new AbortController();
  const cancel = () => controller.abort();
  userSignal?.addEventListener("abort", cancel, { once: true });
  let opened: OpenedStream<Event> | undefined;
  let idled = false;
  let timer: NodeJS.Timeout | undefined;
  // Any byte counts as a sign of life, so servers that send keep-alive comments while they
  // think are not cut off; the timer starts once the headers are in.
  let ended = false;
  const touch = () => {
    // Bytes that arrive after the attempt ended (the SDK stopped reading) arm nothing.
    if (!opened || ended) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      idled = true;
      controller.abort();
    }, limits.streamIdleTimeoutMs);
  };
  try {
    const bounds = { maxBytes: limits.maxResponseBytes, onBytes: touch };
    opened = await spec.openStream(body, {
      signal: controller.signal,
      fetch: connections.fetch(bounds),
      liteFetch: connections.liteFetch(bounds),
    });
    touch();
    await expectEventStream(opened.response);
    const assembler = spec.newAssembler(onDelta);
    await consumeStream(opened.events, spec.sdkErrors, (event) => assembler.push(event));
    if (idled) throw new StreamStalledError(limits.streamIdleTimeoutMs);
    if (userSignal?.aborted) throw new ProviderError("aborted", "Cancelled.");
    if (assembler.empty) throw new EmptyAnswerError("the stream carried no answer");
    if (!assembler.finished) throw new StreamDroppedError("the stream ended before the answer was complete");
    const result = assembler.result();
    const { message } = result;
    if (
      !acceptEmpty &&
      !message.content &&
      message.toolCalls.length === 0 &&
      result.stopReason !== "length"
    ) {
      throw new EmptyAnswerError(
        message.reasoning?.text ? "reasoning only, no text" : "no text and no tool calls",
        true,
      );
    }
    return result;
  } catch (error) {
    if (userSignal?.aborted) throw new ProviderError("aborted", "Cancelled.");
    if (idled) throw new StreamStalledError(limits.streamIdleTimeoutMs);
    throw error;
  } finally {
    ended = true;
    clearTimeout(timer);
    userSignal?.removeEventListener("abort", cancel);
    // Whatever the SDK left unread is not needed: close it, so no socket keeps hx running.
    if (opened && !opened.response.bodyUsed) void opened.response.body?.cancel().catch(() => {});
  }
}

/**
 * Iterates an SDK stream, calling `onEvent` for each item. What breaks the reading decides the
 * class: a malformed event (the SDKs' JSON.parse) is a ProtocolError; hx's own errors and the
 * SDK's APIErrors (error events inside the stream) pass unchanged; anything else (socket
 * closed, connection reset) is a StreamDroppedError.
 */
async function consumeStream<T>(
  stream: AsyncIterable<T>,
  sdk: SdkErrorClasses,
  onEvent: (event: T) => void,
): Promise<void> {
  try {
    for await (const event of stream) onEvent(event);
  } catch (error) {
    if (error instanceof SyntaxError) {
      throw new ProtocolError(`a malformed event in the stream (${error.message.slice(0, 200)})`);
    }
    if (
      error instanceof StreamDroppedError ||
      error instanceof ProtocolError ||
      error instanceof ResponseTooLargeError ||
      error instanceof sdk.APIError
    ) {
      throw error;
    }
    throw new StreamDroppedError(describe(error));
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${error.message}: ${detail}` : error.message;
}
