import { statSync } from "node:fs";
import path from "node:path";
import { type LoadedSettings, loadSettings } from "../config/settings.js";
import { resolveContextWindow } from "../context/index.js";
import type { ModelProvider } from "../providers/provider.js";
import { createProvider, defaultModelFor } from "../providers/registry.js";
import { type RunConfig, type RunFlags, resolveRunConfig, UsageError } from "./run-config.js";

export interface PreparedRun {
  cwd: string;
  config: RunConfig;
  settings: LoadedSettings;
  /** The model that will answer: --model, or the provider's default. */
  model: string;
  /** Its context window: --context-window > HX_CONTEXT_WINDOW > settings > the model table. */
  contextWindow: number;
  provider: ModelProvider;
}

/**
 * Resolves the working folder, settings, configuration, model and context window — the one
 * place that reads them, so a session, `hx context` and `hx skills` agree. Throws UsageError
 * on bad input; warnings (a broken settings file, a bad window value) are reported at once.
 */
export function resolveRun(
  flags: RunFlags,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Omit<PreparedRun, "provider"> {
  const cwd = resolveCwd(flags.cwd);
  const settings = loadSettings(cwd);
  for (const warning of settings.warnings) warn(`warning: ${warning}`);
  const config = resolveRunConfig(flags, process.env, settings.merged);
  const model = config.model || defaultModelFor(config.provider);
  const window = resolveContextWindow({
    model,
    flag: config.contextWindowFlag,
    env: process.env.HX_CONTEXT_WINDOW,
    settings: settings.merged.contextWindow,
  });
  for (const warning of window.warnings) warn(`warning: ${warning}`);
  return { cwd, settings, config, model, contextWindow: window.tokens };
}

/** Creates the model provider; a missing key or unknown provider throws a ProviderError. */
export async function prepareRun(flags: RunFlags): Promise<PreparedRun> {
  const resolved = resolveRun(flags);
  const { config } = resolved;
  const provider = await createProvider({
    provider: config.provider,
    model: resolved.model,
    baseURL: config.baseURL,
    thinking: config.thinking,
    script: config.script ? path.resolve(config.script) : undefined,
    timeoutMs: config.requestTimeoutMs,
    maxRetries: config.maxRetries,
  });
  return { ...resolved, provider };
}

function resolveCwd(dir: string | undefined): string {
  const cwd = path.resolve(dir ?? process.cwd());
  try {
    if (statSync(cwd).isDirectory()) return cwd;
  } catch {
    // reported below
  }
  throw new UsageError(`-C/--cwd: '${dir}' is not a directory.`);
}
