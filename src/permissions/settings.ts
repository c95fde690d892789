/**
 * The `permissions` key of a settings file: this folder's fragment of the settings schema
 * (composed in src/settings/), how files layer, and what a Claude Code file's key keeps.
 */
import type * as z from "zod";
import { concatLists, type MergeRule } from "../config/merge.js";
import { schemaParts, type Zod } from "../config/schema-parts.js";
import { expected } from "../text/schema-messages.js";
import { isPermissionMode, PERMISSION_MODES } from "./modes.js";
import { parseRule } from "./rules.js";
import { canonicalToolName } from "./tool-aliases.js";

/** `permissions: { defaultMode, allow, ask, deny, readOnlyCommands }`. */
export function permissionSettingsSchema(z: Zod) {
  const { text, flag } = schemaParts(z);
  /** A list of permission rules; each must parse (a broken rule is an error, never a silent gap). */
  const rules = z.array(
    text('a rule such as "bash(git push*)"').superRefine((value, ctx) => {
      const parsed = parseRule(value);
      if ("error" in parsed) ctx.addIssue({ code: "custom", message: parsed.error, input: value });
    }),
    { error: expected('a list of rules such as ["bash(git push*)"]') },
  );
  return z.object(
    {
      defaultMode: z
        .enum(PERMISSION_MODES, { error: expected(`one of ${PERMISSION_MODES.join(", ")}`) })
        .optional(),
      allow: rules.optional(),
      ask: rules.optional(),
      deny: rules.optional(),
      /** Let read-only commands (ls, cat, git status, …) inside the workspace run without a rule (default true). */
      readOnlyCommands: flag().optional(),
    },
    { error: expected("an object with allow, ask, deny, defaultMode and readOnlyCommands") },
  );
}

export type PermissionSettings = z.infer<ReturnType<typeof permissionSettingsSchema>>;

/** Rule lists add up over the files; a nearer file's mode and read-only switch win. */
export const mergePermissionSettings: MergeRule<PermissionSettings> = (current = {}, next) => ({
  defaultMode: next.defaultMode ?? current.defaultMode,
  readOnlyCommands: next.readOnlyCommands ?? current.readOnlyCommands,
  allow: concatLists(current.allow, next.allow),
  ask: concatLists(current.ask, next.ask),
  deny: concatLists(current.deny, next.deny),
});

/** Permission keys hx applies; Claude Code's others (`additionalDirectories`, …) are listed. */
const SHARED_PERMISSION_KEYS = ["allow", "ask", "deny", "defaultMode"];

/**
 * A Claude Code file's `permissions`: its rules as they are (Claude Code's forms and tool
 * names work), its mode when hx has it; the rest listed as not applied.
 */
export function claudePermissionSettings(value: Record<string, unknown>): {
  value: unknown;
  ignored: string[];
} {
  const permissions: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [name, rules] of Object.entries(value)) {
    // Claude Code's own modes (`dontAsk`) mean nothing to hx: listed, the mode stays hx's.
    if (name === "defaultMode" && !isPermissionMode(rules)) ignored.push(`permissions.defaultMode`);
    else if (SHARED_PERMISSION_KEYS.includes(name)) permissions[name] = rules;
    else ignored.push(`permissions.${name}`);
  }
  const missing = toolsHxLacks(permissions);
  if (missing.length > 0) ignored.push(`rules for tools hx does not have (${missing.join(", ")})`);
  return { value: permissions, ignored };
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
