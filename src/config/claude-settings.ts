import os from "node:os";
import path from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import { errorMessage } from "../core/error-message.js";
import { readSmallFileSync } from "../fs/regular-file.js";
import { isPermissionMode } from "../permissions/modes.js";
import { canonicalToolName } from "../permissions/tool-aliases.js";
import type { Settings } from "./settings-schema.js";

/*
 * Claude Code's settings files (`~/.claude/settings.json`, `.claude/settings.json`,
 * `.claude/settings.local.json`), read for what hx shares with Claude Code: hooks, permission
 * rules (Claude Code's forms and tool names work as they are), `env` and MCP servers. The rest
 * (Claude Code's `model`, `statusLine`, `outputStyle`, …) means something else or nothing to
 * hx and is listed as not understood (`hx doctor`), never applied.
 */

/** The keys of a Claude Code settings file hx applies, each as hx's key of the same meaning. */
const SHARED_KEYS = [
  "hooks",
  "permissions",
  "env",
  "mcpServers",
  "enableAllProjectMcpServers",
  "enabledMcpjsonServers",
  "disabledMcpjsonServers",
] as const;

/** Permission keys hx applies; Claude Code's others (`additionalDirectories`, …) are listed. */
const SHARED_PERMISSION_KEYS = ["allow", "ask", "deny", "defaultMode"];

export function userClaudeSettingsPath(home = os.homedir()): string {
  return path.join(home, ".claude", "settings.json");
}

export function claudeProjectSettingsPath(folder: string): string {
  return path.join(folder, ".claude", "settings.json");
}

export function claudeLocalSettingsPath(folder: string): string {
  return path.join(folder, ".claude", "settings.local.json");
}

/** A Claude Code file read: its raw JSON object, undefined when there is none, or a problem. */
export type ClaudeFileRead =
  | { kind: "missing" }
  | { kind: "problem"; diagnostic: Diagnostic }
  | { kind: "read"; raw: Record<string, unknown>; ignored: string[] };

/**
 * Reads one Claude Code settings file and keeps the keys hx applies (`raw`, to be validated as
 * hx settings); `ignored` names every other key (`statusLine`, `permissions.additionalDirectories`).
 */
export function readClaudeSettings(file: string, maxBytes: number): ClaudeFileRead {
  const read = readSmallFileSync(file, maxBytes);
  if (!read.ok) {
    if (read.reason === "missing") return { kind: "missing" };
    return {
      kind: "problem",
      diagnostic: { level: "error", code: `settings.${read.reason}`, file, message: `${read.message}.` },
    };
  }
  if (read.text.trim() === "") return { kind: "read", raw: {}, ignored: [] };
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch (error) {
    return {
      kind: "problem",
      diagnostic: {
        level: "error",
        code: "settings.json",
        file,
        message: `is not valid JSON (${errorMessage(error)}); fix the file.`,
      },
    };
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    return {
      kind: "problem",
      diagnostic: { level: "error", code: "settings.type", file, message: "must hold a JSON object." },
    };
  }
  return { kind: "read", ...sharedPart(json as Record<string, unknown>) };
}

/** The part of a Claude Code settings object hx applies, and the keys it leaves. */
function sharedPart(json: Record<string, unknown>): {
  raw: Record<string, unknown>;
  ignored: string[];
} {
  const raw: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(json)) {
    if (key === "permissions" && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const permissions: Record<string, unknown> = {};
      for (const [name, rules] of Object.entries(value)) {
        // Claude Code's own modes (`dontAsk`) mean nothing to hx: listed, the mode stays hx's.
        if (name === "defaultMode" && !isPermissionMode(rules)) ignored.push(`permissions.defaultMode`);
        else if (SHARED_PERMISSION_KEYS.includes(name)) permissions[name] = rules;
        else ignored.push(`permissions.${name}`);
      }
      raw.permissions = permissions;
      const missing = toolsHxLacks(permissions);
      if (missing.length > 0) ignored.push(`rules for tools hx does not have (${missing.join(", ")})`);
    } else if ((SHARED_KEYS as readonly string[]).includes(key)) raw[key] = value;
    else if (key !== "$schema") ignored.push(key);
  }
  return { raw, ignored };
}

/**
 * The Claude Code tools the rules name that hx has no tool for (`WebFetch`, `WebSearch`): a
 * capitalised name no hx tool declares as its Claude Code name (see Tool.claude). Such rules
 * are kept (they match nothing) and listed by `hx doctor`.
 */
function toolsHxLacks(permissions: Record<string, unknown>): string[] {
  const names = new Set<string>();
  for (const list of ["allow", "ask", "deny"]) {
    const rules = permissions[list];
    if (!Array.isArray(rules)) continue;
    for (const rule of rules) {
      const tool = typeof rule === "string" ? /^([A-Za-z0-9_]+)/.exec(rule.trim())?.[1] : undefined;
      if (tool && /^[A-Z]/.test(tool) && canonicalToolName(tool) === tool) names.add(tool);
    }
  }
  return [...names].sort();
}

/** `~/.claude.json`'s user-scope MCP servers (Claude Code keeps them there, not in settings). */
export function readClaudeUserMcp(
  maxBytes: number,
  home = os.homedir(),
): { file: string; settings: Settings } | undefined {
  const file = path.join(home, ".claude.json");
  const read = readSmallFileSync(file, maxBytes);
  if (!read.ok) return undefined;
  try {
    const json = JSON.parse(read.text) as { mcpServers?: unknown };
    if (json?.mcpServers === undefined || typeof json.mcpServers !== "object") return undefined;
    return { file, settings: { mcpServers: json.mcpServers as Settings["mcpServers"] } };
  } catch {
    return undefined;
  }
}
