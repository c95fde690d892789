// A skill's `model:` (Claude Code), as a provider of the session's own provider: loaded only
// when a skill that names a model runs.
import type { ModelProvider } from "../providers/provider.js";
import { contextWindowFor, type PreparedRun, withProvider } from "./prepare-run.js";

/** Claude Code's aliases, as Anthropic model ids (what the anthropic provider is asked for). */
const ANTHROPIC_ALIASES: Readonly<Record<string, string>> = {
  sonnet: "claude-sonnet-4-6",
  opus: "claude-opus-4-1",
  haiku: "claude-haiku-4-5",
};

/**
 * The model id the session's provider would be asked for, or why it does not offer the model:
 * Claude Code's aliases and `claude-*` ids only on `anthropic`, other ids only elsewhere (an
 * OpenAI-compatible server names its own models). The scripted provider takes any.
 */
export function offeredModel(provider: string, model: string): { id: string } | { note: string } {
  const alias = ANTHROPIC_ALIASES[model.toLowerCase()];
  const claude = alias !== undefined || model.startsWith("claude-");
  if (provider === "scripted") return { id: model };
  if (provider === "anthropic")
    return claude ? { id: alias ?? model } : { note: `the anthropic provider has no model '${model}'` };
  return claude ? { note: `the ${provider} provider does not offer Claude models` } : { id: model };
}

export async function skillModelFor(
  prepared: PreparedRun,
  model: string,
): Promise<{ provider: ModelProvider } | { note: string }> {
  const offered = offeredModel(prepared.config.provider, model);
  if ("note" in offered) return { note: `${offered.note}; it runs on ${prepared.model}` };
  if (offered.id === prepared.model) return { provider: prepared.provider };
  try {
    const window = contextWindowFor(offered.id, prepared.config, prepared.settings);
    const { provider } = await withProvider({ ...prepared, model: offered.id, contextWindow: window.tokens });
    return { provider };
  } catch (error) {
    return { note: `${(error as Error).message}; it runs on ${prepared.model}` };
  }
}
