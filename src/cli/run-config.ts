import type { Settings } from "../config/settings.js";
import { parsePermissionMode } from "../permissions/modes.js";

/** Options shared by `hx agent` and the interactive session, as commander parses them. */
export interface RunFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  maxTurns?: string;
  cwd?: string;
  outputFormat?: string;
  verbose?: boolean;
  thinking?: string;
  script?: string;
  permissionMode?: string;
  contextWindow?: string;
  continue?: boolean;
  resume?: string;
}

export type OutputFormat = "text" | "json" | "stream-json";

/** Everything a run needs to know, after flags > environment > project > user settings. */
export interface RunConfig {
  provider: string;
  /** Undefined: the provider's default model. */
  model?: string;
  baseURL?: string;
  maxTurns: number;
  thinking?: boolean;
  script?: string;
  outputFormat: OutputFormat;
  verbose: boolean;
  permissionMode?: string;
  /** `--context-window` as typed; resolved with env, settings and the model table later. */
  contextWindowFlag?: string;
  /** Retries on 429, 5xx and dropped connections (HX_MAX_RETRIES). */
  maxRetries: number;
  /** Request timeout (HX_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
}

export const DEFAULT_PROVIDER = "deepseek";
export const DEFAULT_MAX_TURNS = 50;
export const DEFAULT_MAX_RETRIES = 4;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60 * 1000;
const OUTPUT_FORMATS: OutputFormat[] = ["text", "json", "stream-json"];

/** A problem with the user's options; the CLI prints it and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

type Layer = { provider?: string; model?: string; baseURL?: string };

/**
 * Resolves the run configuration. Precedence is flags > env > settings (project over user,
 * already merged). A model set at a lower layer than the provider is ignored, so
 * `--provider anthropic` never inherits a DeepSeek model from settings.
 */
export function resolveRunConfig(flags: RunFlags, env: NodeJS.ProcessEnv, settings: Settings): RunConfig {
  const layers: Layer[] = [
    { provider: flags.provider, model: flags.model, baseURL: flags.baseUrl },
    {
      provider: env.HX_PROVIDER || undefined,
      model: env.HX_MODEL || undefined,
      baseURL: env.HX_BASE_URL || undefined,
    },
    { provider: settings.provider, model: settings.model, baseURL: settings.baseURL },
  ];
  const providerLayer = layers.findIndex((l) => l.provider);
  const provider = providerLayer >= 0 ? layers[providerLayer].provider! : DEFAULT_PROVIDER;
  const usable = (index: number) => providerLayer < 0 || index <= providerLayer;
  const model = layers.find((l, i) => l.model && usable(i))?.model;
  const baseURLLayer = layers.findIndex((l, i) => l.baseURL && usable(i));
  const baseURL = baseURLLayer >= 0 ? layers[baseURLLayer].baseURL : undefined;
  if (baseURL !== undefined && !/^https?:\/\/[^\s/]+/.test(baseURL)) {
    const source = ["--base-url", "HX_BASE_URL", "baseURL in settings"][baseURLLayer];
    throw new UsageError(
      `${source} must be an http(s) URL such as http://127.0.0.1:11434/v1 (got '${baseURL}').`,
    );
  }

  // Settings values are validated when the files are read; flags and env are text.
  const maxTurns =
    flags.maxTurns !== undefined
      ? parsePositiveInt(flags.maxTurns, "--max-turns", DEFAULT_MAX_TURNS)
      : env.HX_MAX_TURNS
        ? parsePositiveInt(env.HX_MAX_TURNS, "HX_MAX_TURNS", DEFAULT_MAX_TURNS)
        : (settings.maxTurns ?? DEFAULT_MAX_TURNS);
  if (flags.permissionMode !== undefined) {
    const mode = parsePermissionMode(flags.permissionMode);
    if (typeof mode !== "string") throw new UsageError(`--permission-mode: ${mode.error}`);
  }
  if (flags.continue && flags.resume !== undefined) {
    throw new UsageError("use either --continue or --resume ID, not both.");
  }
  const outputFormat = (flags.outputFormat ?? "text") as OutputFormat;
  if (!OUTPUT_FORMATS.includes(outputFormat)) {
    throw new UsageError(
      `--output-format must be one of ${OUTPUT_FORMATS.join(", ")} (got '${flags.outputFormat}').`,
    );
  }
  return {
    provider,
    model,
    baseURL,
    maxTurns,
    thinking: parseThinking(flags.thinking) ?? settings.thinking,
    script: flags.script,
    outputFormat,
    verbose: Boolean(flags.verbose ?? settings.verbose),
    permissionMode: flags.permissionMode ?? settings.permissions?.defaultMode,
    contextWindowFlag: flags.contextWindow,
    maxRetries: parseCount(env.HX_MAX_RETRIES, "HX_MAX_RETRIES", DEFAULT_MAX_RETRIES, 0),
    requestTimeoutMs: parseCount(
      env.HX_REQUEST_TIMEOUT_MS,
      "HX_REQUEST_TIMEOUT_MS",
      DEFAULT_REQUEST_TIMEOUT_MS,
      1,
    ),
  };
}

function parseThinking(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "on") return true;
  if (value === "off") return false;
  throw new UsageError(`--thinking must be 'on' or 'off' (got '${value}').`);
}

function parsePositiveInt(value: string | undefined, name: string, fallback: number): number {
  return parseCount(value, name, fallback, 1);
}

function parseCount(value: string | undefined, name: string, fallback: number, min: 0 | 1): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    const kind = min === 1 ? "a positive whole number" : "a whole number (0 or more)";
    throw new UsageError(`${name} must be ${kind} (got '${value}').`);
  }
  return parsed;
}
