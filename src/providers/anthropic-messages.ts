import { buildMessagesRequest } from "./anthropic-messages-request.js";
import { type MessagesEvent, MessagesStreamAssembler } from "./anthropic-messages-stream.js";
import type { ModelProvider, ProviderConfig } from "./provider.js";
import { createStreamingProvider } from "./streaming-call.js";

/** Everything the registry resolved for one Anthropic Messages endpoint. */
export interface AnthropicMessagesSetup {
  name: string;
  baseURL: string;
  apiKey: string;
  keyEnv?: string;
  /** true/false is sent as the `thinking` switch; undefined sends nothing. */
  thinking?: boolean;
  /** First backoff before retrying a dropped stream (default 250 ms); tests set it small. */
  retryBaseDelayMs?: number;
}

/**
 * A provider for the Anthropic Messages API. The `@anthropic-ai/sdk` is imported lazily.
 * `baseURL`, `apiKey`, `maxRetries` and `timeout` are always explicit, so `ANTHROPIC_BASE_URL`
 * and `ANTHROPIC_AUTH_TOKEN` in the environment never redirect or re-authenticate a request.
 */
export async function createAnthropicMessagesProvider(
  config: ProviderConfig,
  setup: AnthropicMessagesSetup,
): Promise<ModelProvider> {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  return createStreamingProvider<MessagesEvent>({
    name: setup.name,
    config,
    endpoint: { baseURL: setup.baseURL, keyEnv: setup.keyEnv },
    retryBaseDelayMs: setup.retryBaseDelayMs,
    buildBody: (request) =>
      buildMessagesRequest(request, {
        model: config.model,
        maxOutputTokens: config.maxOutputTokens,
        thinking: setup.thinking,
      }),
    async openStream(body, attempt) {
      const client = new Anthropic({
        apiKey: setup.apiKey,
        baseURL: setup.baseURL,
        maxRetries: config.maxRetries,
        timeout: config.timeoutMs,
        fetch: attempt.fetch,
      });
      const stream = await client.messages.create(body as never, { signal: attempt.signal });
      return stream as unknown as AsyncIterable<MessagesEvent>;
    },
    newAssembler: (onDelta) => new MessagesStreamAssembler(onDelta),
  });
}
