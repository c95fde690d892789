import { errorMessage } from "../core/error-message.js";
import { ProviderError } from "./provider.js";

/** What an error message needs to know about the endpoint that failed. */
export interface EndpointInfo {
  /** The base URL the request went to, named in every message. */
  baseURL: string;
  /** Environment variable holding the key, named in auth hints (absent for keyless endpoints). */
  keyEnv?: string;
}

/**
 * A stream that broke after the HTTP response began (socket closed, idle too long, ended
 * before the finish event). The SDKs do not retry these; the providers do.
 */
export class StreamDroppedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "StreamDroppedError";
  }
}

/** Matches the wording servers use when the prompt does not fit the context window. */
const CONTEXT_OVERFLOW =
  /context_length_exceeded|maximum context length|context length|context window|prompt is too long|too many tokens|reduce the length of the messages|max_tokens_per_request|tokens per request|input is too long|request too large/i;

/** Error types that mean "try again later" when they arrive inside a 200 stream. */
const TRANSIENT_STREAM_ERROR = /overloaded|server_error|internal|api_error|unavailable|timeout/i;

/** The shape both SDKs give their HTTP errors (APIError): read by duck typing, no SDK import. */
interface SdkErrorLike {
  name?: string;
  message?: string;
  status?: number;
  error?: unknown;
  type?: string;
  cause?: unknown;
}

/**
 * Turns anything a provider call threw into a ProviderError whose message names the cause
 * and whose hint names the fix. Never returns SDK text with stack traces or status-code
 * prefixes; the server's own message is quoted when there is one.
 */
export function toProviderError(error: unknown, endpoint: EndpointInfo, signal?: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal?.aborted || isAbort(error)) return new ProviderError("aborted", "Cancelled.");
  if (error instanceof StreamDroppedError) {
    return new ProviderError(
      "network",
      `The connection to ${endpoint.baseURL} dropped mid-answer (${error.reason}).`,
      "Check the network; raise HX_MAX_RETRIES (default 4) if it keeps happening.",
    );
  }
  const sdk = asSdkError(error);
  if (typeof sdk.status === "number")
    return fromStatus(sdk.status, serverMessage(sdk), errorCode(sdk), endpoint);
  if (sdk.name === "APIConnectionTimeoutError") {
    return new ProviderError(
      "network",
      `${endpoint.baseURL} did not answer in time.`,
      "Check that the server is up, or raise HX_REQUEST_TIMEOUT_MS (default 600000).",
    );
  }
  if (sdk.name === "APIConnectionError") {
    const cause = describeCause(sdk.cause);
    return new ProviderError(
      "network",
      `Could not reach ${endpoint.baseURL}${cause ? ` (${cause})` : ""}.`,
      "Check the network and --base-url; for a local server, check that it is running.",
    );
  }
  if (sdk.name === "APIError") {
    return fromStreamError(serverMessage(sdk), errorCode(sdk), endpoint);
  }
  const text = errorMessage(error);
  return new ProviderError(
    "network",
    `Model request to ${endpoint.baseURL} failed: ${firstLine(text)}`,
    "Check the network and --base-url; for a local server, check that it is running.",
  );
}

/** True when an error reported inside a 200 stream is worth retrying (overload, server fault). */
export function isTransientStreamError(error: unknown): boolean {
  const sdk = asSdkError(error);
  if (typeof sdk.status === "number" || sdk.name !== "APIError") return false;
  return TRANSIENT_STREAM_ERROR.test(`${errorCode(sdk)} ${serverMessage(sdk)}`);
}

function fromStatus(status: number, message: string, code: string, endpoint: EndpointInfo): ProviderError {
  const quoted = message ? `: ${message}` : "";
  if (status === 401 || status === 403) {
    return new ProviderError(
      "auth",
      `API key rejected by ${endpoint.baseURL} (HTTP ${status}${quoted}).`,
      endpoint.keyEnv
        ? `Check ${endpoint.keyEnv}: it must hold a valid key for this endpoint.`
        : "Check the API key given for this endpoint.",
      status,
    );
  }
  if (status === 402) {
    return new ProviderError(
      "bad_request",
      `${endpoint.baseURL} refused the request for billing reasons (HTTP 402${quoted}).`,
      "Check the account balance or plan.",
      status,
    );
  }
  if (status === 429) {
    const quota = /quota|billing|balance/i.test(`${code} ${message}`);
    return new ProviderError(
      "rate_limit",
      `${quota ? "Quota exhausted" : "Rate limited"} by ${endpoint.baseURL} (HTTP 429${quoted}).`,
      quota
        ? "Check the account's plan and billing."
        : "Wait a moment and try again, or raise HX_MAX_RETRIES (default 4).",
      status,
    );
  }
  if (status === 413 || ((status === 400 || status === 422) && CONTEXT_OVERFLOW.test(`${code} ${message}`))) {
    return new ProviderError(
      "context_overflow",
      `The conversation is too long for the model (HTTP ${status}${quoted}).`,
      "Start a new session or compact the history; a model with a larger context window also helps.",
      status,
    );
  }
  if (status === 404) {
    return new ProviderError(
      "bad_request",
      `${endpoint.baseURL} answered 404 Not Found${quoted}.`,
      "Check --model and --base-url (OpenAI-compatible servers usually need the /v1 suffix).",
      status,
    );
  }
  if (status >= 500) {
    return new ProviderError(
      "server",
      `${endpoint.baseURL} had a server error (HTTP ${status}${quoted}).`,
      "The provider is having trouble; try again later.",
      status,
    );
  }
  return new ProviderError(
    "bad_request",
    `${endpoint.baseURL} rejected the request (HTTP ${status}${quoted}).`,
    "This is likely a bug in hx or an unsupported model option; check --model.",
    status,
  );
}

function fromStreamError(message: string, code: string, endpoint: EndpointInfo): ProviderError {
  const text = `${code} ${message}`;
  const quoted = message || code || "no details";
  if (/insufficient_quota|rate_limit|quota/i.test(text)) {
    return new ProviderError(
      "rate_limit",
      `${endpoint.baseURL} stopped the answer: ${quoted}`,
      "Check the account's plan and billing, or wait and retry.",
    );
  }
  if (CONTEXT_OVERFLOW.test(text)) {
    return new ProviderError(
      "context_overflow",
      `The conversation is too long for the model: ${quoted}`,
      "Start a new session or compact the history.",
    );
  }
  return new ProviderError(
    "server",
    `${endpoint.baseURL} reported an error mid-answer: ${quoted}`,
    "Try again; if it persists the provider is having trouble.",
  );
}

/** The server's own error text: OpenAI puts `{message}` in `.error`, Anthropic the whole body. */
function serverMessage(sdk: SdkErrorLike): string {
  const body = sdk.error as Record<string, unknown> | string | undefined;
  if (typeof body === "string") return firstLine(body);
  const inner = body?.error as Record<string, unknown> | string | undefined;
  const candidates = [body?.message, typeof inner === "string" ? inner : inner?.message];
  const found =
    candidates.find((value): value is string => typeof value === "string" && value.length > 0) ?? "";
  // OpenRouter hides the upstream provider's words in metadata.raw.
  const raw = (body?.metadata as Record<string, unknown> | undefined)?.raw;
  const detail = typeof raw === "string" && raw !== found ? raw : "";
  return firstLine([found, detail].filter(Boolean).join(": "));
}

function errorCode(sdk: SdkErrorLike): string {
  const body = sdk.error as Record<string, unknown> | undefined;
  const inner = typeof body?.error === "object" ? (body.error as Record<string, unknown>) : undefined;
  const parts = [body?.code, body?.type, inner?.type, inner?.code, sdk.type];
  return parts.filter((part) => typeof part === "string").join(" ");
}

/**
 * Reads an SDK error by duck typing. `name` is the class name: the OpenAI SDK leaves
 * `error.name` as "Error", so the constructor's name is used.
 */
function asSdkError(error: unknown): SdkErrorLike {
  if (typeof error !== "object" || error === null) return {};
  const record = error as SdkErrorLike;
  const className = (error as { constructor?: { name?: string } }).constructor?.name;
  const name = className && className !== "Error" && className !== "Object" ? className : record.name;
  return {
    name,
    message: record.message,
    status: record.status,
    error: record.error,
    type: record.type,
    cause: record.cause,
  };
}

function isAbort(error: unknown): boolean {
  const name = asSdkError(error).name;
  return name === "AbortError" || name === "APIUserAbortError";
}

function describeCause(cause: unknown): string {
  if (!cause || typeof cause !== "object") return "";
  const nested = (cause as { cause?: { code?: string; message?: string } }).cause;
  const code = (cause as { code?: string }).code ?? nested?.code;
  if (code) return code;
  const message = (cause as { message?: string }).message;
  return message ? firstLine(message) : "";
}

function firstLine(text: string): string {
  const line = text.split("\n")[0]?.trim() ?? "";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
