import { existsSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { errorMessage } from "../core/error-message.js";
import { writeFileAtomic } from "../fs/atomic-write.js";
import {
  computeSkillFolderHash,
  copyFolderInto,
  fetchSource,
  InstallError,
  resolveSource,
  type SkillSourceSpec,
  scriptsIn,
} from "../skills/install/index.js";
import { writeCommandSkills } from "./commands.js";
import { type PluginManifest, readMarketplace, readPluginManifest } from "./manifest.js";

/** `~/.hx/plugins`: one folder per installed plugin, and the lock naming each. */
export function pluginsDir(home = os.homedir()): string {
  return path.join(home, ".hx", "plugins");
}

export const PLUGINS_LOCK = "plugins-lock.json";

/** One installed plugin, as the lock records it. */
export interface LockedPlugin {
  version?: string;
  description?: string;
  /** What `hx plugin add` was given (a folder, a URL, `owner/repo`). */
  source: string;
  sourceType: "local" | "git" | "github";
  /** The marketplace entry it came from (`--plugin NAME`). */
  marketplacePlugin?: string;
  ref?: string;
  commit?: string;
  /** The installed folder's hash (the skills CLI's computeSkillFolderHash), pinned at install. */
  computedHash: string;
  installedAt: string;
  /** Set when the user approved this plugin's hooks and servers; for the files of `hash` only. */
  approved?: { hash: string; at: string };
}

export interface PluginsLock {
  version: 1;
  plugins: Record<string, LockedPlugin>;
}

export function readPluginsLock(dir = pluginsDir()): PluginsLock {
  const file = path.join(dir, PLUGINS_LOCK);
  if (!existsSync(file)) return { version: 1, plugins: {} };
  try {
    const json = JSON.parse(readFileSync(file, "utf8")) as PluginsLock;
    if (json && typeof json.plugins === "object" && json.plugins !== null)
      return { version: 1, plugins: json.plugins };
  } catch (error) {
    throw new InstallError(`${file} is not valid JSON (${errorMessage(error)}); fix or remove it`);
  }
  return { version: 1, plugins: {} };
}

async function writePluginsLock(dir: string, lock: PluginsLock): Promise<void> {
  const plugins = Object.fromEntries(Object.entries(lock.plugins).sort(([a], [b]) => (a < b ? -1 : 1)));
  const target = path.join(realpathSync(dir), PLUGINS_LOCK);
  await writeFileAtomic(target, `${JSON.stringify({ version: 1, plugins }, null, 2)}\n`, {
    allowed: () => true,
  });
}

/** What `hx plugin add` did. */
export interface AddedPlugin {
  name: string;
  dir: string;
  manifest: PluginManifest;
  entry: LockedPlugin;
  /** Files that could run: worth a review before approving. */
  scripts: string[];
  skippedLinks: string[];
}

/**
 * `hx plugin add SOURCE`: fetches the source (a folder, a git URL, `owner/repo`), picks the
 * plugin (the folder itself, or `plugin` of its `.claude-plugin/marketplace.json`), copies it
 * to `~/.hx/plugins/<name>` and records it, hash pinned, in the lock. Not approved yet: its
 * hooks and servers run only after `approvePlugin`.
 */
export async function addPlugin(options: {
  source: string;
  cwd: string;
  plugin?: string;
  ref?: string;
  dir?: string;
}): Promise<AddedPlugin> {
  const spec = resolveSource(options.source, options.cwd);
  if (!spec)
    throw new InstallError(
      `'${options.source}' is not a folder, a git URL or owner/repo (e.g. ./my-plugin, https://host/repo.git, owner/repo)`,
      true,
    );
  const store = options.dir ?? pluginsDir();
  const fetched = await fetchSource(spec, options.ref);
  const cleanups = [fetched.dispose];
  try {
    let root = fetched.dir;
    let commit = fetched.ref;
    let origin: { spec: SkillSourceSpec; source: string; ref?: string } = {
      spec,
      source: options.source,
      ref: options.ref,
    };
    const market = readMarketplace(root);
    const entry = market && pickEntry(market, options.plugin, readPluginManifest(root).ok, options.source);
    if (entry?.source.kind === "folder") root = entry.source.dir;
    else if (entry?.source.kind === "git") {
      const inner = resolveSource(entry.source.source, options.cwd);
      if (!inner)
        throw new InstallError(
          `marketplace entry ${entry.name}: '${entry.source.source}' is not a git source`,
        );
      const second = await fetchSource(inner, entry.source.ref);
      cleanups.push(second.dispose);
      root = second.dir;
      commit = second.ref;
      origin = { spec: inner, source: entry.source.source, ref: entry.source.ref };
    }
    const read = readPluginManifest(root);
    if (!read.ok) throw new InstallError(read.error);
    const { manifest } = read;
    const destination = path.join(store, manifest.name);
    const lock = readPluginsLock(store);
    if (existsSync(destination) && !lock.plugins[manifest.name])
      throw new InstallError(`${destination} exists and was not installed by hx plugin add; remove it first`);
    const { skippedLinks } = copyFolderInto(root, destination);
    const copied = readPluginManifest(destination);
    if (!copied.ok) throw new InstallError(copied.error);
    writeCommandSkills(destination, copied.manifest.commandFiles);
    // Read again: the commands written as skills are part of it now.
    const installed = readPluginManifest(destination);
    if (!installed.ok) throw new InstallError(installed.error);
    const locked: LockedPlugin = {
      ...(manifest.version ? { version: manifest.version } : {}),
      ...(manifest.description ? { description: manifest.description } : {}),
      source: origin.spec.type === "local" ? origin.spec.dir : (origin.spec.github ?? origin.spec.url),
      sourceType: origin.spec.type === "local" ? "local" : origin.spec.github ? "github" : "git",
      ...(entry ? { marketplacePlugin: entry.name } : {}),
      ...(origin.ref ? { ref: origin.ref } : {}),
      ...(commit ? { commit } : {}),
      computedHash: computeSkillFolderHash(destination),
      installedAt: new Date().toISOString(),
    };
    lock.plugins[manifest.name] = locked;
    await writePluginsLock(store, lock);
    return {
      name: manifest.name,
      dir: destination,
      manifest: installed.manifest,
      entry: locked,
      scripts: scriptsIn(destination),
      skippedLinks,
    };
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
}

function pickEntry(
  market: ReturnType<typeof readMarketplace> & object,
  wanted: string | undefined,
  rootIsPlugin: boolean,
  source: string,
) {
  if (wanted) {
    const found = market.find((entry) => entry.name === wanted);
    if (!found)
      throw new InstallError(
        `${source} has no plugin '${wanted}' in its marketplace (it has: ${market.map((e) => e.name).join(", ") || "none"})`,
        true,
      );
    return found;
  }
  if (rootIsPlugin) return undefined;
  if (market.length === 1) return market[0];
  throw new InstallError(
    `${source} is a marketplace of ${market.length} plugins; name one with --plugin (${market.map((e) => e.name).join(", ")})`,
    true,
  );
}

/** Records the user's approval of a plugin's hooks and servers, for its files as they are now. */
export async function approvePlugin(name: string, dir = pluginsDir()): Promise<LockedPlugin> {
  const lock = readPluginsLock(dir);
  const entry = lock.plugins[name];
  if (!entry)
    throw new InstallError(`no plugin named ${name} is installed (hx plugin list shows them)`, true);
  entry.approved = { hash: computeSkillFolderHash(path.join(dir, name)), at: new Date().toISOString() };
  await writePluginsLock(dir, lock);
  return entry;
}

/** `hx plugin remove NAME`: its folder and its lock entry. */
export async function removePlugin(name: string, dir = pluginsDir()): Promise<void> {
  const lock = readPluginsLock(dir);
  if (!lock.plugins[name])
    throw new InstallError(`no plugin named ${name} is installed (hx plugin list shows them)`, true);
  rmSync(path.join(dir, name), { recursive: true, force: true });
  delete lock.plugins[name];
  await writePluginsLock(dir, lock);
}
