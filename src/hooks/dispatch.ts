import type { ProcessGroups } from "../process/process-groups.js";
import type { HookEventName, HookPayload } from "./events.js";
import { parseHookStdout } from "./json-output.js";
import type { ConfiguredHook, HookRegistry } from "./registry.js";
import { boundHookText, type HookOutcome, runCommandHook } from "./runner.js";

/** A PreToolUse hook's say on the permission check (a deny is `blocked`). */
export interface HookPermission {
  decision: "allow" | "ask";
  reason?: string;
}

/** What the hooks of one event decided together. */
export interface HookVerdict {
  /** Set when a hook blocked (exit 2, `decision: "block"`, `permissionDecision: "deny"`): the reasons. */
  blocked?: string;
  /** Plain-text stdout of the hooks that exited 0. */
  outputs: string[];
  /** `hookSpecificOutput.additionalContext` of the hooks' JSON answers. */
  context: string[];
  /** `systemMessage`s: for the user, not the model. */
  messages: string[];
  /** PreToolUse only: `permissionDecision` allow or ask (ask wins over allow). */
  permission?: HookPermission;
  /** Set when a hook answered `continue: false`: why the run stops. */
  stop?: string;
  /** One line per hook that failed (other exit codes, crash, timeout, spawn failure, unreadable JSON). */
  warnings: string[];
}

export interface DispatchOptions {
  sessionId: string;
  cwd: string;
  signal?: AbortSignal;
  /** The environment hooks start from (secrets removed). */
  baseEnv?: Record<string, string>;
  /** Registers running hooks so hx's exit kills them. */
  groups?: ProcessGroups;
}

/**
 * Runs every hook registered for `event` (and `tool`, for tool events) in parallel with the
 * same payload, and folds their outcomes: any block wins, failures become warnings.
 */
export async function dispatchHooks(
  registry: HookRegistry,
  event: HookEventName,
  fields: Record<string, unknown>,
  options: DispatchOptions & { tool?: string },
): Promise<HookVerdict> {
  const hooks = registry.hooksFor(event, options.tool);
  if (hooks.length === 0) return emptyVerdict();
  const payload: HookPayload = {
    hook_event_name: event,
    session_id: options.sessionId,
    cwd: options.cwd,
    ...fields,
  };
  const outcomes = await Promise.all(
    hooks.map((hook) =>
      runCommandHook(hook.command, payload, {
        cwd: options.cwd,
        timeoutMs: hook.timeoutMs,
        signal: options.signal,
        baseEnv: options.baseEnv,
        groups: options.groups,
      }),
    ),
  );
  return foldOutcomes(hooks, outcomes);
}

function emptyVerdict(): HookVerdict {
  return { outputs: [], context: [], messages: [], warnings: [] };
}

/**
 * Folds the outcomes of one event's hooks. Exit codes first (2 blocks, others warn); on exit 0
 * a JSON object on stdout is read as Claude Code's answer: `decision: "block"` with `reason`,
 * `hookSpecificOutput.permissionDecision` (PreToolUse) with `permissionDecisionReason`,
 * `additionalContext`, `continue: false` with `stopReason`, `systemMessage`.
 */
export function foldOutcomes(hooks: ConfiguredHook[], outcomes: HookOutcome[]): HookVerdict {
  const verdict = emptyVerdict();
  const reasons: string[] = [];
  outcomes.forEach((outcome, index) => {
    const hook = hooks[index];
    const name = `${hook.event} hook \`${hook.command}\``;
    if (outcome.kind === "block") {
      reasons.push(outcome.stderr || `blocked by the ${name} (it gave no reason on stderr)`);
      return;
    }
    if (outcome.kind === "failure") {
      verdict.warnings.push(`${name} ${outcome.message}; going on.`);
      return;
    }
    const parsed = parseHookStdout(outcome.stdout);
    if (parsed.kind === "text") {
      if (parsed.text) verdict.outputs.push(boundHookText(parsed.text));
      return;
    }
    if (parsed.kind === "invalid") {
      verdict.warnings.push(
        `${name} printed JSON hx cannot read (${parsed.problem}); its answer was ignored.`,
      );
      return;
    }
    const answer = parsed.output;
    if (answer.systemMessage) verdict.messages.push(answer.systemMessage);
    if (answer.continue === false) verdict.stop ??= answer.stopReason || `the ${name} stopped the run`;
    const specific = answer.hookSpecificOutput;
    if (specific?.additionalContext) verdict.context.push(boundHookText(specific.additionalContext));
    if (answer.decision === "block") reasons.push(answer.reason || `blocked by the ${name}`);
    if (hook.event !== "PreToolUse") return;
    const permission = specific?.permissionDecision ?? (answer.decision === "approve" ? "allow" : undefined);
    const reason = specific?.permissionDecisionReason || answer.reason || undefined;
    if (permission === "deny") reasons.push(reason || `denied by the ${name}`);
    else if (permission === "ask" || (permission === "allow" && verdict.permission?.decision !== "ask"))
      verdict.permission = { decision: permission, reason };
  });
  if (reasons.length > 0) verdict.blocked = reasons.join("\n");
  return verdict;
}
