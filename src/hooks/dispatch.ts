import type { ProcessGroups } from "../process/process-groups.js";
import type { HookEventName, HookPayload } from "./events.js";
import type { HookRegistry } from "./registry.js";
import { runCommandHook } from "./runner.js";
import { emptyVerdict, type HookVerdict } from "./verdict.js";

export type { HookPermission, HookVerdict } from "./verdict.js";

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
  // Read only when a hook ran: hooks' JSON answers are checked with zod.
  const { foldOutcomes } = await import("./fold-outcomes.js");
  return foldOutcomes(hooks, outcomes);
}
