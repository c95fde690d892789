import { existsSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isatty } from "node:tty";
import { type Diagnostic, formatDiagnostic } from "../core/diagnostic.js";
import { startMcp } from "../mcp/index.js";
import type { McpSetup } from "../mcp/launch.js";
import { resolveContextWindow } from "../providers/context-windows.js";
import type { ModelProvider } from "../providers/provider.js";
import { createProvider, defaultModelFor } from "../providers/registry.js";
import type { LoadedSettings } from "../settings/index.js";
import {
  loadTrustedSettings,
  type TrustedSettings,
  trustProblemNotice,
  untrustedNotice,
} from "../trust/index.js";
import { type RunConfig, type RunFlags, resolveRunConfig, UsageError } from "./run-config.js";
import { VERSION } from "./version.js";
import { enterWorktree } from "./worktree-run.js";

export interface PreparedRun {
  cwd: string;
  config: RunConfig;
  /** Folder trust applied: an untrusted folder's project files only restrict (src/trust). */
  settings: TrustedSettings;
  /** The model that will answer: --model, or the provider's default. */
  model: string;
  /**
   * Its context window: --context-window > HX_CONTEXT_WINDOW > settings > the model table >
   * DEFAULT_CONTEXT_WINDOW (the skills catalog then asks the server, see setUpSkills).
   */
  contextWindow: number;
  /** False when the window is the default guess: nobody set it, the table and server do not know. */
  contextWindowKnown: boolean;
  provider: ModelProvider;
  /** MCP servers, started before the provider is loaded so they boot meanwhile. */
  mcp?: McpSetup;
}

/**
 * Resolves the working folder, settings, configuration, model and context window — the one
 * place that reads them, so a session, `hx context` and `hx skills` agree. Throws UsageError
 * on bad input; warnings (a broken settings file, a bad window value) are reported at once.
 */
export async function resolveRun(
  flags: RunFlags,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  options: { quietTrust?: boolean } = {},
): Promise<Omit<PreparedRun, "provider">> {
  const cwd = flags.worktree
    ? enterWorktree(resolveCwd(flags.cwd), flags.worktree, warn)
    : resolveCwd(flags.cwd);
  const settings = await withApprovedPlugins(
    await loadTrustedSettings(cwd, { trustFlag: flags.trust }),
    warn,
  );
  reportSettingsProblems(settings.diagnostics, cwd, warn);
  // The interactive session asks first and says it itself (`quietTrust`).
  if (!options.quietTrust) reportTrust(settings, cwd, warn);
  const config = resolveRunConfig(flags, process.env, settings.merged);
  const model = config.model || defaultModelFor(config.provider);
  const window = contextWindowFor(model, config, settings);
  return {
    cwd,
    settings,
    config,
    model,
    contextWindow: window.tokens,
    contextWindowKnown: window.source !== "default",
  };
}

/**
 * The context window of `model`: the flag, HX_CONTEXT_WINDOW or the settings when set (they
 * win for any model), else the model's own. Throws UsageError on a bad value.
 */
export function contextWindowFor(
  model: string,
  config: Pick<PreparedRun["config"], "contextWindowFlag">,
  settings: LoadedSettings,
): { tokens: number; source: string } {
  const window = resolveContextWindow({
    model,
    flag: config.contextWindowFlag,
    env: process.env.HX_CONTEXT_WINDOW,
    settings: settings.merged.contextWindow,
  });
  if (window.errors.length > 0) throw new UsageError(window.errors.join("\nhx: "));
  return window;
}

/** Creates the model provider; a missing key or unknown provider throws a ProviderError. */
export async function prepareRun(flags: RunFlags): Promise<PreparedRun> {
  const resolved = await resolveRun(flags);
  // MCP servers start before the provider's SDK loads, so they boot meanwhile.
  const mcp = await startMcp({
    cwd: resolved.cwd,
    settings: resolved.settings,
    contextWindow: resolved.contextWindow,
    configFiles: flags.mcpConfig,
    strictConfig: flags.strictMcpConfig,
    clientVersion: VERSION,
    log: (line) => process.stderr.write(`${line}\n`),
    verbose: resolved.config.verbose,
    sandboxMode: resolved.config.sandboxMode,
    interactive: isatty(0) && isatty(2),
  });
  return { ...(await withProvider(resolved)), mcp };
}

/** Adds the provider to a resolved run (loading its SDK): the slow part of preparing one. */
export async function withProvider(resolved: Omit<PreparedRun, "provider">): Promise<PreparedRun> {
  const { config } = resolved;
  const provider = await createProvider({
    provider: config.provider,
    model: resolved.model,
    baseURL: config.baseURL,
    thinking: config.thinking,
    script: config.script ? path.resolve(config.script) : undefined,
    timeoutMs: config.requestTimeoutMs,
    maxRetries: config.maxRetries,
    streamIdleTimeoutMs: config.streamIdleTimeoutMs,
    maxRetryWaitMs: config.maxRetryWaitMs,
    maxResponseBytes: config.maxResponseBytes,
  });
  return { ...resolved, provider };
}

/** Approved plugins' skills, servers and hooks; the plugin module loads only when plugins are installed. */
export async function withApprovedPlugins(
  settings: TrustedSettings,
  warn: (line: string) => void,
): Promise<TrustedSettings> {
  if (!existsSync(path.join(os.homedir(), ".hx", "plugins", "plugins-lock.json"))) return settings;
  const { withPlugins } = await import("../plugins/load.js");
  return withPlugins(settings, warn);
}

/** The broken trust file and what an untrusted folder's settings did not get: one line each. */
export function reportTrust(settings: TrustedSettings, cwd: string, warn: (line: string) => void): void {
  const problem = trustProblemNotice(settings.trust);
  if (problem) warn(problem);
  const notice = untrustedNotice(settings, cwd);
  if (notice) warn(`warning: ${notice}`);
}

/**
 * Shows every settings warning; settings errors are shown too and then stop the run (exit 2):
 * a file hx could not read whole may hold deny rules or hooks, and hx never runs with less
 * protection than the user wrote.
 */
export function reportSettingsProblems(
  diagnostics: Diagnostic[],
  cwd: string,
  warn: (line: string) => void,
): void {
  const shown = (d: Diagnostic) => formatDiagnostic({ ...d, file: d.file && displayPath(d.file, cwd) });
  for (const d of diagnostics) if (d.level === "warning") warn(`warning: ${shown(d)}`);
  const errors = diagnostics.filter((d) => d.level === "error");
  if (errors.length === 0) return;
  throw new UsageError(
    [
      ...errors.map(shown),
      `${errors.length === 1 ? "This settings problem stops" : "These settings problems stop"} the run: fix the file${errors.length === 1 ? "" : "s"} (hx does not run with settings it cannot read, so no rule or hook is silently lost).`,
    ].join("\nhx: "),
  );
}

/** A path as the user would type it here: relative inside `cwd`, `~/...` inside home. */
function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  if (relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)) return relative;
  const home = os.homedir();
  const fromHome = path.relative(home, file);
  if (!fromHome.startsWith("..") && !path.isAbsolute(fromHome)) return path.join("~", fromHome);
  return file;
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
