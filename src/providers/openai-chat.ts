import { StreamDroppedError } from "./errors.js";
import { buildChatRequest, type OpenAIChatCompat } from "./openai-chat-request.js";
import { type ChatChunk, ChatStreamAssembler } from "./openai-chat-stream.js";
import type { ModelProvider, ModelRequest, ModelResponse, ProviderConfig } from "./provider.js";
import { consumeStream, runStreamingCall } from "./streaming-call.js";

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

const DEFAULT_RETRY_BASE_DELAY_MS = 250;

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
  const endpoint = { baseURL: setup.baseURL, keyEnv: setup.keyEnv };

  async function complete(request: ModelRequest, options: Parameters<ModelProvider["complete"]>[1] = {}) {
    const body = buildChatRequest(request, {
      model: config.model,
      compat: setup.compat,
      thinking: setup.thinking,
      maxOutputTokens: config.maxOutputTokens,
    });
    const callSetup = {
      endpoint,
      maxRetries: config.maxRetries,
      retryBaseDelayMs: setup.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
      idleTimeoutMs: config.timeoutMs,
      options,
    };
    return runStreamingCall(callSetup, async (attempt): Promise<ModelResponse> => {
      const client = new OpenAI({
        apiKey: setup.apiKey,
        baseURL: setup.baseURL,
        maxRetries: config.maxRetries,
        timeout: config.timeoutMs,
        organization: null,
        project: null,
        fetch: attempt.fetch,
      });
      const stream = (await client.chat.completions.create(body as never, {
        signal: attempt.signal,
      })) as unknown as AsyncIterable<ChatChunk>;
      attempt.touch();
      const assembler = new ChatStreamAssembler(options.onDelta);
      await consumeStream(stream, (chunk) => {
        attempt.touch();
        assembler.push(chunk);
      });
      if (!assembler.finished)
        throw new StreamDroppedError("the stream ended before the answer was complete");
      return assembler.result();
    });
  }

  return { name: setup.name, model: config.model, complete };
}
