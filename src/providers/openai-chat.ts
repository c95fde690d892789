import { MIN_CONTEXT_WINDOW } from "../context/windows.js";
import { HttpConnections } from "./http-fetch.js";
import { callLimits } from "./limits.js";
import { contextWindowFromModelList } from "./model-window.js";
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
  /** First retry backoff (default 500 ms); tests set it small. */
  retryBaseDelayMs?: number;
}

/**
 * A provider for OpenAI Chat Completions (OpenAI, DeepSeek, Ollama, llama.cpp, vLLM...).
 * The `openai` SDK is imported here, lazily, so other providers never load it; its error
 * classes go to the shared classifier. `baseURL` is always explicit (the SDK would otherwise
 * read `OPENAI_BASE_URL`); the SDK never retries (hx's one policy does, in streaming-call.ts)
 * and never logs (its raw parse lines would reach the terminal).
 */
export async function createOpenAIChatProvider(
  config: ProviderConfig,
  setup: OpenAIChatSetup,
): Promise<ModelProvider> {
  const sdk = await import("openai");
  const OpenAI = sdk.default;
  const limits = callLimits(config);
  const provider = createStreamingProvider<ChatChunk>({
    name: setup.name,
    config,
    endpoint: {
      baseURL: setup.baseURL,
      keyEnv: setup.keyEnv,
      api: "an OpenAI-compatible Chat Completions API (usually ending in /v1)",
    },
    sdkErrors: sdk,
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
        maxRetries: 0,
        timeout: limits.requestTimeoutMs,
        logLevel: "off",
        organization: null,
        project: null,
        fetch: attempt.fetch,
      });
      const { data, response } = await client.chat.completions
        .create(body as never, { signal: attempt.signal })
        .withResponse();
      return { events: data as unknown as AsyncIterable<ChatChunk>, response };
    },
    newAssembler: (onDelta) => new ChatStreamAssembler(onDelta),
  });
  return { ...provider, reportedContextWindow: () => reportedWindow(setup, config.model) };
}

/** How long hx waits for a server's model list at start-up before using its default. */
const MODEL_LIST_TIMEOUT_MS = 1500;

/** `GET {baseURL}/models` (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter...): the model's window. */
async function reportedWindow(setup: OpenAIChatSetup, model: string): Promise<number | undefined> {
  try {
    const fetch = new HttpConnections().fetch({ maxBytes: 4 * 1024 * 1024 });
    const response = await fetch(`${setup.baseURL.replace(/\/+$/, "")}/models`, {
      headers: { authorization: `Bearer ${setup.apiKey}`, accept: "application/json" },
      signal: AbortSignal.timeout(MODEL_LIST_TIMEOUT_MS),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const window = contextWindowFromModelList(await response.json(), model);
    return window !== undefined && window >= MIN_CONTEXT_WINDOW ? window : undefined;
  } catch {
    return undefined;
  }
}
