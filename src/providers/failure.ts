import type { ProviderError } from "./provider.js";

/** What an error message needs to know about the endpoint that failed. */
export interface EndpointInfo {
  /** The base URL the request went to, named in every message. */
  baseURL: string;
  /** Environment variable holding the key, named in auth hints (absent for keyless endpoints). */
  keyEnv?: string;
  /** The API the base URL must serve, for protocol-error hints ("an OpenAI-compatible API"). */
  api?: string;
}

/** One failed attempt: the error the user sees if it is the last, and whether to try again. */
export interface Failure {
  error: ProviderError;
  /**
   * Set when another attempt may succeed: why (for the notice), the wait the server asked for,
   * and, for failures that are unlikely to pass by retrying, the most retries they get.
   */
  retry?: { reason: string; afterMs?: number; maxRetries?: number };
}
