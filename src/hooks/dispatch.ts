import type { HookEventName, HookPayload } from "./events.js";
import type { ConfiguredHook, HookRegistry } from "./registry.js";
import { type HookOutcome, runCommandHook } from "./runner.js";

/** What the hooks of one event decided together. */
export interface HookVerdict {
  /** Set when a hook exited 2: the hooks' stderr, the reason for blocking. */
  blocked?: string;
  /** Stdout of the hooks that exited 0. */
  outputs: string[];
  /** One line per hook that failed (other exit codes, crash, timeout, spawn failure). */
  warnings: string[];
}

export interface DispatchOptions {
  sessionId: string;
  cwd: string;
  signal?: AbortSignal;
}

/**
 * Runs every hook registered for `event` (and `tool`, for tool events) in parallel with the
 * same payload, and folds their outcomes: any exit 2 blocks, failures become warnings.
 */
export async function dispatchHooks(
  registry: HookRegistry,
  event: HookEventName,
  fields: Record<string, unknown>,
  options: DispatchOptions & { tool?: string },
): Promise<HookVerdict> {
  const hooks = registry.hooksFor(event, options.tool);
  if (hooks.length === 0) return { outputs: [], warnings: [] };
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
      }),
    ),
  );
  return foldOutcomes(hooks, outcomes);
}

export function foldOutcomes(hooks: ConfiguredHook[], outcomes: HookOutcome[]): HookVerdict {
  const verdict: HookVerdict = { outputs: [], warnings: [] };
  const reasons: string[] = [];
  outcomes.forEach((outcome, index) => {
    const hook = hooks[index];
    if (outcome.kind === "success") {
      if (outcome.stdout) verdict.outputs.push(outcome.stdout);
    } else if (outcome.kind === "block") {
      reasons.push(
        outcome.stderr ||
          `blocked by the ${hook.event} hook \`${hook.command}\` (it gave no reason on stderr)`,
      );
    } else {
      verdict.warnings.push(`${hook.event} hook \`${hook.command}\` ${outcome.message}; going on.`);
    }
  });
  if (reasons.length > 0) verdict.blocked = reasons.join("\n");
  return verdict;
}
