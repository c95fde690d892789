import type { SdkErrorClasses } from "./errors.js";
import type { LiteHeaders } from "./http-fetch.js";
import type { ChatChunk } from "./openai-chat-stream.js";

/**
 * hx's own client for a streamed Chat Completions request, over `node:http` (see
 * http-fetch.ts): the `openai` SDK's 150 KB and the undici its `Headers` load cost a one-turn
 * run ~40 ms of CPU, for one POST and an event stream. It does what the SDK does for that
 * call, the same way: the same request (JSON body, bearer key), the same errors (classes of
 * the same shape and hierarchy as the SDK's, read by errors.ts), the same reading of the
 * event stream (`data:` lines, `[DONE]`, an `error` inside the stream).
 */

/** An HTTP error status, or an error the server sent inside the stream (no status). */
class ChatApiError extends Error {
  readonly status: number | undefined;
  readonly headers: LiteHeaders | undefined;
  /** The server's error object (`body.error`), as the SDK keeps it. */
  readonly error: unknown;
  readonly code: unknown;
  readonly type: string | null | undefined;

  constructor(
    status: number | undefined,
    error: unknown,
    message: string | undefined,
    headers?: LiteHeaders,
  ) {
    super(statusMessage(status, error, message));
    this.name = "ChatApiError";
    this.status = status;
    this.headers = headers;
    this.error = error;
    const fields = (error ?? {}) as { code?: unknown; type?: unknown };
    this.code = fields.code;
    this.type = typeof fields.type === "string" ? fields.type : undefined;
  }
}

/** The request did not get an answer: refused, reset, unknown host. */
class ChatConnectionError extends ChatApiError {
  constructor(cause: unknown, message = "Connection error.") {
    super(undefined, undefined, message);
    this.name = "ChatConnectionError";
    this.cause = cause;
  }
}

/** No response headers within the request timeout. */
class ChatTimeoutError extends ChatConnectionError {
  constructor() {
    super(undefined, "Request timed out.");
    this.name = "ChatTimeoutError";
  }
}

/** The caller's signal aborted the request. */
class ChatAbortError extends ChatApiError {
  constructor() {
    super(undefined, undefined, "Request was aborted.");
    this.name = "ChatAbortError";
  }
}

/** What errors.ts matches with `instanceof`, as for the SDKs. */
export const CHAT_ERRORS: SdkErrorClasses = {
  APIError: ChatApiError,
  APIConnectionError: ChatConnectionError,
  APIConnectionTimeoutError: ChatTimeoutError,
  APIUserAbortError: ChatAbortError,
};

/** The SDKs' wording: "404 the server's message", "500 status code (no body)". */
function statusMessage(status: number | undefined, error: unknown, message: string | undefined): string {
  const inner = (error as { message?: unknown } | undefined)?.message;
  const text = inner
    ? typeof inner === "string"
      ? inner
      : JSON.stringify(inner)
    : error
      ? JSON.stringify(error)
      : message;
  if (status && text) return `${status} ${text}`;
  if (status) return `${status} status code (no body)`;
  if (text) return text;
  return "(no status code or body)";
}

export interface ChatRequest {
  baseURL: string;
  apiKey: string;
  body: unknown;
  signal: AbortSignal;
  timeoutMs: number;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** POSTs the request and opens its event stream; a non-2xx status throws a ChatApiError. */
export async function openChatStream(
  request: ChatRequest,
): Promise<{ events: AsyncIterable<ChatChunk>; response: Response }> {
  const { signal } = request;
  if (signal.aborted) throw new ChatAbortError();
  // The timeout covers the wait for the response's headers, as the SDK's does.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  const cancel = () => controller.abort();
  signal.addEventListener("abort", cancel, { once: true });
  let response: Response;
  try {
    response = await request.fetch(`${request.baseURL.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${request.apiKey}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify(request.body),
      signal: controller.signal,
    });
  } catch (error) {
    signal.removeEventListener("abort", cancel);
    if (signal.aborted) throw new ChatAbortError();
    if (timedOut) throw new ChatTimeoutError();
    throw new ChatConnectionError(error);
  } finally {
    clearTimeout(timer);
  }
  // The caller's signal stays tied to the request's: it ends the body being read too.
  if (!response.ok) throw await statusError(response);
  return { events: chatEvents(response, signal), response };
}

/** The SDK's reading of an error body: its JSON's `error`, or the text when it is not JSON. */
async function statusError(response: Response): Promise<ChatApiError> {
  const text = await response.text().catch((error: unknown) => (error as Error)?.message ?? "");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const error = (json as { error?: unknown } | undefined)?.error;
  return new ChatApiError(
    response.status,
    error,
    json === undefined ? text : undefined,
    response.headers as unknown as LiteHeaders,
  );
}

/** The stream's JSON events until `[DONE]`; an event carrying `error` throws a ChatApiError. */
async function* chatEvents(response: Response, signal: AbortSignal): AsyncGenerator<ChatChunk> {
  if (!response.body) return;
  const headers = response.headers as unknown as LiteHeaders;
  try {
    for await (const event of serverSentEvents(response.body)) {
      if (event.data.startsWith("[DONE]")) return;
      const data = JSON.parse(event.data);
      if (data?.error) throw new ChatApiError(undefined, data.error, undefined, headers);
      yield data as ChatChunk;
    }
  } catch (error) {
    // An abort ends the stream quietly, as in the SDK; the caller knows why it stopped.
    if (signal.aborted) return;
    throw error;
  }
}

/**
 * Server-sent events as the SDKs read them: lines end with \n, \r\n or \r; an empty line
 * dispatches an event that has data or a name; `:` lines are comments; `data` lines join with
 * \n; a last event without its empty line is dropped.
 */
async function* serverSentEvents(
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<{ event: string | null; data: string }> {
  const decoder = new TextDecoder();
  let buffered = "";
  let event: string | null = null;
  let data: string[] = [];
  const take = (line: string) => {
    if (line === "") {
      if (event === null && data.length === 0) return undefined;
      const done = { event, data: data.join("\n") };
      event = null;
      data = [];
      return done;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    return undefined;
  };
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let start = 0;
    for (;;) {
      const end = nextLineEnd(buffered, start);
      if (end === -1) break;
      // A \r at the very end may be the first half of \r\n: wait for the next chunk.
      if (buffered[end] === "\r" && end === buffered.length - 1) break;
      const dispatched = take(buffered.slice(start, end));
      if (dispatched) yield dispatched;
      start = end + (buffered[end] === "\r" && buffered[end + 1] === "\n" ? 2 : 1);
    }
    buffered = buffered.slice(start);
  }
}

function nextLineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || code === 13) return i;
  }
  return -1;
}
