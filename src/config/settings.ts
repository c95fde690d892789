import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { foldersFromRootTo } from "./project-root.js";

/** A command hook as Claude Code users write it. */
export interface CommandHook {
  type: "command";
  command: string;
  /** Seconds; default 60. */
  timeout?: number;
}

export interface HookMatcher {
  /** A tool name, `*`, or alternatives `write_file|edit_file`. Empty or missing = every tool. */
  matcher?: string;
  hooks: CommandHook[];
}

export interface PermissionSettings {
  defaultMode?: string;
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

export interface SkillSettings {
  /** Extra folders to search for skills. */
  paths?: string[];
  /** Catalog budget as a share of the context window (0.02 = 2%), or an absolute char count. */
  catalogBudget?: number;
}

/** What `.hx/settings.json` (project) and `~/.hx/settings.json` (user) may hold. */
export interface Settings {
  provider?: string;
  model?: string;
  baseURL?: string;
  maxTurns?: number;
  thinking?: boolean;
  contextWindow?: number;
  verbose?: boolean;
  /** Print the seed's `[HOOK] ...` lines (also on with --verbose). */
  logHooks?: boolean;
  permissions?: PermissionSettings;
  hooks?: Record<string, HookMatcher[]>;
  skills?: SkillSettings;
}

export interface SettingsFile {
  path: string;
  scope: "user" | "project" | "local";
  settings: Settings;
}

export interface LoadedSettings {
  /** Layers merged: local > project > user for scalars; lists and hooks are concatenated. */
  merged: Settings;
  files: SettingsFile[];
  /** Problems found (unreadable JSON); reported, never fatal. */
  warnings: string[];
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
export function loadSettings(workDir: string): LoadedSettings {
  const home = path.resolve(os.homedir());
  const candidates: Array<Pick<SettingsFile, "path" | "scope">> = [
    { path: path.join(userSettingsDir(), "settings.json"), scope: "user" },
  ];
  for (const folder of foldersFromRootTo(workDir)) {
    if (folder === home) continue;
    candidates.push({ path: projectSettingsPath(folder), scope: "project" });
    candidates.push({ path: localSettingsPath(folder), scope: "local" });
  }
  const files: SettingsFile[] = [];
  const warnings: string[] = [];
  for (const candidate of candidates) {
    let text: string;
    try {
      text = readFileSync(candidate.path, "utf8");
    } catch {
      continue;
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        warnings.push(`${candidate.path}: expected a JSON object; ignored.`);
        continue;
      }
      files.push({ ...candidate, settings: parsed as Settings });
    } catch (error) {
      warnings.push(`${candidate.path}: invalid JSON (${(error as Error).message}); ignored. Fix the file.`);
    }
  }
  return { merged: mergeSettings(files.map((f) => f.settings)), files, warnings };
}

/** Later layers win for scalars; permission lists, hooks and skill paths accumulate. */
export function mergeSettings(layers: Settings[]): Settings {
  const merged: Settings = {};
  for (const layer of layers) {
    const { permissions, hooks, skills, ...scalars } = layer;
    Object.assign(merged, scalars);
    if (permissions) {
      const current = merged.permissions ?? {};
      merged.permissions = {
        defaultMode: permissions.defaultMode ?? current.defaultMode,
        allow: [...(current.allow ?? []), ...(permissions.allow ?? [])],
        ask: [...(current.ask ?? []), ...(permissions.ask ?? [])],
        deny: [...(current.deny ?? []), ...(permissions.deny ?? [])],
      };
    }
    if (hooks) {
      const current = merged.hooks ?? {};
      for (const [event, matchers] of Object.entries(hooks)) {
        if (Array.isArray(matchers)) current[event] = [...(current[event] ?? []), ...matchers];
      }
      merged.hooks = current;
    }
    if (skills) {
      merged.skills = {
        catalogBudget: skills.catalogBudget ?? merged.skills?.catalogBudget,
        paths: [...(merged.skills?.paths ?? []), ...(skills.paths ?? [])],
      };
    }
  }
  return merged;
}
