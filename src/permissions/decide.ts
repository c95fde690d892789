import { findBlockedCommand } from "./block-list.js";
import { changesTheWorld, modeVerdict, type PermissionMode } from "./modes.js";
import {
  allowedBy,
  matchesAnyPart,
  type PermissionRule,
  type PermissionRules,
  type RuleTarget,
} from "./rules.js";

export type PermissionDecision =
  | { action: "allow"; rule?: PermissionRule }
  /** `byMode`: asked only because the mode asks when no rule decides (a hook's allow may skip it). */
  | { action: "ask"; reason: string; rule?: PermissionRule; byMode?: true }
  | { action: "deny"; reason: string };

/**
 * The permission policy for one call, in order:
 * 1. the block list (commands only) — nothing unlocks it;
 * 2. deny rules;
 * 3. plan mode refuses anything that writes or runs;
 * 4. bypassPermissions allows the rest;
 * 5. ask rules, then allow rules;
 * 6. otherwise the mode decides by the tool's effect.
 */
export function decidePermission(
  target: RuleTarget,
  mode: PermissionMode,
  rules: PermissionRules,
): PermissionDecision {
  const label = describeCall(target);
  if (target.effect === "execute" && target.subject !== undefined) {
    const blocked = findBlockedCommand(target.subject);
    if (blocked) {
      return {
        action: "deny",
        reason: `${label} is on hx's block list of destructive commands (${blocked}); no mode or rule allows it.`,
      };
    }
  }
  const denied = matchesAnyPart(rules.deny, target);
  if (denied)
    return { action: "deny", reason: `${label} matches the deny rule ${denied.text} in your settings.` };

  if (mode === "plan" && changesTheWorld(target.effect)) {
    const what = target.effect === "write" ? "changes files" : "runs a command";
    return {
      action: "deny",
      reason: `plan mode is read-only and ${label} ${what}. Finish the plan and present it; the user can leave plan mode with --permission-mode default.`,
    };
  }
  if (mode === "bypassPermissions") return { action: "allow" };

  const asked = matchesAnyPart(rules.ask, target);
  if (asked) return { action: "ask", reason: `${label} matches the ask rule ${asked.text}`, rule: asked };
  const allowed = allowedBy(rules.allow, target);
  if (allowed) return { action: "allow", rule: allowed };

  const verdict = modeVerdict(mode, target.effect);
  if (verdict === "allow") return { action: "allow" };
  if (verdict === "deny") return { action: "deny", reason: `${label} is not allowed in ${mode} mode.` };
  const what = target.effect === "write" ? "changes files" : "runs a command";
  return { action: "ask", reason: `${label} ${what} and no rule allows it`, byMode: true };
}

/** `bash(git status)`, `write_file(src/a.ts)` or just the tool name. */
export function describeCall(target: RuleTarget): string {
  return target.subject === undefined ? target.tool : `${target.tool}(${target.subject})`;
}
