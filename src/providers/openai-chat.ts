import { buildChatRequest, type OpenAIChatCompat } from "./openai-chat-request.js";
import { type ChatChunk, ChatStreamAssembler } from "./openai-chat-stream.js";
import type { ModelProvider, ProviderConfig } from "./provider.js";
import { createStreamingProvider } from "./streaming-call.js";

export type { OpenAIChatCompat } from "./openai-chat-request.js";

/** Everything the registry resolved for one OpenAI-compatible endpoint. */
export interface OpenAIChatSetup {
  /** Provider name shown to the user ("deepseek", "openai"). */
  name: string;
  baseURL: string;
  apiKey: string;
  /** Environment variable the key comes from, named in auth-error hints. */
  keyEnv?: string;
  compat: OpenAIChatCompat;
  /** Thinking switch after defaults were applied; undefined = not sent. */
  thinking?: boolean;
  /** First backoff before retrying a dropped stream (default 250 ms); tests set it small. */
  retryBaseDelayMs?: number;
}

/**
 * A provider for OpenAI Chat Completions (OpenAI, DeepSeek, Ollama, llama.cpp, vLLM...).
 * The `openai` SDK is imported here, lazily, so other providers never load it. `baseURL`,
 * `maxRetries` and `timeout` are always passed explicitly: the SDK would otherwise read
 * `OPENAI_BASE_URL` and its own retry defaults from the environment.
 */
export async function createOpenAIChatProvider(
  config: ProviderConfig,
  setup: OpenAIChatSetup,
): Promise<ModelProvider> {
  const { default: OpenAI } = await import("openai");
  return createStreamingProvider<ChatChunk>({
    name: setup.name,
    config,
    endpoint: { baseURL: setup.baseURL, keyEnv: setup.keyEnv },
    retryBaseDelayMs: setup.retryBaseDelayMs,
    buildBody: (request) =>
      buildChatRequest(request, {
        model: config.model,
        compat: setup.compat,
        thinking: setup.thinking,
        maxOutputTokens: config.maxOutputTokens,
      }),
    async openStream(body, attempt) {
      const client = new OpenAI({
        apiKey: setup.apiKey,
        baseURL: setup.baseURL,
        maxRetries: config.maxRetries,
        timeout: config.timeoutMs,
        organization: null,
        project: null,
        fetch: attempt.fetch,
      });
      const stream = await client.chat.completions.create(body as never, { signal: attempt.signal });
      return stream as unknown as AsyncIterable<ChatChunk>;
    },
    newAssembler: (onDelta) => new ChatStreamAssembler(onDelta),
  });
}
