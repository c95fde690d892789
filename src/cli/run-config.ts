import { parsePermissionMode } from "../permissions/index.js";
import { CALL_LIMIT_DEFAULTS, MAX_TIMER_MS } from "../providers/limits.js";
import { providerNames } from "../providers/registry.js";
import { isSandboxMode, SANDBOX_MODES, type SandboxMode } from "../sandbox/index.js";
import { redactUrlPasswords } from "../secrets/redact.js";
import type { Settings } from "../settings/index.js";

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
  sandbox?: string;
  /** `--mcp-config FILE...`: MCP servers to start (the user's own, no approval needed). */
  mcpConfig?: string[];
  /** `--strict-mcp-config`: only the --mcp-config servers. */
  strictMcpConfig?: boolean;
  /** `--trust`: trust this folder for this run (its project settings apply whole). */
  trust?: boolean;
  /** `--worktree [NAME]`: work in a new git worktree `.hx/worktrees/NAME` (true: a made-up name). */
  worktree?: string | boolean;
}

type OutputFormat = "text" | "json" | "stream-json";

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
  /** Retries on 429, 5xx, connection errors, dropped and stalled streams (HX_MAX_RETRIES). */
  maxRetries: number;
  /** Longest wait for a response to begin (HX_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Longest silence inside a stream before it is retried (HX_STREAM_IDLE_TIMEOUT_MS). */
  streamIdleTimeoutMs: number;
  /** Longest `Retry-After` waited out (HX_RETRY_MAX_WAIT_MS). */
  maxRetryWaitMs: number;
  /** Largest model response read (HX_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
  /** `--sandbox` or HX_SANDBOX; undefined: settings decide. */
  sandboxMode?: SandboxMode;
}

const DEFAULT_PROVIDER = "deepseek";
const DEFAULT_MAX_TURNS = 50;
/** More retries than this is a typo, not a policy. */
const MAX_RETRIES_LIMIT = 100;
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
  if (!providerNames().includes(provider)) {
    // Settings values were checked against the same list when the files were read.
    const source = ["--provider", "HX_PROVIDER", "provider in settings"][providerLayer];
    throw new UsageError(`${source} must be one of ${providerNames().join(", ")} (got '${provider}').`);
  }
  const usable = (index: number) => providerLayer < 0 || index <= providerLayer;
  const model = layers.find((l, i) => l.model && usable(i))?.model;
  const baseURLLayer = layers.findIndex((l, i) => l.baseURL && usable(i));
  const baseURL = baseURLLayer >= 0 ? layers[baseURLLayer].baseURL : undefined;
  if (baseURL !== undefined && !/^https?:\/\/[^\s/]+/.test(baseURL)) {
    const source = ["--base-url", "HX_BASE_URL", "baseURL in settings"][baseURLLayer];
    throw new UsageError(
      `${source} must be an http(s) URL such as http://127.0.0.1:11434/v1 (got '${redactUrlPasswords(baseURL)}').`,
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
  const sandboxMode = flags.sandbox ?? (env.HX_SANDBOX || undefined);
  if (sandboxMode !== undefined && !isSandboxMode(sandboxMode)) {
    const source = flags.sandbox !== undefined ? "--sandbox" : "HX_SANDBOX";
    throw new UsageError(`${source} must be one of ${SANDBOX_MODES.join(", ")} (got '${sandboxMode}').`);
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
    ...resolveCallLimits(env),
    sandboxMode,
  };
}

/**
 * The bounds on each model call, from the environment. A value that is not a whole number in
 * range is a usage error naming the variable and the range; timers stop at 2^31−1 ms, the
 * longest delay Node can hold (a longer one would fire after 1 ms).
 */
function resolveCallLimits(env: NodeJS.ProcessEnv) {
  const d = CALL_LIMIT_DEFAULTS;
  return {
    maxRetries: parseBounded(env, "HX_MAX_RETRIES", d.maxRetries, 0, MAX_RETRIES_LIMIT),
    requestTimeoutMs: parseBounded(env, "HX_REQUEST_TIMEOUT_MS", d.requestTimeoutMs, 1, MAX_TIMER_MS),
    streamIdleTimeoutMs: parseBounded(
      env,
      "HX_STREAM_IDLE_TIMEOUT_MS",
      d.streamIdleTimeoutMs,
      1,
      MAX_TIMER_MS,
    ),
    maxRetryWaitMs: parseBounded(env, "HX_RETRY_MAX_WAIT_MS", d.maxRetryWaitMs, 0, MAX_TIMER_MS),
    maxResponseBytes: parseBounded(
      env,
      "HX_MAX_RESPONSE_BYTES",
      d.maxResponseBytes,
      1024,
      Number.MAX_SAFE_INTEGER,
    ),
  };
}

function parseBounded(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = env[name]?.trim();
  if (value === undefined || value === "") return fallback;
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max} (got '${value}').`);
  }
  return parsed;
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
