import { MIN_CONTEXT_WINDOW } from "./context-windows.js";
import { HttpConnections } from "./http-fetch.js";
import { callLimits } from "./limits.js";
import { contextWindowFromModelList } from "./model-window.js";
import { CHAT_ERRORS, openChatStream } from "./openai-chat-client.js";
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
 * A provider for OpenAI Chat Completions (OpenAI, DeepSeek, Ollama, llama.cpp, vLLM...),
 * through hx's own client (openai-chat-client.ts: one streamed POST, read as the `openai` SDK
 * reads it, without the SDK's 150 KB and the undici its `Headers` load). `baseURL` is always
 * explicit; the client never retries (hx's one policy does, in streaming-call.ts) and never
 * logs.
 */
export async function createOpenAIChatProvider(
  config: ProviderConfig,
  setup: OpenAIChatSetup,
): Promise<ModelProvider> {
  const limits = callLimits(config);
  const provider = createStreamingProvider<ChatChunk>({
    name: setup.name,
    config,
    endpoint: {
      baseURL: setup.baseURL,
      keyEnv: setup.keyEnv,
      api: "an OpenAI-compatible Chat Completions API (usually ending in /v1)",
    },
    sdkErrors: CHAT_ERRORS,
    retryBaseDelayMs: setup.retryBaseDelayMs,
    buildBody: (request) =>
      buildChatRequest(request, {
        model: config.model,
        compat: setup.compat,
        thinking: setup.thinking,
        maxOutputTokens: config.maxOutputTokens,
      }),
    openStream: (body, attempt) =>
      openChatStream({
        baseURL: setup.baseURL,
        apiKey: setup.apiKey,
        body,
        signal: attempt.signal,
        timeoutMs: limits.requestTimeoutMs,
        fetch: attempt.liteFetch,
      }),
    newAssembler: (onDelta) => new ChatStreamAssembler(onDelta),
  });
  return { ...provider, reportedContextWindow: () => reportedWindow(setup, config.model) };
}

/** How long hx waits for a server's model list at start-up before using its default. */
const MODEL_LIST_TIMEOUT_MS = 1500;

/** `GET {baseURL}/models` (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter...): the model's window. */
async function reportedWindow(setup: OpenAIChatSetup, model: string): Promise<number | undefined> {
  try {
    const fetch = new HttpConnections().liteFetch({ maxBytes: 4 * 1024 * 1024 });
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
