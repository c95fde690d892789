import { errorMessage } from "../core/error-message.js";
import type { EndpointInfo, Failure } from "./failure.js";
import { type CallLimits, formatWait, HEADER_TIMEOUT_RETRIES } from "./limits.js";
import { ProviderError } from "./provider.js";
import { firstLine, fromHttpStatus, fromStreamError, type SdkApiError } from "./sdk-api-errors.js";
import {
  EmptyAnswerError,
  ProtocolError,
  ResponseTooLargeError,
  StreamDroppedError,
  StreamStalledError,
} from "./stream-errors.js";

// biome-ignore lint/suspicious/noExplicitAny: any constructor, matched with instanceof only.
type ErrorClass = abstract new (...args: any[]) => Error;

/**
 * An SDK's own error classes, handed over by the provider module that imports the SDK (the
 * SDKs are loaded lazily, so this module cannot import them). Both SDKs have these four.
 */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
  APIUserAbortError: ErrorClass;
}

/** Everything `classifyFailure` reads besides the error. */
export interface FailureContext {
  endpoint: EndpointInfo;
  sdk: SdkErrorClasses;
  limits: CallLimits;
}

/**
 * Classifies anything one attempt threw: a ProviderError whose message names the cause and
 * whose hint names the fix (never SDK text with stack traces or status prefixes; the server's
 * own words are quoted), plus the retry decision. SDK errors are recognised with `instanceof`
 * on the SDK's classes, hx's own with `instanceof` on the classes in stream-errors.ts.
 */
export function classifyFailure(error: unknown, context: FailureContext): Failure {
  const { endpoint, sdk, limits } = context;
  const url = endpoint.baseURL;
  if (error instanceof ProviderError) return { error };
  if (error instanceof StreamStalledError) {
    const wait = formatWait(error.idleMs);
    return {
      error: new ProviderError(
        "network",
        `${url} went silent mid-answer: nothing arrived for ${wait}.`,
        `Check the network; for a slow server raise HX_STREAM_IDLE_TIMEOUT_MS (now ${limits.streamIdleTimeoutMs}).`,
      ),
      retry: { reason: `the stream sent nothing for ${wait}` },
    };
  }
  if (error instanceof StreamDroppedError) {
    return {
      error: new ProviderError(
        "network",
        `The connection to ${url} dropped mid-answer (${error.reason}).`,
        `Check the network; raise HX_MAX_RETRIES (now ${limits.maxRetries}) if it keeps happening.`,
      ),
      retry: { reason: `the connection dropped mid-answer (${error.reason})` },
    };
  }
  if (error instanceof EmptyAnswerError) {
    return {
      error: new ProviderError(
        "server",
        `${url} sent an empty answer (${error.detail}).`,
        "Try again; if it persists, check --model (some servers answer empty for a model they do not serve).",
      ),
      retry: { reason: `the answer was empty (${error.detail})` },
    };
  }
  if (error instanceof ProtocolError) {
    return {
      error: new ProviderError(
        "protocol",
        `${url} answered in a form hx cannot read: ${error.detail}.`,
        `Check --base-url: it must point at ${endpoint.api ?? "the provider's API"}; a proxy or login page may be in the way.`,
      ),
    };
  }
  if (error instanceof ResponseTooLargeError) {
    return {
      error: new ProviderError(
        "protocol",
        `The answer from ${url} passed ${formatBytes(error.limitBytes)}; hx stopped reading it.`,
        `The server is misbehaving or the answer runs away; raise HX_MAX_RESPONSE_BYTES (now ${error.limitBytes}) only if such answers are expected.`,
      ),
    };
  }
  if (error instanceof sdk.APIUserAbortError) return { error: new ProviderError("aborted", "Cancelled.") };
  if (error instanceof sdk.APIConnectionTimeoutError) {
    const wait = formatWait(limits.requestTimeoutMs);
    return {
      error: new ProviderError(
        "network",
        `${url} did not begin to answer within ${wait}.`,
        `Check that the server is up, or raise HX_REQUEST_TIMEOUT_MS (now ${limits.requestTimeoutMs}).`,
      ),
      retry: { reason: `no response within ${wait}`, maxRetries: HEADER_TIMEOUT_RETRIES },
    };
  }
  if (error instanceof sdk.APIConnectionError) {
    const cause = describeCause((error as SdkApiError).cause);
    return {
      error: new ProviderError(
        "network",
        `Could not reach ${url}${cause ? ` (${cause})` : ""}.`,
        "Check the network and --base-url; for a local server, check that it is running.",
      ),
      retry: { reason: `could not connect${cause ? ` (${cause})` : ""}` },
    };
  }
  if (error instanceof sdk.APIError) {
    const api = error as SdkApiError;
    if (typeof api.status === "number") return fromHttpStatus(api, endpoint, limits);
    return fromStreamError(api, endpoint);
  }
  const text = errorMessage(error);
  return {
    error: new ProviderError(
      "network",
      `Model request to ${url} failed: ${firstLine(text)}`,
      "Check the network and --base-url; for a local server, check that it is running.",
    ),
  };
}

function describeCause(cause: unknown): string {
  if (!cause || typeof cause !== "object") return "";
  const nested = (cause as { cause?: { code?: string; message?: string } }).cause;
  const code = (cause as { code?: string }).code ?? nested?.code;
  if (code) return code;
  const message = (cause as { message?: string }).message;
  return message ? firstLine(message) : "";
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}
