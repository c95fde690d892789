import type { LoopExtension, LoopState, ToolDecision } from "../agent/extension.js";
import { localSettingsPath } from "../config/settings.js";
import { errorMessage } from "../core/error-message.js";
import type { Escalation, Grant } from "../core/tool.js";
import type { PreparedCall } from "../tools/registry.js";
import type { Workspace } from "../tools/workspace.js";
import type { PermissionAnswer, PermissionAsker, PermissionRequest } from "./ask.js";
import type { BashParser } from "./bash-parser.js";
import { PermissionChecker } from "./checker.js";
import { type AskCause, describeCall, type PreToolUseVerdict } from "./decide.js";
import { addAllowRule } from "./local-settings.js";
import type { PermissionMode } from "./modes.js";
import { type PermissionRules, type RuleTarget, ruleFor } from "./rules.js";
import type { ScopedPermissionRules } from "./scoped-rules.js";

export interface PermissionOptions {
  /** Read at each call (a getter lets the interactive session change it between calls). */
  mode: PermissionMode;
  rules: PermissionRules;
  /** The project root: relative path rules are matched from here. */
  projectRoot: string;
  /** Passed to `ruleSubject`, so path subjects come out relative to the root, symlinks resolved. */
  workspace?: Workspace;
  /** Asks the user; leave out when nobody can answer (scripts, CI): such calls are denied at once. */
  ask?: PermissionAsker;
  /** Where "always" answers are saved; default `<projectRoot>/.hx/settings.local.json`. */
  localSettingsFile?: string;
  /**
   * False in a folder the user has not trusted (src/trust): its `.hx/settings.json` allows
   * nothing, so a refusal's advice names the user's settings and `hx trust` instead. Default true.
   */
  projectSettingsApply?: boolean;
  /** Allow the built-in read-only commands without a rule (default true). */
  readOnlyCommands?: boolean;
  /** The check to use; default one built from the options above. */
  checker?: PermissionChecker;
  /**
   * Loads the bash parser; share one per process (web-tree-sitter initialises once): several
   * extensions (a subagent's worktree has its own) then use the same grammar.
   */
  loadParser?: () => Promise<BashParser>;
  /**
   * Rules something in the session holds for a while (an active skill's allowed-tools and
   * disallowed-tools), read at each call: see scoped-rules.ts for what they may change.
   */
  scopedRules?: () => ScopedPermissionRules | undefined;
  /**
   * What PreToolUse hooks said, every verdict: "deny" refuses the call in every mode (the model
   * reads the hook's `message`); "ask" asks even a call the rules allow; "allow" skips only the
   * question the mode would ask, never a deny or ask rule, the block list, a protected path or a
   * command hx cannot read. `handOver` tells the hooks that this extension now refuses their
   * denies (until then they refuse them themselves: a deny is never lost).
   */
  hookPermissions?: {
    get(prepared: PreparedCall): PreToolUseVerdict | undefined;
    handOver?(): void;
  };
  /**
   * Hooks around a question: PermissionRequest hooks may answer it (a deny always counts; an
   * allow only for a call no rule covers, as a PreToolUse allow), and Notification hooks hear
   * that a question waits for the user.
   */
  hookAnswers?: {
    answerPermission(
      prepared: PreparedCall,
      signal?: AbortSignal,
    ): Promise<{ behavior: "allow" | "deny"; message?: string } | undefined>;
    notify(message: string, type: string): Promise<void>;
  };
}

/**
 * Permissions as a loop extension: before each tool call, decide allow / ask / deny from the
 * block list, the rules and the mode (see decide.ts). A refusal becomes the tool result
 * `Permission denied: <why>`, which the loop counts as blocked. One instance serves a session
 * and its subagents, so an "always" answer holds for all of them.
 */
export function createPermissionExtension(options: PermissionOptions): LoopExtension {
  const checker =
    options.checker ??
    new PermissionChecker({
      mode: () => options.mode,
      rules: options.rules,
      root: options.workspace?.root ?? options.projectRoot,
      readOnlyCommands: options.readOnlyCommands,
      scopedRules: options.scopedRules,
      loadParser: options.loadParser,
    });
  options.workspace?.hideFromReads((absolute) => checker.isReadDenied(absolute));
  options.hookPermissions?.handOver?.();
  const settingsFile = options.localSettingsFile ?? localSettingsPath(options.projectRoot);
  // Questions go one at a time, even when several runs (subagents) ask at once.
  let questions: Promise<unknown> = Promise.resolve();

  async function askUser(request: PermissionRequest, asker: PermissionAsker): Promise<PermissionAnswer> {
    const answer = questions.then(() => (request.signal.aborted ? "no" : asker(request)));
    questions = answer.catch(() => undefined);
    try {
      return await answer;
    } catch {
      return "no";
    }
  }

  return {
    name: "permissions",
    /**
     * The last step of a call (decide → ask → run → on a sandbox refusal, ask again): the user
     * may have it run again outside the sandbox once, or with the refused folder or the network
     * for the session. Headless, nobody can grant it: the refusal goes to the model as it is.
     */
    async onEscalation(prepared: PreparedCall, escalation: Escalation, state: LoopState) {
      if (!options.ask) return undefined;
      const target: RuleTarget = {
        tool: prepared.tool.name,
        effect: prepared.tool.effect,
        subject: prepared.tool.ruleSubject?.(prepared.args, options.workspace),
      };
      const answer = await askUser(rerunQuestion(target, escalation, state.signal), options.ask);
      return state.signal.aborted ? undefined : grantFor(answer, escalation);
    },
    async beforeToolCall(prepared: PreparedCall, state: LoopState): Promise<ToolDecision> {
      const target: RuleTarget = {
        tool: prepared.tool.name,
        effect: prepared.tool.effect,
        subject: prepared.tool.ruleSubject?.(prepared.args, options.workspace),
        root: options.projectRoot,
      };
      // One procedure decides with every input, the hook's verdict included (decide.ts).
      const hook = options.hookPermissions?.get(prepared);
      const checked = await checker.check(target, { hook });
      const { decision } = checked;
      const label = describeCall(target);
      if (decision.action === "allow") return undefined;
      // A hook's refusal reads as the hook wrote it (Claude Code shows the hook's reason).
      if (decision.band === "hook-deny" && hook?.message) return { block: hook.message };
      if (decision.action === "deny") return { block: `Permission denied: ${decision.reason}` };
      const alwaysRules = decision.cause === "unruled" ? checked.alwaysRules : [];

      const hookAnswer = await options.hookAnswers?.answerPermission(prepared, state.signal);
      if (hookAnswer?.behavior === "deny")
        return { block: `Permission denied by a PermissionRequest hook: ${hookAnswer.message ?? label}` };
      if (hookAnswer?.behavior === "allow" && decision.cause === "unruled") return undefined;

      if (!options.ask || state.unattended)
        return {
          block: headlessDenial(target, decision, alwaysRules, {
            projectSettingsApply: options.projectSettingsApply ?? true,
          }),
        };

      void options.hookAnswers?.notify(`hx needs your permission to use ${label}`, "permission_prompt");

      const answer = await askUser(
        {
          tool: target.tool,
          effect: target.effect,
          subject: target.subject,
          rule: label,
          alwaysRules,
          reason: decision.reason,
          preview: previewOf(prepared, options.workspace),
          signal: state.signal,
        },
        options.ask,
      );
      if (state.signal.aborted)
        return { block: "Permission denied: the run was cancelled before the user answered." };
      if (typeof answer === "object") {
        return {
          block: `Permission denied: the user declined ${label} and says what to do instead: ${answer.instead}`,
        };
      }
      if (answer === "no") {
        return {
          block: `Permission denied: the user declined ${label}. Do not retry the same call; choose another way or ask the user.`,
        };
      }
      if (answer === "always") {
        if (alwaysRules.length === 0) {
          state.emit({
            type: "notice",
            level: "info",
            text: `Allowed once: no rule is saved for ${label} (${decision.cause === "protected" ? "it writes a protected path" : "no allow rule could cover it"}).`,
          });
          return undefined;
        }
        checker.addAllowRules(alwaysRules);
        for (const rule of alwaysRules) {
          try {
            await addAllowRule(settingsFile, rule);
            state.emit({
              type: "notice",
              level: "info",
              text: `Saved allow rule ${rule} to ${settingsFile}`,
            });
          } catch (error) {
            state.emit({
              type: "notice",
              level: "warn",
              text: `Could not save ${rule} to ${settingsFile}: ${errorMessage(error)}. It holds for this session only.`,
            });
          }
        }
      }
      return undefined;
    },
  };
}

/** What "for the session" adds after a sandbox refusal, as the question says it. */
function sessionAddition(escalation: Escalation): string | undefined {
  const more = escalation.session;
  if (!more) return undefined;
  return "writable" in more ? `let commands write ${more.writable}` : "turn the network on for commands";
}

/** The question after a sandbox refusal: run it again outside the sandbox, or with more in it. */
function rerunQuestion(target: RuleTarget, escalation: Escalation, signal: AbortSignal): PermissionRequest {
  const label = describeCall(target);
  const forSession = sessionAddition(escalation);
  return {
    tool: target.tool,
    effect: target.effect,
    subject: target.subject,
    rule: label,
    question: `The sandbox refused ${escalation.refused}. Run ${label} again outside it?`,
    reason: "outside the sandbox it can write and reach what you can; the model cannot ask this itself",
    alwaysRules: forSession ? [forSession] : [],
    labels: {
      yes: "Yes, run it once outside the sandbox",
      ...(forSession ? { always: `Yes, and ${forSession} for this session (in the sandbox)` } : {}),
    },
    signal,
  };
}

/** The user's answer as a grant: yes is once outside, always the session's addition; no is none. */
function grantFor(answer: PermissionAnswer, escalation: Escalation): Grant | { instead: string } | undefined {
  if (answer === "yes") return { scope: "once" };
  if (answer === "always") return escalation.session ? { scope: "session", escalation } : { scope: "once" };
  return typeof answer === "object" ? answer : undefined;
}

/** The denial for a call that would be asked when nobody can answer: says how to allow it. */
function headlessDenial(
  target: RuleTarget,
  decision: { reason: string; cause: AskCause },
  alwaysRules: readonly string[] = [],
  context: { projectSettingsApply?: boolean } = {},
): string {
  const label = describeCall(target);
  const { reason } = decision;
  switch (decision.cause) {
    case "rule":
      return `Permission denied: ${reason}, and there is no terminal to ask. Run hx in a terminal to approve it, or remove that ask rule from the settings.`;
    case "hook":
      return `Permission denied: ${reason}, and there is no terminal to ask. Run hx in a terminal to approve it.`;
    case "protected":
      return `Permission denied: ${reason}, and there is no terminal to ask (${label} was not run). Run hx in a terminal to approve it, or make the change yourself.`;
    case "unclear":
      return `Permission denied: ${reason}, and there is no terminal to ask (${label} was not run). Write it as plain commands with literal words that write only inside the workspace (no $(…), variables, globs, here-documents or redirections outside it), or run hx in a terminal to approve it.`;
    default: {
      const mode = target.effect === "write" ? "acceptEdits" : "bypassPermissions";
      const rules = alwaysRules.length > 0 ? [...alwaysRules] : [ruleFor(target)];
      const broader = broaderRule(target);
      if (broader && !rules.includes(broader) && alwaysRules.length <= 1) rules.push(broader);
      return `Permission denied: ${reason}, and there is no terminal to ask (${label} was not run). To allow it, add ${rules
        .map((rule) => JSON.stringify(rule))
        .join(alwaysRules.length > 1 ? " and " : " or ")} to permissions.allow in ${
        context.projectSettingsApply === false
          ? "~/.hx/settings.json (this folder is not trusted, so its own .hx/settings.json allows nothing until the user runs hx trust)"
          : ".hx/settings.json"
      }, or run with --permission-mode ${mode}.`;
    }
  }
}

/** `bash(git *)` for `bash(git status)`, `write_file(src/**)` for `write_file(src/a.ts)`. */
function broaderRule(target: RuleTarget): string | undefined {
  if (target.subject === undefined) {
    // `mcp__github__create_issue` → `mcp__github`, the namespace's rule.
    const cut = target.tool.lastIndexOf("__");
    return cut > 0 ? target.tool.slice(0, cut) : undefined;
  }
  if (target.effect === "execute") {
    const first = target.subject.trim().split(/\s+/)[0];
    return first && /^[A-Za-z0-9_./-]+$/.test(first) ? `${target.tool}(${first} *)` : undefined;
  }
  const slash = target.subject.lastIndexOf("/");
  return slash > 0 ? `${target.tool}(${target.subject.slice(0, slash)}/**)` : undefined;
}

/** The call's file change for the question; a preview that fails is left out, never fatal. */
function previewOf(prepared: PreparedCall, workspace: Workspace | undefined) {
  if (!workspace || !prepared.tool.preview) return undefined;
  try {
    return prepared.tool.preview(prepared.args, workspace);
  } catch {
    return undefined;
  }
}
