import type { RetryInfo, StreamDelta } from "../../src/core/events.js";
import type { Message } from "../../src/core/messages.js";
import { createAnthropicMessagesProvider } from "../../src/providers/anthropic-messages.js";
import { createOpenAIChatProvider, type OpenAIChatCompat } from "../../src/providers/openai-chat.js";
import {
  type CompleteOptions,
  type ModelProvider,
  type ModelRequest,
  type ProviderConfig,
  ProviderError,
} from "../../src/providers/provider.js";

export const DEEPSEEK_COMPAT: OpenAIChatCompat = {
  sendReasoningContent: true,
  thinkingFormat: "deepseek",
  maxTokensField: "max_tokens",
};

export const OPENAI_COMPAT: OpenAIChatCompat = {
  sendReasoningContent: false,
  thinkingFormat: "none",
  maxTokensField: "max_completion_tokens",
};

/** Provider config for tests: small retries, short timeout. */
export function testConfig(overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  return { provider: "openai", model: "test-model", timeoutMs: 5000, maxRetries: 2, ...overrides };
}

/** An OpenAI-compatible provider aimed at the fake server, with fast dropped-stream backoff. */
export function openaiProvider(
  baseURL: string,
  options: {
    compat?: OpenAIChatCompat;
    thinking?: boolean;
    keyEnv?: string;
    config?: Partial<ProviderConfig>;
  } = {},
): Promise<ModelProvider> {
  return createOpenAIChatProvider(testConfig(options.config), {
    name: "test",
    baseURL,
    apiKey: "test-key",
    keyEnv: options.keyEnv ?? "TEST_API_KEY",
    compat: options.compat ?? OPENAI_COMPAT,
    thinking: options.thinking,
    retryBaseDelayMs: 5,
  });
}

/** An Anthropic provider aimed at the fake server, with fast dropped-stream backoff. */
export function anthropicProvider(
  baseURL: string,
  options: { thinking?: boolean; config?: Partial<ProviderConfig> } = {},
): Promise<ModelProvider> {
  return createAnthropicMessagesProvider(testConfig({ provider: "anthropic", ...options.config }), {
    name: "anthropic",
    baseURL,
    apiKey: "test-key",
    keyEnv: "ANTHROPIC_API_KEY",
    thinking: options.thinking,
    retryBaseDelayMs: 5,
  });
}

export function request(
  messages: Message[] = [{ role: "user", content: "hi" }],
  system = "You are hx.",
): ModelRequest {
  return { system, messages, tools: [] };
}

/** Calls `complete`, recording deltas and retry notices. */
export async function completeRecording(
  provider: ModelProvider,
  req: ModelRequest,
  options: CompleteOptions = {},
) {
  const deltas: StreamDelta[] = [];
  const retries: RetryInfo[] = [];
  const response = await provider.complete(req, {
    ...options,
    onDelta: (delta) => deltas.push(delta),
    onRetry: (info) => retries.push(info),
  });
  return { response, deltas, retries };
}

/** Runs `complete` expecting a ProviderError; fails the test if it resolves or throws anything else. */
export async function expectProviderError(
  provider: ModelProvider,
  req: ModelRequest = request(),
  options: CompleteOptions = {},
): Promise<ProviderError> {
  try {
    await provider.complete(req, options);
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw new Error(`expected a ProviderError, got ${String(error)}`);
  }
  throw new Error("expected the call to fail");
}
