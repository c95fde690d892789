import path from "node:path";
import picomatch from "picomatch";
import type { ToolEffect } from "../core/tool.js";
import { allCommandParts, splitShellCommand } from "./shell-split.js";
import { canonicalToolName } from "./tool-aliases.js";

/**
 * A permission rule as written in settings: `bash(git push*)`, `write_file(src/**)`,
 * `load_skill(deploy)` or a bare tool name (`read_file`), which covers every call. Claude
 * Code's tool names work too: `Bash(git status:*)` is `bash(git status:*)`, `Write(src/**)`
 * is `write_file(src/**)` (see tool-aliases.ts).
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

const RULE_SHAPE = /^([A-Za-z0-9_.:-]+)(?:\((.*)\))?$/s;

/** Parses one rule; returns an error message for text that is not a rule. */
export function parseRule(text: string): PermissionRule | { error: string } {
  const trimmed = typeof text === "string" ? text.trim() : "";
  const match = RULE_SHAPE.exec(trimmed);
  if (!match) {
    return {
      error: `'${String(text)}' is not a permission rule; write a tool name or tool(pattern), e.g. bash(git status)`,
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
    for (const entry of entries) {
      const parsed = parseRule(entry);
      if ("error" in parsed) warnings.push(`permissions.${list}: ${parsed.error}; ignored.`);
      else rules[list].push(parsed);
    }
  }
  return { rules, warnings };
}

/** The rule text that covers exactly this call: `bash(git status)` or a bare tool name. */
export function ruleFor(target: RuleTarget): string {
  return target.subject === undefined ? target.tool : `${target.tool}(${target.subject})`;
}

/** Does `rule` cover the whole call? (For commands: the whole command line.) */
export function ruleMatches(rule: PermissionRule, target: RuleTarget): boolean {
  if (rule.tool.toLowerCase() !== target.tool.toLowerCase()) return false;
  if (rule.pattern === undefined) return true;
  if (target.subject === undefined) return false;
  return target.effect === "execute"
    ? commandMatches(rule.pattern, target.subject)
    : pathMatches(rule.pattern, target.subject, target.root);
}

/**
 * Deny and ask rules: a command line matches when the whole line or any one of its simple
 * commands matches (also inside `bash -c '...'`), so `bash(git push*)` catches
 * `make && git push` and `sh -c "git push"`.
 */
export function matchesAnyPart(rules: PermissionRule[], target: RuleTarget): PermissionRule | undefined {
  for (const rule of rules) if (ruleMatches(rule, target)) return rule;
  if (target.effect !== "execute" || target.subject === undefined) return undefined;
  for (const part of allCommandParts(target.subject)) {
    const partTarget = { ...target, subject: part.text };
    for (const rule of rules) if (ruleMatches(rule, partTarget)) return rule;
  }
  return undefined;
}

/**
 * Allow rules: a command line made of several commands is allowed only when every one of them
 * is (so `bash(git status*)` does not allow `git status && rm -rf build`), or when a rule
 * without `*` names the whole line exactly.
 */
export function allowedBy(rules: PermissionRule[], target: RuleTarget): PermissionRule | undefined {
  if (target.effect !== "execute" || target.subject === undefined) {
    return rules.find((rule) => ruleMatches(rule, target));
  }
  const exact = rules.find(
    (rule) => ruleMatches(rule, target) && (rule.pattern === undefined || !rule.pattern.includes("*")),
  );
  if (exact) return exact;
  const parts = splitShellCommand(target.subject);
  if (parts.length === 0) return rules.find((rule) => ruleMatches(rule, target));
  let first: PermissionRule | undefined;
  for (const part of parts) {
    const rule = rules.find((candidate) => ruleMatches(candidate, { ...target, subject: part.text }));
    if (!rule) return undefined;
    first ??= rule;
  }
  return first;
}

/**
 * Command patterns are matched against the whole command (whitespace runs count as one
 * space): `*` stands for any text, spaces and slashes included; everything else is literal.
 * A trailing ` *` or `:*` also matches nothing, so `git *` and `git:*` cover `git` alone.
 */
export function commandMatches(pattern: string, command: string): boolean {
  const normalizedPattern = normalizeSpaces(pattern).replace(/(?: \*|:\*)$/, "\u0000");
  const source = [...normalizedPattern]
    .map((ch) => (ch === "*" ? "[\\s\\S]*" : ch === "\u0000" ? "(?: [\\s\\S]*)?" : escapeRegExp(ch)))
    .join("");
  return new RegExp(`^${source}$`).test(normalizeSpaces(command));
}

/** Path patterns are globs (picomatch, dotfiles included); `./x` and absolute paths inside the root are made relative. */
export function pathMatches(pattern: string, subject: string, root?: string): boolean {
  return picomatch(stripDotSlash(pattern), { dot: true })(normalizePath(subject, root));
}

function normalizePath(subject: string, root: string | undefined): string {
  let value = subject;
  if (root && path.isAbsolute(value)) {
    const relative = path.relative(root, value);
    if (relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)) value = relative;
  }
  return stripDotSlash(value.split(path.sep).join("/"));
}

function stripDotSlash(value: string): string {
  return value.replace(/^(\.\/)+/, "");
}

function normalizeSpaces(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

function escapeRegExp(ch: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(ch) ? `\\${ch}` : ch;
}
