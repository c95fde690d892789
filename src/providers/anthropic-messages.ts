import { buildMessagesRequest } from "./anthropic-messages-request.js";
import { type MessagesEvent, MessagesStreamAssembler } from "./anthropic-messages-stream.js";
import { StreamDroppedError } from "./errors.js";
import type { ModelProvider, ModelRequest, ModelResponse, ProviderConfig } from "./provider.js";
import { consumeStream, runStreamingCall } from "./streaming-call.js";

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

const DEFAULT_RETRY_BASE_DELAY_MS = 250;

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
  const endpoint = { baseURL: setup.baseURL, keyEnv: setup.keyEnv };

  async function complete(request: ModelRequest, options: Parameters<ModelProvider["complete"]>[1] = {}) {
    const body = buildMessagesRequest(request, {
      model: config.model,
      maxOutputTokens: config.maxOutputTokens,
      thinking: setup.thinking,
    });
    const callSetup = {
      endpoint,
      maxRetries: config.maxRetries,
      retryBaseDelayMs: setup.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
      idleTimeoutMs: config.timeoutMs,
      options,
    };
    return runStreamingCall(callSetup, async (attempt): Promise<ModelResponse> => {
      const client = new Anthropic({
        apiKey: setup.apiKey,
        baseURL: setup.baseURL,
        maxRetries: config.maxRetries,
        timeout: config.timeoutMs,
        fetch: attempt.fetch,
      });
      const stream = (await client.messages.create(body as never, {
        signal: attempt.signal,
      })) as unknown as AsyncIterable<MessagesEvent>;
      attempt.touch();
      const assembler = new MessagesStreamAssembler(options.onDelta);
      await consumeStream(stream, (event) => {
        attempt.touch();
        assembler.push(event);
      });
      if (!assembler.finished)
        throw new StreamDroppedError("the stream ended before the answer was complete");
      return assembler.result();
    });
  }

  return { name: setup.name, model: config.model, complete };
}
