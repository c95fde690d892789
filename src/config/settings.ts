import os from "node:os";
import path from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import { errorMessage } from "../core/error-message.js";
import { foldersFromRootTo } from "../fs/project-root.js";
import { readSmallFileSync } from "../fs/regular-file.js";
import {
  type ClaudeKeys,
  claudeLocalSettingsPath,
  claudeProjectSettingsPath,
  readClaudeSettings,
  readClaudeUserMcp,
  userClaudeSettingsPath,
} from "./claude-settings.js";

/*
 * Finding, reading and layering settings files: `~/.hx/settings.json`, then `.hx/settings.json`
 * and `.hx/settings.local.json` of every folder from the repository root down, each beside
 * Claude Code's file of the same place. What the files may hold is not known here: a
 * `SettingsKind` says how to validate one file and how to merge them (src/settings/ composes
 * hx's from the features' fragments).
 */

/** A settings object before anyone names its keys. */
export type SettingsObject = object;

/** A file's parsed JSON checked: `settings` is undefined when it has errors (the run must not use it). */
export interface ValidatedSettings<S> {
  settings?: S;
  diagnostics: Diagnostic[];
}

/** What a kind of settings files holds: how one file is checked and how the layers merge. */
export interface SettingsKind<S extends SettingsObject> {
  /** Checks one file's parsed JSON; loads its validator (zod) only when there is a file. */
  validate(raw: unknown, file: string): Promise<ValidatedSettings<S>>;
  merge(layers: readonly S[]): S;
  /** The keys of Claude Code's files applied as hx's. */
  claude: ClaudeKeys;
}

/** A settings file larger than this is refused (10 MiB holds ~100,000 rules). */
export const MAX_SETTINGS_BYTES = 10 * 1024 * 1024;

export interface SettingsFile<S extends SettingsObject = SettingsObject> {
  path: string;
  scope: "user" | "project" | "local";
  settings: S;
  /** An approved plugin's parts (src/plugins): its hooks run with `CLAUDE_PLUGIN_ROOT` = `root`. */
  plugin?: { name: string; root: string };
  /** A Claude Code file (`.claude/settings.json`): only its shared keys apply (see claude-settings.ts). */
  claude?: {
    /** Its keys hx does not apply (`statusLine`, `permissions.additionalDirectories`), for `hx doctor`. */
    ignored: string[];
  };
}

export interface LoadedSettings<S extends SettingsObject = SettingsObject> {
  /** Layers merged: local > project > user for scalars; lists and hooks are concatenated. */
  merged: S;
  files: SettingsFile<S>[];
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
export async function loadSettings<S extends SettingsObject>(
  workDir: string,
  kind: SettingsKind<S>,
): Promise<LoadedSettings<S>> {
  const home = path.resolve(os.homedir());
  // Claude Code's files come first at each level, so hx's own win over them.
  type Candidate = Pick<SettingsFile<S>, "path" | "scope"> & { claude?: true };
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
  const files: SettingsFile<S>[] = [];
  const diagnostics: Diagnostic[] = [];
  const claudeMcp = readClaudeUserMcp(MAX_SETTINGS_BYTES, home);
  if (claudeMcp)
    files.push({
      path: claudeMcp.file,
      scope: "user",
      // As in Claude Code, not validated: each server is checked where MCP reads it (src/mcp).
      settings: claudeMcp.settings as S,
      claude: { ignored: [] },
    });
  for (const candidate of candidates) {
    const { claude, ...where } = candidate;
    const read: (ValidatedSettings<S> & { ignored?: string[] }) | undefined = claude
      ? await readClaudeSettingsFile(where.path, kind)
      : await readSettingsFile(where.path, kind.validate);
    if (read === undefined) continue;
    diagnostics.push(...read.diagnostics);
    if (!read.settings) continue;
    files.push({
      ...where,
      settings: read.settings,
      ...(read.ignored ? { claude: { ignored: read.ignored } } : {}),
    });
  }
  return { merged: kind.merge(files.map((f) => f.settings)), files, diagnostics };
}

/** A Claude Code settings file: its shared keys validated as hx settings; the rest listed. */
async function readClaudeSettingsFile<S extends SettingsObject>(
  file: string,
  kind: SettingsKind<S>,
): Promise<(ValidatedSettings<S> & { ignored: string[] }) | undefined> {
  const read = readClaudeSettings(file, MAX_SETTINGS_BYTES, kind.claude);
  if (read.kind === "missing") return undefined;
  if (read.kind === "problem") return { diagnostics: [read.diagnostic], ignored: [] };
  return { ...(await kind.validate(read.raw, file)), ignored: read.ignored };
}

/**
 * One settings file, read safely (never blocks on a FIFO, never reads more than
 * MAX_SETTINGS_BYTES) and validated. Undefined when the file does not exist; an empty file is
 * an empty object. `validate` (zod) is called only when there is a file to check.
 */
async function readSettingsFile<S extends SettingsObject>(
  file: string,
  validate: SettingsKind<S>["validate"],
): Promise<ValidatedSettings<S> | undefined> {
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
  if (read.text.trim() === "") return { settings: {} as S, diagnostics: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(read.text);
  } catch (error) {
    return problem("settings.json", `is not valid JSON (${errorMessage(error)}); fix the file.`);
  }
  return validate(raw, file);
}
