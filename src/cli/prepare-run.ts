import { statSync } from "node:fs";
import path from "node:path";
import { type LoadedSettings, loadSettings } from "../config/settings.js";
import type { ModelProvider } from "../providers/provider.js";
import { createProvider } from "../providers/registry.js";
import { type RunConfig, type RunFlags, resolveRunConfig, UsageError } from "./run-config.js";

export interface PreparedRun {
  cwd: string;
  config: RunConfig;
  settings: LoadedSettings;
  provider: ModelProvider;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
const DEFAULT_MAX_RETRIES = 4;

/** Resolves the working folder, settings and configuration. Throws UsageError on bad input. */
export function resolveRun(
  flags: RunFlags,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Omit<PreparedRun, "provider"> {
  const cwd = resolveCwd(flags.cwd);
  const settings = loadSettings(cwd);
  // Reported at once, before anything can fail: a broken settings file may be the cause.
  for (const warning of settings.warnings) warn(`warning: ${warning}`);
  const config = resolveRunConfig(flags, process.env, settings.merged);
  return { cwd, settings, config };
}

/** Creates the model provider; a missing key or unknown provider throws a ProviderError. */
export async function prepareRun(flags: RunFlags): Promise<PreparedRun> {
  const resolved = resolveRun(flags);
  const { config } = resolved;
  const provider = await createProvider({
    provider: config.provider,
    model: config.model ?? "",
    baseURL: config.baseURL,
    thinking: config.thinking,
    script: config.script ? path.resolve(config.script) : undefined,
    timeoutMs: positiveIntFromEnv("HX_REQUEST_TIMEOUT_MS", DEFAULT_TIMEOUT_MS),
    maxRetries: nonNegativeIntFromEnv("HX_MAX_RETRIES", DEFAULT_MAX_RETRIES),
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

function positiveIntFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

function nonNegativeIntFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}
