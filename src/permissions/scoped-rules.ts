import { describeCall, type PermissionDecision } from "./decide.js";
import { RuleSet } from "./rule-set.js";
import { parseRule, type RuleTarget } from "./rules.js";

/** One rule held for a while by something in the session, and what holds it. */
interface ScopedRule {
  rule: string;
  /** Who holds it, for messages: "the skill deploy". */
  source: string;
}

/**
 * Rules that hold only for a while, read at each call: an active skill's `allowed-tools`
 * (allow) and `disallowed-tools` (deny). A scoped deny refuses a call the settings would let
 * through; a scoped allow answers only the question the mode itself would ask — never a deny
 * or ask rule, the block list, plan mode, a protected path, a command hx cannot read, or the
 * sandbox, which still holds every command that runs.
 */
export interface ScopedPermissionRules {
  allow: readonly ScopedRule[];
  deny: readonly ScopedRule[];
}

/**
 * How the one decision procedure (decide.ts) judges the call under other rules: the checker
 * passes a function that re-decides the call it already read, with these allow and deny sets.
 */
export type DecideWithRules = (rules: { allow: RuleSet; deny: RuleSet }) => PermissionDecision;

/** The decision once the scoped rules are applied to what the settings decided. */
export function applyScopedRules(
  decision: PermissionDecision,
  scoped: ScopedPermissionRules,
  target: RuleTarget,
  decideWith: DecideWithRules,
): PermissionDecision {
  if (decision.action === "deny") return decision;
  const empty = new RuleSet();
  for (const held of scoped.deny) {
    const rules = ruleSetOf(held.rule);
    if (!rules) continue; // a malformed rule refuses nothing
    const verdict = decideWith({ allow: empty, deny: rules });
    if (verdict.action === "deny" && verdict.rule)
      return {
        action: "deny",
        rule: verdict.rule,
        reason: `${describeCall(target)} is refused while ${held.source} is active (its disallowed-tools lists ${held.rule}). Do it another way, or finish that task first.`,
      };
  }
  if (decision.action !== "ask" || decision.cause !== "unruled") return decision;
  for (const held of scoped.allow) {
    const rules = ruleSetOf(held.rule);
    if (!rules) continue; // a malformed rule grants nothing
    const verdict = decideWith({ allow: rules, deny: empty });
    if (verdict.action === "allow" && verdict.rule)
      return { action: "allow", rule: verdict.rule, reason: `allowed while ${held.source} is active` };
  }
  return decision;
}

function ruleSetOf(text: string): RuleSet | undefined {
  const parsed = parseRule(text);
  return "error" in parsed ? undefined : new RuleSet([parsed]);
}
