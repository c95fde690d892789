import os from "node:os";
import path from "node:path";
import { isProtectedPath } from "../config/protected-paths.js";
import { expandBraces } from "../fs/brace-expansion.js";
import { isInside, realPathOf } from "../tools/workspace.js";
import { bandRank, type DecisionBand } from "./bands.js";
import { findBlockedCommand } from "./block-list.js";
import type { CommandLine, CommandView, ViewWord } from "./command-line.js";
import { changesTheWorld, modeVerdict, type PermissionMode } from "./modes.js";
import { programOption } from "./program-options.js";
import { type NotReadOnly, readOnlyVerdict } from "./read-only-commands.js";
import { normalizePath, RuleSet } from "./rule-set.js";
import { type PermissionRule, parseRule, type RuleTarget } from "./rules.js";
import type { ScopedPermissionRules } from "./scoped-rules.js";
import { resolveShellPath, type ShellCommand } from "./shell-syntax.js";
import { hasGlob, sourceText } from "./shell-words.js";

/**
 * Why a call is asked: an ask rule matched (`rule`), it writes a protected path
 * (`protected`), hx cannot read the command well enough for any allow rule to cover it
 * (`unclear`), a PreToolUse hook asked (`hook`), or only because the mode asks when no rule
 * decides (`unruled`). "Always" saves a rule, and a hook's "allow" skips the question, only
 * for `unruled`.
 */
export type AskCause = "rule" | "protected" | "unclear" | "hook" | "unruled";

/** The command on the read-only list that a call made not read-only: its text, the word and why. */
interface NotReadOnlyCommand {
  command: string;
  word: string;
  reason: string;
}

/** One decision, with the band that made it (bands.ts) and the rule, when a rule did. */
export type PermissionDecision =
  | { action: "allow"; band: DecisionBand; rule?: PermissionRule; reason?: string }
  | {
      action: "ask";
      band: DecisionBand;
      reason: string;
      cause: AskCause;
      rule?: PermissionRule;
      notReadOnly?: NotReadOnlyCommand;
    }
  | {
      action: "deny";
      band: DecisionBand;
      reason: string;
      rule?: PermissionRule;
      notReadOnly?: NotReadOnlyCommand;
    };

/**
 * What PreToolUse hooks said about a call (`permissionDecision`; a deny is also exit 2,
 * `decision: "block"` or `continue: false`), with their reason; `message` is what the model
 * reads when the hooks refused it (their own words, as Claude Code shows them).
 */
export interface PreToolUseVerdict {
  decision: "allow" | "ask" | "deny";
  reason?: string;
  message?: string;
}

/** Every input of one decision, as data. */
interface DecisionInputs {
  target: RuleTarget;
  /** The mode, the rules of every settings file (and "always" answers), the read-only switch. */
  policy: PermissionPolicy;
  /** The command line as the bash parser read it (execute tools); absent: the parser failed. */
  line?: CommandLine;
  /** Rules an active skill holds for a while (allowed-tools, disallowed-tools). */
  scoped?: ScopedPermissionRules;
  /** What PreToolUse hooks said. */
  hook?: PreToolUseVerdict;
}

/** Everything a decision depends on besides the call. */
export interface PermissionPolicy {
  mode: PermissionMode;
  allow: RuleSet;
  ask: RuleSet;
  deny: RuleSet;
  /** The workspace root (a real path): relative rules and "inside the workspace" start here. */
  root: string;
  home?: string;
  /** Allow the built-in read-only commands (ls, cat, git status, …) without a rule. */
  readOnlyCommands: boolean;
}

/**
 * Deny rules written for `read_file` protect a file from every tool that reads: grep and glob
 * (their folder and their results) and the paths a bash command names (`cat .env`); for bash
 * only rules with a path pattern count (a bare `read_file` turns off the tool, not every file).
 */
export const READ_RULE_TOOL = "read_file";

/**
 * Files a command line writes through redirections and output options (`> out.txt`,
 * `--output=f`) are judged like `write_file` calls: `write_file` deny and allow rules apply,
 * and acceptEdits mode lets them through inside the workspace.
 */
export const WRITE_RULE_TOOL = "write_file";

/**
 * The one decision procedure: every input goes down the bands of bands.ts, highest first,
 * and the first band that has something to say decides. The loop's permission extension and
 * `hx permissions check` both call it (through PermissionChecker), so "why was this
 * allowed?" has one answer: the decision's `band`, and its `rule` when a rule decided.
 *
 * `line` is the command line read by the bash parser (execute tools); a command without it
 * is never allowed by a rule.
 */
export function decideCall(inputs: DecisionInputs): PermissionDecision {
  const { target, policy, line, scoped, hook } = inputs;
  const label = describeCall(target);
  if (hook?.decision === "deny")
    return {
      action: "deny",
      band: "hook-deny",
      reason: `a PreToolUse hook refused ${label}${hook.reason ? ` (${hook.reason})` : ""}`,
    };
  const byRules = decideByRules(target, policy, line);
  if (byRules.action === "deny" && bandRank(byRules.band) < bandRank("skill-deny")) return byRules;
  const skillDenied = scoped ? skillDenial(target, policy, line, scoped.deny) : undefined;
  if (skillDenied) return skillDenied;
  let decision = byRules;
  // A skill's allowed-tools and a hook's allow answer only the question the mode would ask.
  if (decision.action === "ask" && decision.band === "mode") {
    const hookAllows: PermissionDecision | undefined =
      hook?.decision === "allow"
        ? {
            action: "allow",
            band: "hook-allow",
            reason: `a PreToolUse hook allowed ${label}${hook.reason ? ` (${hook.reason})` : ""}`,
          }
        : undefined;
    decision = (scoped && skillAllowance(target, policy, line, scoped.allow)) ?? hookAllows ?? decision;
  }
  if (decision.action === "allow" && hook?.decision === "ask")
    return {
      action: "ask",
      band: "hook-ask",
      cause: "hook",
      reason: `a PreToolUse hook asks to confirm ${label}${hook.reason ? ` (${hook.reason})` : ""}`,
    };
  return decision;
}

/** The bands the rules, the mode and the command line decide (all but skills and hooks). */
function decideByRules(
  target: RuleTarget,
  policy: PermissionPolicy,
  line: CommandLine | undefined,
): PermissionDecision {
  if (target.effect === "execute" && target.subject !== undefined) {
    return decideCommand(target, policy, line);
  }
  return decideOther(target, policy);
}

/** The `skill-deny` band: an active skill's disallowed-tools, judged as deny rules. */
function skillDenial(
  target: RuleTarget,
  policy: PermissionPolicy,
  line: CommandLine | undefined,
  held: ScopedPermissionRules["deny"],
): PermissionDecision | undefined {
  const empty = new RuleSet();
  for (const { rule, source } of held) {
    const rules = ruleSetOf(rule);
    if (!rules) continue; // a malformed rule refuses nothing
    const verdict = decideByRules(
      target,
      { ...policy, mode: "default", allow: empty, ask: empty, deny: rules },
      line,
    );
    if (verdict.action === "deny" && verdict.band === "deny-rule" && verdict.rule)
      return {
        action: "deny",
        band: "skill-deny",
        rule: verdict.rule,
        reason: `${describeCall(target)} is refused while ${source} is active (its disallowed-tools lists ${rule}). Do it another way, or finish that task first.`,
      };
  }
  return undefined;
}

/** The `skill-allow` band: an active skill's allowed-tools, judged as allow rules in default mode. */
function skillAllowance(
  target: RuleTarget,
  policy: PermissionPolicy,
  line: CommandLine | undefined,
  held: ScopedPermissionRules["allow"],
): PermissionDecision | undefined {
  const empty = new RuleSet();
  for (const { rule, source } of held) {
    const rules = ruleSetOf(rule);
    if (!rules) continue; // a malformed rule grants nothing
    const verdict = decideByRules(
      target,
      { ...policy, mode: "default", allow: rules, ask: empty, deny: empty },
      line,
    );
    if (verdict.action === "allow" && verdict.rule)
      return {
        action: "allow",
        band: "skill-allow",
        rule: verdict.rule,
        reason: `allowed while ${source} is active`,
      };
  }
  return undefined;
}

function ruleSetOf(text: string): RuleSet | undefined {
  const parsed = parseRule(text);
  return "error" in parsed ? undefined : new RuleSet([parsed]);
}

function decideOther(target: RuleTarget, policy: PermissionPolicy): PermissionDecision {
  const label = describeCall(target);
  const { mode } = policy;
  const subject = target.subject;
  const match = (rules: RuleSet) =>
    subject === undefined ? rules.bare(target.tool) : rules.matchPath(target.tool, subject, policy.root);
  const denied =
    match(policy.deny) ??
    (target.effect === "read" && subject !== undefined && target.tool !== READ_RULE_TOOL
      ? policy.deny.matchPath(READ_RULE_TOOL, subject, policy.root)
      : undefined);
  if (denied)
    return {
      action: "deny",
      band: "deny-rule",
      reason: `${label} matches the deny rule ${denied.text} in your settings.`,
      rule: denied,
    };

  if (mode === "plan" && changesTheWorld(target.effect)) return planDenial(label, target.effect === "write");
  if (target.effect === "write" && subject !== undefined) {
    const absolute = path.resolve(policy.root, subject);
    if (isProtectedPath(absolute, policy.root, policy.home ?? os.homedir())) {
      return {
        action: "ask",
        band: "protected",
        cause: "protected",
        reason: protectedReason(label, displayPath(absolute, policy.root)),
      };
    }
  }
  if (mode === "bypassPermissions") return { action: "allow", band: "bypass" };

  const asked = match(policy.ask);
  if (asked)
    return {
      action: "ask",
      band: "ask-rule",
      cause: "rule",
      reason: `${label} matches the ask rule ${asked.text}`,
      rule: asked,
    };
  const allowed = match(policy.allow);
  if (allowed) return { action: "allow", band: "allow-rule", rule: allowed };

  const verdict = modeVerdict(mode, target.effect);
  if (verdict === "allow") return { action: "allow", band: "mode" };
  if (verdict === "deny")
    return { action: "deny", band: "mode", reason: `${label} is not allowed in ${mode} mode.` };
  const what = target.effect === "write" ? "changes files" : "runs a command";
  return { action: "ask", band: "mode", cause: "unruled", reason: `${label} ${what} and no rule allows it` };
}

function decideCommand(
  target: RuleTarget,
  policy: PermissionPolicy,
  line: CommandLine | undefined,
): PermissionDecision {
  const label = describeCall(target);
  if (!line) {
    if (policy.mode === "plan") return planDenial(label, false);
    return {
      action: "ask",
      band: "unreadable",
      cause: "unclear",
      reason: `${label} could not be checked (the bash parser is not available)`,
    };
  }
  const home = policy.home ?? os.homedir();
  const blocked = findBlockedCommand(line, { root: policy.root, home });
  if (blocked) {
    return {
      action: "deny",
      band: "block-list",
      reason: `${label} is on hx's block list of destructive commands (${blocked}); no mode or rule allows it.`,
    };
  }
  if (line.computed) {
    return {
      action: "deny",
      band: "block-list",
      reason: `${label} is refused because ${line.computed}: hx cannot tell what it would run, so it counts as matching every deny rule and the block list, in every mode. Write the command out with literal words.`,
    };
  }
  const denied = matchViews(policy.deny, target.tool, line.views);
  if (denied) {
    return {
      action: "deny",
      band: "deny-rule",
      reason: `${label} matches the deny rule ${denied.rule.text} in your settings${viewNote(denied.view, target)}.`,
      rule: denied.rule,
    };
  }
  // Path deny rules of the file tools hold for the files a command line reads and writes.
  const pathDenials: Array<[string, readonly string[], (file: string, rule: string) => string]> = [
    [
      READ_RULE_TOOL,
      line.reads,
      (file, rule) => `names ${file}, which the deny rule ${rule} keeps from being read`,
    ],
    [WRITE_RULE_TOOL, line.fileWrites, (file, rule) => `writes ${file}, which the deny rule ${rule} forbids`],
  ];
  for (const [tool, files, says] of pathDenials) {
    if (!policy.deny.has(tool)) continue;
    for (const file of files) {
      const real = realPathOf(file);
      const rule = policy.deny.matchPathPattern(tool, real, policy.root);
      if (rule)
        return {
          action: "deny",
          band: "deny-rule",
          reason: `${label} ${says(displayPath(real, policy.root), rule.text)}.`,
          rule,
        };
    }
  }

  const coverage = coverLine(target.tool, line, policy);
  const why = notReadOnlyNote(coverage.notReadOnly);
  const explained = coverage.notReadOnly ? { notReadOnly: coverage.notReadOnly } : {};
  if (policy.mode === "plan" && !coverage.readOnly) return { ...planDenial(label, false, why), ...explained };

  for (const written of [...line.fileWrites, ...line.argumentWrites]) {
    const real = realPathOf(written);
    if (isProtectedPath(real, policy.root, home)) {
      return {
        action: "ask",
        band: "protected",
        cause: "protected",
        reason: protectedReason(label, displayPath(real, policy.root)),
      };
    }
  }
  if (line.parseError) {
    return {
      action: "ask",
      band: "unreadable",
      cause: "unclear",
      reason: `${label} cannot be checked: ${line.parseError}`,
    };
  }
  if (policy.mode === "bypassPermissions") return { action: "allow", band: "bypass" };

  const asked = matchViews(policy.ask, target.tool, line.views);
  if (asked) {
    return {
      action: "ask",
      band: "ask-rule",
      cause: "rule",
      reason: `${label} matches the ask rule ${asked.rule.text}${viewNote(asked.view, target)}`,
      rule: asked.rule,
    };
  }
  if (coverage.covered) {
    return coverage.rule
      ? { action: "allow", band: "allow-rule", rule: coverage.rule }
      : { action: "allow", band: "read-only", reason: "read-only commands inside the workspace" };
  }
  if (coverage.problem) {
    return {
      action: "ask",
      band: "unclear",
      cause: "unclear",
      reason: `${label} contains ${coverage.problem}, so no allow rule covers it`,
      ...explained,
    };
  }
  if (coverage.uncoveredWrite) {
    return {
      action: "ask",
      band: "mode",
      cause: "unruled",
      reason: `${label} writes ${coverage.uncoveredWrite} and no rule allows writing it (in acceptEdits mode writes inside the workspace run)`,
    };
  }
  const whole =
    coverage.uncovered === line.commands[0]?.words.map((word) => sourceText(word.source)).join(" ");
  const several = line.commands.length > 1 || !whole;
  const uncovered = coverage.uncovered && several ? ` (no rule allows \`${coverage.uncovered}\`)` : "";
  return {
    action: "ask",
    band: "mode",
    cause: "unruled",
    reason: `${label} runs a command and no rule allows it${uncovered}${why}`,
    ...explained,
  };
}

/** `; \`sort\` is read-only, but \`--compress-prog=sh\` (--compress-program) runs a program`. */
function notReadOnlyNote(notReadOnly: Coverage["notReadOnly"]): string {
  if (!notReadOnly) return "";
  const name = notReadOnly.command.split(" ")[0];
  return `; \`${name}\` is on the read-only list, but not this call: ${notReadOnly.reason}`;
}

interface Coverage {
  /** Every command is allowed by a rule or the read-only list. */
  covered: boolean;
  /** The allow rule used first (undefined when only read-only commands were used). */
  rule?: PermissionRule;
  /** Every command is a read-only one (plan mode runs these). */
  readOnly: boolean;
  /** Why no allow rule can cover the line at all. */
  problem?: string;
  /** The first command no rule covers, as written. */
  uncovered?: string;
  /** A file the line writes that neither the mode nor a write_file rule allows (relative path). */
  uncoveredWrite?: string;
  /** The first command on the read-only list that this call makes not read-only, and why. */
  notReadOnly?: NotReadOnlyCommand;
}

/**
 * An allow rule covers a line only when every command bash will run is a plain command of
 * literal words that a rule matches (or a read-only command), with no substitution,
 * expansion, glob, assignment, here-document or comment, and no redirection outside the
 * workspace.
 */
function coverLine(tool: string, line: CommandLine, policy: PermissionPolicy): Coverage {
  const exact =
    line.features.length === 0 && !line.parseError ? policy.allow.matchExactLine(tool, line.text) : undefined;
  const problem =
    line.features[0] ?? line.commands.map((command) => plainProblem(command, policy)).find(Boolean);
  if (problem) return { covered: false, readOnly: false, problem };
  if (line.commands.length === 0) return { covered: false, readOnly: false, problem: "no command" };
  let first: PermissionRule | undefined = exact;
  let readOnly = true;
  let uncovered: string | undefined;
  let notReadOnly: Coverage["notReadOnly"];
  const ruled = new Set<ShellCommand>();
  for (const command of line.commands) {
    const words = command.words.map((word) => sourceText(word.source));
    const runs = programOption(words);
    if (runs) {
      const verdict = policy.readOnlyCommands ? readOnlyInside(command, words, policy) : false;
      return {
        covered: false,
        readOnly: false,
        problem: `\`${runs}\`, with which ${words[0]} runs a program of the caller's choosing`,
        ...(typeof verdict === "object" ? { notReadOnly: { ...verdict, command: words.join(" ") } } : {}),
      };
    }
    const verdict = policy.readOnlyCommands ? readOnlyInside(command, words, policy) : false;
    const isReadOnly = verdict === true;
    if (!isReadOnly) readOnly = false;
    if (verdict !== true && verdict !== false) notReadOnly ??= { ...verdict, command: words.join(" ") };
    if (exact) continue;
    const rule = policy.allow.matchCommand(tool, words.map(literalWord), {
      basename: false,
      dynamicMatches: false,
    });
    if (rule) {
      first ??= rule;
      if (!isReadOnly) ruled.add(command);
    } else if (!isReadOnly) uncovered ??= words.join(" ");
  }
  // What a ruled command runs from its arguments (`timeout 5 rm x`, `xargs rm`, `find -exec`)
  // needs a rule of its own: `bash(xargs *)` does not allow every command.
  if (!exact) {
    for (const view of line.views) {
      if (!view.runBy || !ruled.has(view.runBy.command) || uncovered !== undefined) continue;
      const options = { basename: false, dynamicMatches: false };
      if (policy.allow.matchCommand(tool, view.words, options)) continue;
      if (policy.readOnlyCommands && readOnlyView(view, policy)) continue;
      uncovered = view.words.map((word) => (word.literal ? word.text : "$…")).join(" ");
    }
  }
  let uncoveredWrite: string | undefined;
  for (const written of line.fileWrites) {
    const real = realPathOf(written);
    if (DEVICE_TARGETS.has(written)) continue;
    readOnly = false;
    if (!isInside(real, policy.root))
      return { covered: false, readOnly, problem: `a write outside the workspace (${real})`, notReadOnly };
    if (policy.mode === "acceptEdits" || policy.allow.matchPath(WRITE_RULE_TOOL, real, policy.root)) continue;
    uncoveredWrite ??= displayPath(real, policy.root);
  }
  const covered = uncovered === undefined && uncoveredWrite === undefined;
  return { covered, rule: first, readOnly, uncovered, uncoveredWrite, notReadOnly };
}

/** Why one command is not plain (literal words, redirections inside the workspace); undefined when it is. */
function plainProblem(command: ShellCommand, policy: PermissionPolicy): string | undefined {
  if (command.assignments.length > 0) return "a variable assignment (NAME=value)";
  for (const word of command.words) {
    const expanded = expandBraces(word.source);
    if (expanded.length !== 1 || expanded[0] !== word.source) return "a brace expansion ({a,b})";
    if (hasGlob(word.source)) return "a glob pattern (*, ?, [)";
    if (word.source.startsWith("~")) return "a tilde (~) expansion";
  }
  for (const redirect of command.redirects) {
    if (!redirect.target) continue;
    if (!redirect.target.literal) return "a redirection to a computed path";
    const text = sourceText(redirect.target.source);
    if (DEVICE_TARGETS.has(text)) continue;
    if (command.cwd === undefined && !path.isAbsolute(text))
      return "a redirection after a cd to an unknown folder";
    const target = realPathOf(
      resolveShellPath(redirect.target, command.cwd ?? policy.root, policy.home ?? os.homedir()),
    );
    if (!isInside(target, policy.root)) return `a redirection outside the workspace (${text})`;
  }
  return undefined;
}

const DEVICE_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);

/**
 * A read-only command whose path arguments and input redirections stay inside the workspace:
 * true; false when the command is not on the read-only list; otherwise the word that makes
 * this call not read-only.
 */
function readOnlyInside(
  command: ShellCommand,
  words: string[],
  policy: PermissionPolicy,
): boolean | NotReadOnly {
  const verdict = readOnlyVerdict(words);
  if (!verdict) return false;
  if ("notReadOnly" in verdict) return verdict.notReadOnly;
  const unknownFolder: NotReadOnly = {
    word: words[0],
    reason: "it runs after a cd to a folder hx cannot tell",
  };
  // Files its redirections write are judged as writes (see coverLine); what it reads must stay inside.
  for (const redirect of command.redirects) {
    if (!redirect.target || redirect.operator !== "<") continue;
    if (command.cwd === undefined) return unknownFolder;
    const input = realPathOf(resolveShellPath(redirect.target, command.cwd, policy.home ?? os.homedir()));
    if (!isInside(input, policy.root) && input !== "/dev/null")
      return { word: sourceText(redirect.target.source), reason: `${input} is outside the workspace` };
  }
  if (!verdict.pathArguments) return true;
  if (command.cwd === undefined) return unknownFolder;
  const home = policy.home ?? os.homedir();
  for (const word of command.words.slice(1)) {
    const text = sourceText(word.source);
    const value = text.startsWith("-") ? (text.includes("=") ? text.slice(text.indexOf("=") + 1) : "") : text;
    if (value === "") continue;
    const resolved = realPathOf(resolveShellPath({ ...word, source: value }, command.cwd, home));
    if (!isInside(resolved, policy.root))
      return { word: text, reason: `${resolved} is outside the workspace` };
  }
  // A value glued to a short option may name a file it reads (`date -f/etc/shadow`); one
  // character is a delimiter (`cut -d/`).
  for (const value of verdict.gluedValues) {
    if (value.length < 2 && value !== "~") continue;
    const word = { source: value.replace(/[\\*?[\]{}'"$`]/g, "\\$&"), literal: true, splits: false };
    const resolved = realPathOf(resolveShellPath(word, command.cwd, home));
    if (!isInside(resolved, policy.root))
      return { word: value, reason: `${resolved} is outside the workspace` };
  }
  return true;
}

/** A command a wrapper runs that is read-only with every word literal and its paths inside the workspace. */
function readOnlyView(view: CommandView, policy: PermissionPolicy): boolean {
  if (!view.words.every((word) => word.literal) || view.cwd === undefined) return false;
  const texts = view.words.map((word) => word.text);
  const call = readOnlyVerdict(texts);
  if (!call || !("pathArguments" in call)) return false;
  if (!call.pathArguments) return true;
  const cwd = view.cwd;
  const inside = (value: string) =>
    !value.startsWith("~") && isInside(realPathOf(path.resolve(cwd, value)), policy.root);
  if (!call.gluedValues.every((value) => (value.length < 2 && value !== "~") || inside(value))) return false;
  return texts.slice(1).every((text) => {
    const value = text.startsWith("-") ? (text.includes("=") ? text.slice(text.indexOf("=") + 1) : "") : text;
    return value === "" || inside(value);
  });
}

function literalWord(text: string): ViewWord {
  return { text, literal: true, splits: false, glob: false };
}

/** The first view (command) of a line that a rule in `rules` matches. */
function matchViews(
  rules: RuleSet,
  tool: string,
  views: readonly CommandView[],
): { rule: PermissionRule; view: CommandView } | undefined {
  if (!rules.has(tool)) return undefined;
  for (const view of views) {
    const rule = rules.matchCommand(tool, view.words, { basename: true, dynamicMatches: true });
    if (rule) return { rule, view };
  }
  return undefined;
}

/** ` (in \`curl x\`)` when the matching command is not simply the whole line. */
function viewNote(view: CommandView, target: RuleTarget): string {
  const text = view.words.map((word) => (word.literal ? word.text : "$…")).join(" ");
  if (text === target.subject?.trim().replace(/\s+/g, " ")) return "";
  return ` (in \`${text.length > 80 ? `${text.slice(0, 77)}...` : text}\`)`;
}

function planDenial(label: string, writes: boolean, why = ""): PermissionDecision {
  const what = writes ? "changes files" : "runs a command that is not read-only";
  return {
    action: "deny",
    band: "plan",
    reason: `plan mode is read-only and ${label} ${what}${why}. Finish the plan and present it; the user can leave plan mode with --permission-mode default.`,
  };
}

function protectedReason(label: string, shown: string): string {
  return `${label} writes to ${shown}, a protected path (hx and Claude Code settings, MCP servers, git config and hooks, shell start-up files); such writes are asked in every mode and never saved as "always"`;
}

function displayPath(absolute: string, root: string): string {
  return isInside(absolute, root) ? normalizePath(absolute, root) || "." : absolute;
}

/** `bash(git status)`, `write_file(src/a.ts)` or just the tool name. */
export function describeCall(target: Pick<RuleTarget, "tool" | "subject">): string {
  return target.subject === undefined ? target.tool : `${target.tool}(${target.subject})`;
}
