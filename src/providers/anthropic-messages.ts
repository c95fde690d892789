import { buildMessagesRequest } from "./anthropic-messages-request.js";
import { type MessagesEvent, MessagesStreamAssembler } from "./anthropic-messages-stream.js";
import { callLimits } from "./limits.js";
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
  /** First retry backoff (default 500 ms); tests set it small. */
  retryBaseDelayMs?: number;
}

/**
 * A provider for the Anthropic Messages API. The `@anthropic-ai/sdk` is imported lazily; its
 * error classes go to the shared classifier. `baseURL` and `apiKey` are always explicit, so
 * `ANTHROPIC_BASE_URL` and `ANTHROPIC_AUTH_TOKEN` never redirect or re-authenticate a request;
 * the SDK never retries (hx's one policy does) and never logs.
 */
export async function createAnthropicMessagesProvider(
  config: ProviderConfig,
  setup: AnthropicMessagesSetup,
): Promise<ModelProvider> {
  const sdk = await import("@anthropic-ai/sdk");
  const Anthropic = sdk.default;
  const limits = callLimits(config);
  return createStreamingProvider<MessagesEvent>({
    name: setup.name,
    config,
    endpoint: { baseURL: setup.baseURL, keyEnv: setup.keyEnv, api: "the Anthropic Messages API" },
    sdkErrors: sdk,
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
        maxRetries: 0,
        timeout: limits.requestTimeoutMs,
        logLevel: "off",
        fetch: attempt.fetch,
      });
      const { data, response } = await client.messages
        .create(body as never, { signal: attempt.signal })
        .withResponse();
      return { events: data as unknown as AsyncIterable<MessagesEvent>, response };
    },
    newAssembler: (onDelta) => new MessagesStreamAssembler(onDelta),
  });
}
