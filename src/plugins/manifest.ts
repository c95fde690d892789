import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { errorMessage } from "../core/error-message.js";

/** Where a plugin says what it is: Claude Code's manifest, or Codex's. */
const MANIFESTS = [".claude-plugin/plugin.json", ".codex-plugin/plugin.json"];

/** A plugin folder as hx reads it (Claude Code's layout; Codex's manifest works too). */
export interface PluginManifest {
  name: string;
  version?: string;
  description?: string;
  /** The manifest file read. */
  file: string;
  /** `hooks/hooks.json` or what the manifest names: the hooks in settings' shape, `{ Event: [...] }`. */
  hooks?: Record<string, unknown>;
  /** Skill folders (`skills/` or the manifest's `skills`). */
  skillDirs: string[];
  /** Claude Code slash commands (`commands/*.md`). */
  commandFiles: string[];
  /** Subagent definitions (`agents/*.md`): hx has no custom subagents, so they are listed only. */
  agentFiles: string[];
  /** `.mcp.json` or the manifest's `mcpServers`, `${CLAUDE_PLUGIN_ROOT}` not yet expanded. */
  mcpServers?: Record<string, unknown>;
}

export type ManifestRead = { ok: true; manifest: PluginManifest } | { ok: false; error: string };

/**
 * Reads a plugin folder: `.claude-plugin/plugin.json` (or `.codex-plugin/plugin.json`) for its
 * name, then its parts where Claude Code looks for them (`hooks/hooks.json`, `skills/`,
 * `commands/`, `agents/`, `.mcp.json`) or where the manifest points. Paths in the manifest are
 * relative to the plugin folder and must stay inside it.
 */
export function readPluginManifest(root: string): ManifestRead {
  const file = MANIFESTS.map((name) => path.join(root, name)).find((candidate) => existsSync(candidate));
  if (!file)
    return { ok: false, error: `${root} has no .claude-plugin/plugin.json (or .codex-plugin/plugin.json)` };
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return { ok: false, error: `${file} is not valid JSON (${errorMessage(error)})` };
  }
  const name = typeof json.name === "string" ? json.name.trim() : "";
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name))
    return {
      ok: false,
      error: `${file}: name must be letters, digits, '.', '_' or '-' (got ${JSON.stringify(json.name)})`,
    };
  const inside = (relative: unknown): string | undefined => {
    if (typeof relative !== "string") return undefined;
    const resolved = path.resolve(root, relative.replace(/^\$\{CLAUDE_PLUGIN_ROOT\}\/?/, ""));
    const rel = path.relative(root, resolved);
    return rel.startsWith("..") || path.isAbsolute(rel) ? undefined : resolved;
  };
  const list = (value: unknown, fallback: string): string[] => {
    const entries = Array.isArray(value) ? value : value === undefined ? [fallback] : [value];
    return entries.map(inside).filter((dir): dir is string => dir !== undefined && isDir(dir));
  };
  const markdownIn = (dirs: string[]) =>
    dirs.flatMap((dir) =>
      safeList(dir)
        .filter((entry) => entry.endsWith(".md"))
        .map((entry) => path.join(dir, entry)),
    );
  return {
    ok: true,
    manifest: {
      name,
      version: typeof json.version === "string" ? json.version : undefined,
      description: typeof json.description === "string" ? json.description : undefined,
      file,
      hooks: hooksOf(json.hooks, root, inside),
      // Its commands, written as skills at install (commands.ts), join its skills.
      skillDirs: [...list(json.skills, "skills"), ...list(undefined, ".hx-commands")],
      commandFiles: markdownIn(list(json.commands, "commands")),
      agentFiles: markdownIn(list(json.agents, "agents")),
      mcpServers: mcpOf(json.mcpServers, root, inside),
    },
  };
}

/** The hooks of a plugin: inline in the manifest, a file it names, or `hooks/hooks.json`. */
function hooksOf(
  value: unknown,
  root: string,
  inside: (relative: unknown) => string | undefined,
): Record<string, unknown> | undefined {
  // `{ "description", "hooks": { Event: [...] } }`, or the events at the top (older plugins).
  const hooks = section(inlineOrFile(value, path.join(root, "hooks", "hooks.json"), inside), "hooks");
  return hooks && Object.fromEntries(Object.entries(hooks).filter(([key]) => key !== "description"));
}

/** A plugin's MCP servers: the manifest's `mcpServers` (inline or a file) or `.mcp.json`. */
function mcpOf(
  value: unknown,
  root: string,
  inside: (relative: unknown) => string | undefined,
): Record<string, unknown> | undefined {
  return section(inlineOrFile(value, path.join(root, ".mcp.json"), inside), "mcpServers");
}

/** A manifest field given inline, as a file inside the plugin, or (absent) read from `fallback`. */
function inlineOrFile(
  value: unknown,
  fallback: string,
  inside: (relative: unknown) => string | undefined,
): unknown {
  if (value !== undefined && typeof value !== "string") return value;
  const file = value === undefined ? fallback : inside(value);
  return file && existsSync(file) ? readJson(file) : undefined;
}

/** `raw[key]` when present, else `raw` itself; undefined unless that is a plain object. */
function section(raw: unknown, key: string): Record<string, unknown> | undefined {
  if (!isObject(raw)) return undefined;
  const inner = raw[key] !== undefined ? raw[key] : raw;
  return isObject(inner) ? inner : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

function isDir(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** One plugin a marketplace lists: its name and where it is (a folder of the marketplace, or a repository). */
export interface MarketplaceEntry {
  name: string;
  /** `./path` inside the marketplace, or a git source (`owner/repo`, a URL). */
  source: { kind: "folder"; dir: string } | { kind: "git"; source: string; ref?: string };
}

/**
 * The plugins of `.claude-plugin/marketplace.json` in `root`, or undefined when there is none.
 * Sources: `"./path"`, `{ "source": "github", "repo": "owner/repo" }`, `{ "source": "url", "url" }`.
 */
export function readMarketplace(root: string): MarketplaceEntry[] | undefined {
  const file = path.join(root, ".claude-plugin", "marketplace.json");
  if (!existsSync(file)) return undefined;
  const json = readJson(file) as { plugins?: unknown } | undefined;
  if (!Array.isArray(json?.plugins)) return [];
  const entries: MarketplaceEntry[] = [];
  for (const plugin of json.plugins as Array<Record<string, unknown>>) {
    if (typeof plugin?.name !== "string") continue;
    const source = plugin.source;
    if (typeof source === "string") {
      const dir = path.resolve(root, source);
      const rel = path.relative(root, dir);
      if (!rel.startsWith("..") && !path.isAbsolute(rel))
        entries.push({ name: plugin.name, source: { kind: "folder", dir } });
    } else if (source && typeof source === "object") {
      const spec = source as Record<string, unknown>;
      const where = spec.source === "github" ? spec.repo : spec.url;
      const ref = typeof spec.ref === "string" ? spec.ref : undefined;
      if (typeof where === "string")
        entries.push({ name: plugin.name, source: { kind: "git", source: where, ref } });
    }
  }
  return entries;
}
