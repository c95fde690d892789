/**
 * hx's settings, composed from the features' fragments: the full type (`Settings`, from
 * ./schema.ts), how files layer (each key's merge rule, written beside its schema), which keys of
 * Claude Code's files apply, and loading them all (src/config/ finds and reads the files).
 * zod stays unloaded until a file is checked (./validate.ts).
 */
import { type MergeRules, mergeLayers, mergeRecords } from "../config/merge.js";
import {
  type LoadedSettings as LoadedSettingsOf,
  loadSettings as loadSettingsOf,
  type SettingsFile as SettingsFileOf,
  type SettingsKind,
  type ValidatedSettings,
} from "../config/settings.js";
import { mergeHookSettings } from "../hooks/index.js";
import { mergeMcpSettings } from "../mcp/index.js";
import { claudePermissionSettings, mergePermissionSettings } from "../permissions/index.js";
import { mergeSandboxSettings } from "../sandbox/index.js";
import { mergeEnvSettings, mergeShellSettings } from "../secrets/settings.js";
import { mergeSkillSettings } from "../skills/index.js";
import type { Settings } from "./schema.js";

export type { Settings } from "./schema.js";
export type LoadedSettings = LoadedSettingsOf<Settings>;
export type SettingsFile = SettingsFileOf<Settings>;

/** Keys whose files combine; every other key takes the nearest file's value. */
const MERGE_RULES: MergeRules<Settings> = {
  env: mergeEnvSettings,
  // Prices add up per model; a nearer file's price for the same model wins.
  prices: mergeRecords,
  mcp: mergeMcpSettings,
  permissions: mergePermissionSettings,
  hooks: mergeHookSettings,
  sandbox: mergeSandboxSettings,
  shell: mergeShellSettings,
  skills: mergeSkillSettings,
};

/** Later layers win for scalars; permission lists, hooks and skill paths accumulate. */
export function mergeSettings(layers: readonly Settings[]): Settings {
  return mergeLayers(layers, MERGE_RULES);
}

async function validate(raw: unknown, file: string): Promise<ValidatedSettings<Settings>> {
  const { validateSettings } = await import("./validate.js");
  return validateSettings(raw, file);
}

/** hx's settings files: checked against the composed schema, merged by the features' rules. */
const HX_SETTINGS: SettingsKind<Settings> = {
  validate,
  merge: mergeSettings,
  claude: {
    // The keys of a Claude Code settings file hx applies, each as hx's key of the same meaning.
    shared: [
      "hooks",
      "permissions",
      "env",
      "mcpServers",
      "enableAllProjectMcpServers",
      "enabledMcpjsonServers",
      "disabledMcpjsonServers",
    ],
    adapt: { permissions: claudePermissionSettings },
  },
};

/**
 * Reads the user file, then the project files of every folder from the repository root down
 * to `workDir` (nearer files win for single values), each beside Claude Code's file.
 */
export function loadSettings(workDir: string): Promise<LoadedSettings> {
  return loadSettingsOf(workDir, HX_SETTINGS);
}
