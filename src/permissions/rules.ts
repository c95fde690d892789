import type { ToolEffect } from "../core/tool.js";
import { canonicalToolName } from "./tool-aliases.js";

/**
 * A permission rule as written in settings: `bash(git push*)`, `write_file(src/**)`,
 * `load_skill(deploy)` or a bare tool name (`read_file`), which covers every call. Claude
 * Code's tool names work too: `Bash(git status:*)` is `bash(git status:*)`, `Write(src/**)`
 * is `write_file(src/**)` (see tool-aliases.ts). How patterns match: command-pattern.ts
 * (commands) and rule-set.ts (paths and names).
 */
export interface PermissionRule {
  /** The rule exactly as written, for messages. */
  text: string;
  tool: string;
  /** Undefined for a bare tool name (or `tool(*)`): the rule covers every call of the tool. */
  pattern?: string;
}

export interface PermissionRules {
  allow: PermissionRule[];
  ask: PermissionRule[];
  deny: PermissionRule[];
}

/** One tool call as the rules see it. */
export interface RuleTarget {
  tool: string;
  effect: ToolEffect;
  /** What patterns match: the command for execute tools, a path or name for the others. */
  subject?: string;
  /** The project root; absolute paths inside it are matched relative to it. */
  root?: string;
}

/**
 * More allow rules than this and the allow list is ignored (every call is asked): a list that
 * long is a mistake or an attack, and checking it must not slow every call. Deny and ask lists
 * are always kept whole (dropping one would allow what it forbids); they are indexed, so their
 * length costs little per call.
 */
export const MAX_ALLOW_RULES = 100_000;

const RULE_SHAPE = /^([A-Za-z0-9_.:-]+\*?)(?:\((.*)\))?$/s;

/** Parses one rule; returns an error message for text that is not a rule. */
export function parseRule(text: string): PermissionRule | { error: string } {
  const trimmed = typeof text === "string" ? text.trim() : "";
  const match = RULE_SHAPE.exec(trimmed);
  if (!match) {
    return {
      error: `'${String(text).slice(0, 200)}' is not a permission rule; write a tool name or tool(pattern), e.g. bash(git status)`,
    };
  }
  const [, written, pattern] = match;
  const tool = canonicalToolName(written);
  if (pattern === undefined || pattern.trim() === "*" || pattern.trim() === "**")
    return { text: trimmed, tool };
  if (pattern.trim() === "")
    return { error: `'${trimmed}' has an empty pattern; drop the parentheses to match every call` };
  return { text: trimmed, tool, pattern: pattern.trim() };
}

/** Parses the three rule lists from settings; bad entries become warnings, not failures. */
export function parseRules(settings: { allow?: unknown; ask?: unknown; deny?: unknown } | undefined): {
  rules: PermissionRules;
  warnings: string[];
} {
  const rules: PermissionRules = { allow: [], ask: [], deny: [] };
  const warnings: string[] = [];
  for (const list of ["allow", "ask", "deny"] as const) {
    const entries = settings?.[list];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) {
      warnings.push(`permissions.${list} must be a list of rules; ignored.`);
      continue;
    }
    if (list === "allow" && entries.length > MAX_ALLOW_RULES) {
      warnings.push(
        `permissions.allow has ${entries.length.toLocaleString("en-US")} rules, more than ${MAX_ALLOW_RULES.toLocaleString("en-US")}; all allow rules are ignored, so calls they would allow are asked. Use wildcards (bash(npm run *)) instead of one rule per command.`,
      );
      continue;
    }
    let bad = 0;
    for (const entry of entries) {
      const parsed = parseRule(entry);
      if (!("error" in parsed)) rules[list].push(parsed);
      else if (bad++ < 20) warnings.push(`permissions.${list}: ${parsed.error}; ignored.`);
    }
    if (bad > 20) warnings.push(`permissions.${list}: ${bad - 20} more entries are not rules; ignored.`);
  }
  return { rules, warnings };
}

/** The rule text that covers exactly this call: `bash(git status)` or a bare tool name. */
export function ruleFor(target: Pick<RuleTarget, "tool" | "subject">): string {
  return target.subject === undefined ? target.tool : `${target.tool}(${target.subject})`;
}
