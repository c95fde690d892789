import type { OpenAIChatCompat } from "./openai-chat-request.js";
import { type ModelProvider, type ProviderConfig, ProviderError } from "./provider.js";

/** Which wire API (and so which module) serves a provider. */
type ProviderApi = "openai-chat" | "anthropic-messages" | "scripted";

/** Defaults for one provider name, for the CLI (help text, `--model` default) and for createProvider. */
export interface ProviderDefaults {
  name: string;
  api: ProviderApi;
  /** Base URL used when `--base-url` is not given (absent for the scripted provider). */
  baseURL?: string;
  /** Environment variable holding the API key (absent when no key is needed). */
  keyEnv?: string;
  model: string;
  /** Thinking switch when the user sets none; undefined = not sent. */
  thinking?: boolean;
}

interface ProviderEntry extends Omit<ProviderDefaults, "name"> {
  /** Vendor differences of an OpenAI-compatible endpoint; `custom` = a non-default base URL. */
  compat?: (custom: boolean) => OpenAIChatCompat;
}

/**
 * One entry per provider; adding a provider is adding an entry. DeepSeek facts (verified
 * against api-docs.deepseek.com): the recommended model id is `deepseek-flash`
 * (DeepSeek-V4.1-Flash); thinking is on by default and switched with
 * `thinking: {type: "enabled" | "disabled"}`; `deepseek-chat`/`deepseek-reasoner` were retired.
 */
const PROVIDERS: Readonly<Record<string, ProviderEntry>> = Object.freeze<Record<string, ProviderEntry>>({
  deepseek: {
    api: "openai-chat",
    baseURL: "https://api.deepseek.com",
    keyEnv: "DEEPSEEK_API_KEY",
    model: "deepseek-flash",
    thinking: true,
    compat: () => ({ sendReasoningContent: true, thinkingFormat: "deepseek", maxTokensField: "max_tokens" }),
  },
  openai: {
    api: "openai-chat",
    baseURL: "https://api.openai.com/v1",
    keyEnv: "OPENAI_API_KEY",
    model: "gpt-5-mini",
    // OpenAI's own reasoning models reject max_tokens; local servers (Ollama, llama.cpp) know only max_tokens.
    compat: (custom) => ({
      sendReasoningContent: false,
      thinkingFormat: "none",
      maxTokensField: custom ? "max_tokens" : "max_completion_tokens",
      // OpenAI's models take images; what a local server runs is not known.
      images: !custom,
    }),
  },
  anthropic: {
    api: "anthropic-messages",
    baseURL: "https://api.anthropic.com",
    keyEnv: "ANTHROPIC_API_KEY",
    model: "claude-sonnet-4-6",
  },
  scripted: {
    api: "scripted",
    model: "scripted",
  },
});

/** Key sent to keyless endpoints (local Ollama, llama.cpp...): the SDKs refuse to run without one. */
const PLACEHOLDER_KEY = "hx-no-key";

/** Names of all known providers, in table order. */
export function providerNames(): string[] {
  return Object.keys(PROVIDERS);
}

/** Defaults of one provider; throws ProviderError("config") for an unknown name. */
export function providerDefaults(name: string): ProviderDefaults {
  const entry = PROVIDERS[name];
  if (!entry || !Object.hasOwn(PROVIDERS, name)) {
    throw new ProviderError(
      "config",
      `Unknown provider "${name}".`,
      `Choose one of: ${providerNames().join(", ")} (--provider NAME).`,
    );
  }
  const { compat: _compat, ...defaults } = entry;
  return { name, ...defaults };
}

/** The provider's default model; "" for an unknown provider (its window is then the smallest default). */
export function defaultModelFor(name: string): string {
  return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name].model : "";
}

/**
 * Creates the provider `config` names. Rules:
 * - unknown provider → ProviderError("config") listing the known ones;
 * - an empty `config.model` means the provider's default model;
 * - the key is `config.apiKey`, else the provider's environment variable; when neither is set
 *   it throws ProviderError("config", "<VAR> is not set.") — unless `config.baseURL` points
 *   somewhere other than the provider's default (a local server), which gets a placeholder key;
 * - `config.thinking` undefined means the provider's default;
 * - the scripted provider needs `config.script`.
 * `env` is the environment to read keys from (tests pass their own).
 */
export async function createProvider(
  config: ProviderConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ModelProvider> {
  const defaults = providerDefaults(config.provider);
  const entry = PROVIDERS[config.provider]!;
  const resolved: ProviderConfig = { ...config, model: config.model || defaults.model };
  if (defaults.api === "scripted") {
    if (!config.script) {
      throw new ProviderError(
        "config",
        "The scripted provider needs a script file.",
        "Pass one with --script FILE; the format is in the README (Try it offline) and examples/offline-demo.json.",
      );
    }
    const { createScriptedProvider } = await import("./scripted.js");
    return createScriptedProvider(config.script, resolved.model);
  }
  const baseURL = config.baseURL || defaults.baseURL!;
  const custom = normalizeURL(baseURL) !== normalizeURL(defaults.baseURL!);
  const apiKey = resolveKey(config, defaults, env, custom);
  const thinking = config.thinking ?? defaults.thinking;
  const common = { name: defaults.name, baseURL, apiKey, keyEnv: defaults.keyEnv, thinking };
  if (defaults.api === "anthropic-messages") {
    const { createAnthropicMessagesProvider } = await import("./anthropic-messages.js");
    return createAnthropicMessagesProvider(resolved, common);
  }
  const { createOpenAIChatProvider } = await import("./openai-chat.js");
  return createOpenAIChatProvider(resolved, { ...common, compat: entry.compat!(custom) });
}

function resolveKey(
  config: ProviderConfig,
  defaults: ProviderDefaults,
  env: NodeJS.ProcessEnv,
  custom: boolean,
) {
  const key = config.apiKey || (defaults.keyEnv ? env[defaults.keyEnv] : undefined);
  if (key) return key;
  if (custom || !defaults.keyEnv) return PLACEHOLDER_KEY;
  const others = providerNames().filter((name) => name !== defaults.name);
  throw new ProviderError(
    "config",
    `${defaults.keyEnv} is not set.`,
    `Set it with \`export ${defaults.keyEnv}=...\`, or choose another provider with --provider ${others.join("|")}.`,
  );
}

function normalizeURL(url: string): string {
  return url.trim().replace(/\/+$/, "").toLowerCase();
}
