/** One rule held for a while by something in the session, and what holds it. */
interface ScopedRule {
  rule: string;
  /** Who holds it, for messages: "the skill deploy". */
  source: string;
}

/**
 * Rules that hold only for a while, read at each call by the decision procedure (decide.ts,
 * bands `skill-deny` and `skill-allow`): an active skill's `allowed-tools` (allow) and
 * `disallowed-tools` (deny). A scoped deny refuses a call the settings would let
 * through; a scoped allow answers only the question the mode itself would ask — never a deny
 * or ask rule, the block list, plan mode, a protected path, a command hx cannot read, or the
 * sandbox, which still holds every command that runs.
 */
export interface ScopedPermissionRules {
  allow: readonly ScopedRule[];
  deny: readonly ScopedRule[];
}
