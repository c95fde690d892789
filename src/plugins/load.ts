import { existsSync } from "node:fs";
import path from "node:path";
import { type LoadedSettings, mergeSettings, type Settings, type SettingsFile } from "../settings/index.js";
import { computeSkillFolderHash } from "../skills/install/index.js";
import { readPluginManifest } from "./manifest.js";
import { PLUGINS_LOCK, pluginsDir, readPluginsLock } from "./store.js";

/** How a plugin's files name its folder (`${CLAUDE_PLUGIN_ROOT}/server.js`). */
const PLUGIN_ROOT_REFERENCE = ["$", "{CLAUDE_PLUGIN_ROOT}"].join("");

/**
 * The approved plugins as settings layers (their skills, MCP servers and hooks), put in front
 * of the user's own files (so the user's settings win a name clash), each file marked with its
 * plugin so its hooks run with `CLAUDE_PLUGIN_ROOT` set (hooks-setup). A plugin that is not
 * approved, or whose files changed since it was approved, adds nothing and is a warning.
 */
export function withPlugins<T extends LoadedSettings>(
  loaded: T,
  warn: (line: string) => void,
  dir = pluginsDir(),
): T {
  if (!existsSync(path.join(dir, PLUGINS_LOCK))) return loaded;
  let lock: ReturnType<typeof readPluginsLock>;
  try {
    lock = readPluginsLock(dir);
  } catch (error) {
    warn(`warning: plugins: ${(error as Error).message}; no plugin is loaded.`);
    return loaded;
  }
  const files: SettingsFile[] = [];
  for (const [name, entry] of Object.entries(lock.plugins)) {
    const root = path.join(dir, name);
    const read = existsSync(root) ? readPluginManifest(root) : undefined;
    if (!read?.ok) {
      warn(`warning: plugin ${name}: ${read ? read.error : `${root} is missing`}; run hx plugin add again.`);
      continue;
    }
    if (!entry.approved) {
      warn(
        `warning: plugin ${name} is installed but not approved, so its hooks and servers do not run: hx plugin approve ${name}`,
      );
      continue;
    }
    if (computeSkillFolderHash(root) !== entry.approved.hash) {
      warn(
        `warning: plugin ${name} changed since you approved it (${root}), so it is not loaded: review it, then hx plugin approve ${name}`,
      );
      continue;
    }
    const { manifest } = read;
    const expand = (value: unknown) =>
      JSON.parse(JSON.stringify(value).replaceAll(PLUGIN_ROOT_REFERENCE, root.replaceAll("\\", "\\\\")));
    const settings: Settings = {
      ...(manifest.hooks ? { hooks: manifest.hooks as Settings["hooks"] } : {}),
      ...(manifest.skillDirs.length > 0 ? { skills: { paths: manifest.skillDirs } } : {}),
      ...(manifest.mcpServers ? { mcpServers: expand(manifest.mcpServers) as Settings["mcpServers"] } : {}),
    };
    files.push({ path: manifest.file, scope: "user", settings, plugin: { name, root } });
  }
  if (files.length === 0) return loaded;
  const withoutHooks = files.map(({ settings: { hooks: _hooks, ...rest } }) => rest);
  return {
    ...loaded,
    files: [...files, ...loaded.files],
    merged: mergeSettings([...withoutHooks, loaded.merged]),
  };
}
