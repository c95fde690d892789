import { readFileSync } from "node:fs";
import path from "node:path";
import type { LoadedSettings } from "../config/settings.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { foldersFromRootTo } from "../fs/project-root.js";
import type { McpScope, McpServerDefinition } from "./config.js";
import type { McpSettingsFragment } from "./settings.js";

/** Claude Code's project file. */
export const MCP_JSON = ".mcp.json";

/**
 * What the user (never the repository) said about project servers: Claude Code's settings
 * keys, honoured from `~/.hx/settings.json` only, so a repository cannot approve itself.
 */
export interface McpTrust {
  /** `enableAllProjectMcpServers`: every project server starts without asking. */
  allProjectServers: boolean;
  /** `enabledMcpjsonServers`: these project servers start without asking. */
  enabled: string[];
  /** `disabledMcpjsonServers` (from any settings file: turning off is always safe). */
  disabled: string[];
}

export interface McpConfiguration {
  /** One definition per name, the highest-precedence one (flag > local > project > user). */
  servers: McpServerDefinition[];
  diagnostics: Diagnostic[];
  trust: McpTrust;
}

export interface McpSourceOptions {
  cwd: string;
  settings: LoadedSettings<McpSettingsFragment>;
  /** `--mcp-config FILE` (repeatable): the user's own, started without asking. */
  configFiles?: string[];
  /** `--strict-mcp-config`: only the --mcp-config files count. */
  strict?: boolean;
  /** Called as soon as some file names servers, before their entries are checked. */
  onServersNamed?: () => void;
}

const PRECEDENCE: Record<McpScope, number> = { user: 0, project: 1, local: 2, flag: 3 };

/**
 * Every configured MCP server: `mcpServers` of the user settings, `.mcp.json` and the
 * `mcpServers` of `.hx/settings.json` / `.hx/settings.local.json` in each folder from the
 * repository root down to `cwd` (nearer ones win), and `--mcp-config` files. The entries'
 * checker (zod) is loaded only when some file names servers.
 */
export async function loadMcpConfiguration(options: McpSourceOptions): Promise<McpConfiguration> {
  const diagnostics: Diagnostic[] = [];
  const entries: Array<{ raw: unknown; file: string; scope: McpScope }> = [];
  const add = (raw: unknown, file: string, scope: McpScope) => void entries.push({ raw, file, scope });

  for (const file of options.configFiles ?? []) {
    const json = readJsonObject(path.resolve(options.cwd, file), diagnostics, true);
    if (json) add(json.mcpServers, path.resolve(options.cwd, file), "flag");
  }
  if (!options.strict) {
    for (const settingsFile of options.settings.files) {
      if (settingsFile.settings.mcpServers === undefined) continue;
      add(settingsFile.settings.mcpServers, settingsFile.path, settingsFile.scope);
    }
    for (const folder of foldersFromRootTo(options.cwd)) {
      const file = path.join(folder, MCP_JSON);
      const json = readJsonObject(file, diagnostics, false);
      if (json) add(json.mcpServers, file, "project");
    }
  }

  const found: McpServerDefinition[] = [];
  if (entries.length > 0) {
    options.onServersNamed?.();
    const { parseServerEntries } = await import("./config.js");
    for (const { raw, file, scope } of entries) {
      const parsed = parseServerEntries(raw, { file, scope });
      found.push(...parsed.servers);
      diagnostics.push(...parsed.diagnostics);
    }
  }
  // Highest precedence wins; among equals, the later (nearer) one.
  const byName = new Map<string, McpServerDefinition>();
  for (const server of found) {
    const current = byName.get(server.name);
    if (!current || PRECEDENCE[server.scope] >= PRECEDENCE[current.scope]) byName.set(server.name, server);
  }
  return { servers: [...byName.values()], diagnostics, trust: trustFrom(options.settings) };
}

function trustFrom(settings: LoadedSettings<McpSettingsFragment>): McpTrust {
  const trust: McpTrust = { allProjectServers: false, enabled: [], disabled: [] };
  for (const file of settings.files) {
    const s = file.settings;
    if (Array.isArray(s.disabledMcpjsonServers)) trust.disabled.push(...s.disabledMcpjsonServers.map(String));
    if (file.scope !== "user") continue;
    if (s.enableAllProjectMcpServers === true) trust.allProjectServers = true;
    if (Array.isArray(s.enabledMcpjsonServers)) trust.enabled.push(...s.enabledMcpjsonServers.map(String));
  }
  return trust;
}

function readJsonObject(
  file: string,
  diagnostics: Diagnostic[],
  required: boolean,
): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (required) {
      diagnostics.push({
        level: "error",
        code: "mcp.config.unreadable",
        file,
        message: `cannot read the MCP config (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check the --mcp-config path.`,
      });
    }
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
    diagnostics.push({
      level: "error",
      code: "mcp.config.type",
      file,
      message: 'expected a JSON object like {"mcpServers": {...}}; ignored.',
    });
  } catch (error) {
    diagnostics.push({
      level: "error",
      code: "mcp.config.json",
      file,
      message: `invalid JSON (${(error as Error).message}); ignored. Fix the file.`,
    });
  }
  return undefined;
}
