import os from "node:os";
import path from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import { errorMessage } from "../core/error-message.js";
import { foldersFromRootTo } from "../fs/project-root.js";
import { readSmallFileSync } from "../fs/regular-file.js";
import {
  claudeLocalSettingsPath,
  claudeProjectSettingsPath,
  readClaudeSettings,
  readClaudeUserMcp,
  userClaudeSettingsPath,
} from "./claude-settings.js";
import type { HookSettings, Settings } from "./settings-schema.js";

export type {
  HookMatcher,
  McpSettings,
  PermissionSettings,
  Settings,
} from "./settings-schema.js";

/** A settings file larger than this is refused (10 MiB holds ~100,000 rules). */
export const MAX_SETTINGS_BYTES = 10 * 1024 * 1024;

export interface SettingsFile {
  path: string;
  scope: "user" | "project" | "local";
  settings: Settings;
  /** An approved plugin's parts (src/plugins): its hooks run with `CLAUDE_PLUGIN_ROOT` = `root`. */
  plugin?: { name: string; root: string };
  /** A Claude Code file (`.claude/settings.json`): only its shared keys apply (see claude-settings.ts). */
  claude?: {
    /** Its keys hx does not apply (`statusLine`, `permissions.additionalDirectories`), for `hx doctor`. */
    ignored: string[];
  };
}

export interface LoadedSettings {
  /** Layers merged: local > project > user for scalars; lists and hooks are concatenated. */
  merged: Settings;
  files: SettingsFile[];
  /**
   * Problems found, in file order. Errors (a wrong type, invalid JSON, a file that is not a
   * regular file or too large) mean a file could not be read whole: the CLI stops (exit 2)
   * rather than run with fewer rules than the user wrote. Warnings (an unknown key) are shown.
   */
  diagnostics: Diagnostic[];
}

export function userSettingsDir(): string {
  return path.join(os.homedir(), ".hx");
}

export function projectSettingsPath(root: string): string {
  return path.join(root, ".hx", "settings.json");
}

/** Where "always allow" answers are saved: per project, not committed. */
export function localSettingsPath(root: string): string {
  return path.join(root, ".hx", "settings.local.json");
}

/**
 * Reads the user file, then the project files of every folder from the repository root down
 * to `workDir` (so running in a subfolder keeps the root's rules; nearer files win for single
 * values). `~/.hx` is read once, as the user file, even when home is inside a repository.
 */
export async function loadSettings(workDir: string): Promise<LoadedSettings> {
  const home = path.resolve(os.homedir());
  // Claude Code's files come first at each level, so hx's own win over them.
  type Candidate = Pick<SettingsFile, "path" | "scope"> & { claude?: true };
  const candidates: Candidate[] = [
    { path: userClaudeSettingsPath(home), scope: "user", claude: true },
    { path: path.join(userSettingsDir(), "settings.json"), scope: "user" },
  ];
  for (const folder of foldersFromRootTo(workDir)) {
    if (folder === home) continue;
    candidates.push({ path: claudeProjectSettingsPath(folder), scope: "project", claude: true });
    candidates.push({ path: claudeLocalSettingsPath(folder), scope: "local", claude: true });
    candidates.push({ path: projectSettingsPath(folder), scope: "project" });
    candidates.push({ path: localSettingsPath(folder), scope: "local" });
  }
  const files: SettingsFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const claudeMcp = readClaudeUserMcp(MAX_SETTINGS_BYTES, home);
  if (claudeMcp)
    files.push({
      path: claudeMcp.file,
      scope: "user",
      settings: claudeMcp.settings,
      claude: { ignored: [] },
    });
  for (const candidate of candidates) {
    const { claude, ...where } = candidate;
    const read: { settings?: Settings; diagnostics: Diagnostic[]; ignored?: string[] } | undefined = claude
      ? await readClaudeSettingsFile(where.path)
      : await readSettingsFile(where.path);
    if (read === undefined) continue;
    diagnostics.push(...read.diagnostics);
    if (!read.settings) continue;
    files.push({
      ...where,
      settings: read.settings,
      ...(read.ignored ? { claude: { ignored: read.ignored } } : {}),
    });
  }
  return { merged: mergeSettings(files.map((f) => f.settings)), files, diagnostics };
}

/** A Claude Code settings file: its shared keys validated as hx settings; the rest listed. */
async function readClaudeSettingsFile(
  file: string,
): Promise<{ settings?: Settings; diagnostics: Diagnostic[]; ignored: string[] } | undefined> {
  const read = readClaudeSettings(file, MAX_SETTINGS_BYTES);
  if (read.kind === "missing") return undefined;
  if (read.kind === "problem") return { diagnostics: [read.diagnostic], ignored: [] };
  const { validateSettings } = await import("./validate-settings.js");
  return { ...validateSettings(read.raw, file), ignored: read.ignored };
}

/**
 * One settings file, read safely (never blocks on a FIFO, never reads more than
 * MAX_SETTINGS_BYTES) and validated. Undefined when the file does not exist; an empty file is
 * an empty object. The validator (zod) is loaded only when there is a file to check.
 */
async function readSettingsFile(
  file: string,
): Promise<{ settings?: Settings; diagnostics: Diagnostic[] } | undefined> {
  const read = readSmallFileSync(file, MAX_SETTINGS_BYTES);
  const problem = (code: string, message: string) => ({
    diagnostics: [{ level: "error" as const, code, file, message }],
  });
  if (!read.ok) {
    if (read.reason === "missing") return undefined;
    const fix = {
      "not-a-file": "hx reads settings only from a regular file",
      "too-large": "keep it under the limit",
      unreadable: "check its permissions",
      outside: "hx reads settings only from files inside their folder",
    }[read.reason];
    return problem(`settings.${read.reason}`, `${read.message}; ${fix}.`);
  }
  if (read.text.trim() === "") return { settings: {}, diagnostics: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(read.text);
  } catch (error) {
    return problem("settings.json", `is not valid JSON (${errorMessage(error)}); fix the file.`);
  }
  const { validateSettings } = await import("./validate-settings.js");
  return validateSettings(raw, file);
}

/** Later layers win for scalars; permission lists, hooks and skill paths accumulate. */
export function mergeSettings(layers: Settings[]): Settings {
  const merged: Settings = {};
  for (const layer of layers) {
    const { permissions, hooks, skills, sandbox, shell, prices, mcp, env, ...scalars } = layer;
    Object.assign(merged, scalars);
    // Variables add up; a nearer file's value for the same variable wins.
    if (env) merged.env = { ...merged.env, ...env };
    // Prices add up per model; a nearer file's price for the same model wins.
    if (prices) merged.prices = { ...merged.prices, ...prices };
    if (mcp) merged.mcp = { ...merged.mcp, ...mcp };
    if (permissions) {
      const current = merged.permissions ?? {};
      merged.permissions = {
        defaultMode: permissions.defaultMode ?? current.defaultMode,
        readOnlyCommands: permissions.readOnlyCommands ?? current.readOnlyCommands,
        allow: [...(current.allow ?? []), ...(permissions.allow ?? [])],
        ask: [...(current.ask ?? []), ...(permissions.ask ?? [])],
        deny: [...(current.deny ?? []), ...(permissions.deny ?? [])],
      };
    }
    if (hooks) {
      const current = merged.hooks ?? {};
      for (const event of Object.keys(hooks) as Array<keyof HookSettings>) {
        const matchers = hooks[event];
        if (matchers) current[event] = [...(current[event] ?? []), ...matchers];
      }
      merged.hooks = current;
    }
    if (sandbox) {
      // Single values: nearer wins; writable folders add up; `required` once set stays set.
      const current = merged.sandbox ?? {};
      merged.sandbox = {
        mode: sandbox.mode ?? current.mode,
        network: sandbox.network ?? current.network,
        writablePaths: [...(current.writablePaths ?? []), ...(sandbox.writablePaths ?? [])],
        required:
          current.required === true || sandbox.required === true
            ? true
            : (sandbox.required ?? current.required),
      };
    }
    if (shell?.env?.passthrough) {
      merged.shell = {
        env: { passthrough: [...(merged.shell?.env?.passthrough ?? []), ...shell.env.passthrough] },
      };
    }
    if (skills) {
      merged.skills = {
        catalogBudget: skills.catalogBudget ?? merged.skills?.catalogBudget,
        watch: skills.watch ?? merged.skills?.watch,
        paths: [...(merged.skills?.paths ?? []), ...(skills.paths ?? [])],
      };
    }
  }
  return merged;
}
