import type { EndpointInfo, Failure } from "./failure.js";
import type { CallLimits } from "./limits.js";
import { ProviderError } from "./provider.js";

/** The fields of the SDKs' APIError that hx reads (the same in both SDKs). */
export interface SdkApiError extends Error {
  status?: number;
  headers?: Headers;
  error?: unknown;
  type?: string | null;
  cause?: unknown;
}

/** Matches the wording servers use when the prompt does not fit the context window. */
const CONTEXT_OVERFLOW =
  /context_length_exceeded|maximum context length|context length|context window|prompt is too long|too many tokens|reduce the length of the messages|max_tokens_per_request|tokens per request|input is too long|request too large/i;

/** Error types that mean "try again later" when they arrive inside a 200 stream. */
const TRANSIENT_STREAM_ERROR = /overloaded|server_error|internal|api_error|unavailable|timeout/i;

/** An HTTP error status: what it means for the user, and whether to try again. */
export function fromHttpStatus(api: SdkApiError, endpoint: EndpointInfo, limits: CallLimits): Failure {
  const status = api.status ?? 0;
  const message = serverMessage(api);
  const code = errorCode(api);
  const quoted = message ? `: ${message}` : "";
  const url = endpoint.baseURL;
  if (status === 401 || status === 403) {
    return {
      error: new ProviderError(
        "auth",
        `API key rejected by ${url} (HTTP ${status}${quoted}).`,
        endpoint.keyEnv
          ? `Check ${endpoint.keyEnv}: it must hold a valid key for this endpoint.`
          : "Check the API key given for this endpoint.",
        status,
      ),
    };
  }
  if (status === 402) {
    return {
      error: new ProviderError(
        "bad_request",
        `${url} refused the request for billing reasons (HTTP 402${quoted}).`,
        "Check the account balance or plan.",
        status,
      ),
    };
  }
  if (status === 413 || ((status === 400 || status === 422) && CONTEXT_OVERFLOW.test(`${code} ${message}`))) {
    return {
      error: new ProviderError(
        "context_overflow",
        `The conversation is too long for the model (HTTP ${status}${quoted}).`,
        "Start a new session or compact the history; a model with a larger context window also helps.",
        status,
      ),
    };
  }
  if (status === 404) {
    return {
      error: new ProviderError(
        "bad_request",
        `${url} answered 404 Not Found${quoted}.`,
        "Check --model and --base-url (OpenAI-compatible servers usually need the /v1 suffix).",
        status,
      ),
    };
  }
  const retry = retryVerdict(api, status);
  if (status === 429) {
    const quota = /quota|billing|balance/i.test(`${code} ${message}`);
    return {
      error: new ProviderError(
        "rate_limit",
        `${quota ? "Quota exhausted" : "Rate limited"} by ${url} (HTTP 429${quoted}).`,
        quota
          ? "Check the account's plan and billing."
          : `Wait a moment and try again, or raise HX_MAX_RETRIES (now ${limits.maxRetries}).`,
        status,
      ),
      // An exhausted quota does not come back by waiting.
      retry: quota ? undefined : retry && { ...retry, reason: "rate limited (HTTP 429)" },
    };
  }
  if (status >= 500) {
    return {
      error: new ProviderError(
        "server",
        `${url} had a server error (HTTP ${status}${quoted}).`,
        "The provider is having trouble; try again later.",
        status,
      ),
      retry: retry && { ...retry, reason: `server error (HTTP ${status})` },
    };
  }
  return {
    error: new ProviderError(
      "bad_request",
      `${url} rejected the request (HTTP ${status}${quoted}).`,
      "This is likely a bug in hx or an unsupported model option; check --model.",
      status,
    ),
    retry: retry && { ...retry, reason: `HTTP ${status}` },
  };
}

/**
 * Whether an HTTP error is worth another try, by the rules both SDKs use: `x-should-retry`
 * decides when present; else 408, 409, 429 and 5xx are retried. The server's wait comes from
 * `retry-after-ms`, then `retry-after` (seconds or an HTTP date).
 */
function retryVerdict(api: SdkApiError, status: number): Failure["retry"] {
  const should = api.headers?.get("x-should-retry");
  const retryable =
    should === "true" ||
    (should !== "false" && (status === 408 || status === 409 || status === 429 || status >= 500));
  if (!retryable) return undefined;
  return { reason: `HTTP ${status}`, afterMs: api.headers ? retryAfterMs(api.headers) : undefined };
}

/** The wait a response asks for, in ms: `retry-after-ms`, else `retry-after` as seconds or an HTTP date. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const millis = headers.get("retry-after-ms")?.trim();
  if (millis && /^\d+(\.\d+)?$/.test(millis)) return Number(millis);
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  // All three HTTP-date forms begin with the day's name ("Tue, 01 Jan 2030 00:00:00 GMT").
  const date = /^[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** An error event inside a 200 stream; overloads and server faults are worth another try. */
export function fromStreamError(api: SdkApiError, endpoint: EndpointInfo): Failure {
  const message = serverMessage(api);
  const code = errorCode(api);
  const text = `${code} ${message}`;
  const quoted = message || code || "no details";
  const url = endpoint.baseURL;
  if (/insufficient_quota|rate_limit|quota/i.test(text)) {
    return {
      error: new ProviderError(
        "rate_limit",
        `${url} stopped the answer: ${quoted}`,
        "Check the account's plan and billing, or wait and retry.",
      ),
    };
  }
  if (CONTEXT_OVERFLOW.test(text)) {
    return {
      error: new ProviderError(
        "context_overflow",
        `The conversation is too long for the model: ${quoted}`,
        "Start a new session or compact the history.",
      ),
    };
  }
  return {
    error: new ProviderError(
      "server",
      `${url} reported an error mid-answer: ${quoted}`,
      "Try again; if it persists the provider is having trouble.",
    ),
    retry: TRANSIENT_STREAM_ERROR.test(text)
      ? { reason: `the server reported ${quoted} mid-answer` }
      : undefined,
  };
}

/**
 * The server's own error text: OpenAI puts `{message}` in `.error`, Anthropic the whole body;
 * a body that is not JSON (an HTML error page from a proxy) is in the SDK's message.
 */
function serverMessage(api: SdkApiError): string {
  const body = api.error as Record<string, unknown> | string | undefined;
  if (typeof body === "string") return fromText(body);
  if (body === undefined || body === null) return fromText(api.message.replace(/^\d{3}\s*/, ""));
  const inner = body?.error as Record<string, unknown> | string | undefined;
  const candidates = [body?.message, typeof inner === "string" ? inner : inner?.message];
  const found =
    candidates.find((value): value is string => typeof value === "string" && value.length > 0) ?? "";
  // OpenRouter hides the upstream provider's words in metadata.raw.
  const raw = (body?.metadata as Record<string, unknown> | undefined)?.raw;
  const detail = typeof raw === "string" && raw !== found ? raw : "";
  return firstLine([found, detail].filter(Boolean).join(": "));
}

/** Plain text of an error body: an HTML page is named by its title, never dumped. */
function fromText(text: string): string {
  if (/^\s*</.test(text)) return describeHtml(text);
  if (/^status code \(no body\)$/i.test(text.trim())) return "";
  return firstLine(text);
}

/** 'an HTML page titled "502 Bad Gateway"': an HTML body as one short phrase. */
export function describeHtml(text: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  return title ? `an HTML page titled "${firstLine(title)}"` : "an HTML page";
}

function errorCode(api: SdkApiError): string {
  const body = api.error as Record<string, unknown> | undefined;
  const inner = typeof body?.error === "object" ? (body.error as Record<string, unknown>) : undefined;
  const parts = [body?.code, body?.type, inner?.type, inner?.code, api.type];
  return [...new Set(parts.filter((part): part is string => typeof part === "string"))].join(" ");
}

export function firstLine(text: string): string {
  const line = text.split("\n")[0]?.trim() ?? "";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
