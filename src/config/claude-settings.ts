import os from "node:os";
import path from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import { errorMessage } from "../core/error-message.js";
import { readSmallFileSync } from "../fs/regular-file.js";

/*
 * Claude Code's settings files (`~/.claude/settings.json`, `.claude/settings.json`,
 * `.claude/settings.local.json`), read for what hx shares with Claude Code: the keys the
 * settings kind names (`ClaudeKeys`: hooks, permission rules, `env`, MCP servers), each as
 * hx's key of the same meaning. The rest (Claude Code's `model`, `statusLine`, `outputStyle`,
 * …) means something else or nothing to hx and is listed as not understood (`hx doctor`),
 * never applied.
 */

/** What a shared key's value keeps, and the parts of it listed as not applied. */
type ClaudeAdapter = (value: Record<string, unknown>) => { value: unknown; ignored: string[] };

/** Which keys of a Claude Code file hx applies; `adapt` narrows an object value to what hx shares. */
export interface ClaudeKeys {
  shared: readonly string[];
  adapt?: Readonly<Record<string, ClaudeAdapter>>;
}

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
export function readClaudeSettings(file: string, maxBytes: number, keys: ClaudeKeys): ClaudeFileRead {
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
  return { kind: "read", ...sharedPart(json as Record<string, unknown>, keys) };
}

/** The part of a Claude Code settings object hx applies, and the keys it leaves. */
function sharedPart(
  json: Record<string, unknown>,
  keys: ClaudeKeys,
): {
  raw: Record<string, unknown>;
  ignored: string[];
} {
  const raw: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(json)) {
    const adapt = keys.adapt?.[key];
    if (adapt && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const adapted = adapt(value as Record<string, unknown>);
      raw[key] = adapted.value;
      ignored.push(...adapted.ignored);
    } else if (keys.shared.includes(key)) raw[key] = value;
    else if (key !== "$schema") ignored.push(key);
  }
  return { raw, ignored };
}

/** `~/.claude.json`'s user-scope MCP servers (Claude Code keeps them there, not in settings). */
export function readClaudeUserMcp(
  maxBytes: number,
  home = os.homedir(),
): { file: string; settings: { mcpServers: Record<string, unknown> } } | undefined {
  const file = path.join(home, ".claude.json");
  const read = readSmallFileSync(file, maxBytes);
  if (!read.ok) return undefined;
  try {
    const json = JSON.parse(read.text) as { mcpServers?: unknown };
    if (json?.mcpServers === undefined || typeof json.mcpServers !== "object") return undefined;
    return { file, settings: { mcpServers: json.mcpServers as Record<string, unknown> } };
  } catch {
    return undefined;
  }
}
