/**
 * The priority bands of a permission decision, highest first. Every input of a decision —
 * a PreToolUse hook's verdict, the block list, deny / ask / allow rules (user, project, local,
 * `--settings`, and "always" answers of this session, merged), an active skill's scoped
 * rules, plan mode, protected paths, what the bash parser could read, the read-only list, the
 * mode — has one band, and `decideCall` (decide.ts) goes down the list: the first band that
 * has something to say about the call decides it, and the decision names that band.
 *
 * Two bands only answer a question the `mode` band would ask (`skill-allow`, `hook-allow`):
 * they never override a band above them. `hook-ask` turns whatever a band below it would
 * allow into a question; a call asked anyway keeps its own band (and its "always" rule).
 *
 * docs/permissions.md lists the same bands with examples; keep the two in step.
 */
export const DECISION_BANDS = [
  {
    band: "hook-deny",
    verdict: "deny",
    input: "a PreToolUse hook",
    what: "a hook refused the call (exit 2, permissionDecision deny)",
  },
  {
    band: "block-list",
    verdict: "deny",
    input: "the block list",
    what: "a destructive command (rm -rf /, sudo, mkfs…) or a command computed at run time",
  },
  {
    band: "deny-rule",
    verdict: "deny",
    input: "deny rules",
    what: "a deny rule matches the call, a command of the line, or a file it reads or writes",
  },
  {
    band: "skill-deny",
    verdict: "deny",
    input: "an active skill's disallowed-tools",
    what: "a rule an active skill refuses while it is active",
  },
  {
    band: "plan",
    verdict: "deny",
    input: "plan mode",
    what: "plan mode refuses what writes or runs (read-only commands excepted)",
  },
  {
    band: "protected",
    verdict: "ask",
    input: "protected paths",
    what: "a write to a protected path (.hx, .claude, .git/config, AGENTS.md, shell start-up files…)",
  },
  {
    band: "unreadable",
    verdict: "ask",
    input: "the bash parser",
    what: "a command line hx cannot read (no parser, a syntax error, control characters)",
  },
  {
    band: "hook-ask",
    verdict: "ask",
    input: "a PreToolUse hook",
    what: "a hook asks to confirm: what a band below would allow is asked",
  },
  {
    band: "bypass",
    verdict: "allow",
    input: "bypassPermissions mode",
    what: "bypassPermissions allows the rest",
  },
  { band: "ask-rule", verdict: "ask", input: "ask rules", what: "an ask rule matches" },
  {
    band: "allow-rule",
    verdict: "allow",
    input: "allow rules",
    what: "allow rules (with the read-only list) cover every command of the line, or the call",
  },
  {
    band: "read-only",
    verdict: "allow",
    input: "the read-only list",
    what: "every command of the line is on the read-only list, with every path inside the workspace",
  },
  {
    band: "unclear",
    verdict: "ask",
    input: "the bash parser",
    what: "the line has what no allow rule can cover ($(…), variables, globs, a write outside the workspace)",
  },
  {
    band: "skill-allow",
    verdict: "allow",
    input: "an active skill's allowed-tools",
    what: "answers the question the mode would ask, while the skill is active",
  },
  {
    band: "hook-allow",
    verdict: "allow",
    input: "a PreToolUse hook",
    what: "a hook's allow answers the question the mode would ask",
  },
  {
    band: "mode",
    verdict: "allow | ask | deny",
    input: "the permission mode",
    what: "the mode decides by the tool's effect (reads run; writes and commands are asked…)",
  },
] as const;

/** One band of `DECISION_BANDS`. */
export type DecisionBand = (typeof DECISION_BANDS)[number]["band"];

/** The band's place in the order: 0 is the highest. */
export function bandRank(band: DecisionBand): number {
  return DECISION_BANDS.findIndex((entry) => entry.band === band);
}

/** What decided, for `hx permissions check` and messages: `deny-rule (deny rules)`. */
export function describeBand(band: DecisionBand): string {
  const entry = DECISION_BANDS.find((candidate) => candidate.band === band);
  return entry ? `${band} (${entry.input})` : band;
}
