import type { ProcessGroups } from "../process/process-groups.js";
import { type HookEventName, type HookPayload, MATCHED_FIELD } from "./events.js";
import type { HookRegistry } from "./registry.js";
import { runCommandHook } from "./runner.js";
import { emptyVerdict, type HookVerdict } from "./verdict.js";

export type { HookVerdict } from "./verdict.js";

export interface DispatchOptions {
  sessionId: string;
  cwd: string;
  /** The Claude Code-shaped transcript hooks may read (`transcript_path`). */
  transcriptPath: string;
  /** The permission mode now (`permission_mode`). */
  permissionMode: () => string;
  signal?: AbortSignal;
  /** The environment hooks start from (secrets removed). */
  baseEnv?: Record<string, string>;
  /** Registers running hooks so hx's exit kills them. */
  groups?: ProcessGroups;
}

/**
 * Runs every hook registered for `event` in parallel with the same payload, and folds their
 * outcomes: any block wins, failures become warnings. Tool events pick hooks by the tool's
 * names (`names`: hx's and Claude Code's); others by their matched field (`source`, `trigger`…).
 */
export async function dispatchHooks(
  registry: HookRegistry,
  event: HookEventName,
  fields: Record<string, unknown>,
  options: DispatchOptions & { names?: readonly string[] },
): Promise<HookVerdict> {
  const field = MATCHED_FIELD[event];
  const names = options.names ?? (field !== undefined ? [String(fields[field] ?? "")] : undefined);
  const hooks = registry.hooksFor(event, names);
  if (hooks.length === 0) return emptyVerdict();
  const payload: HookPayload = {
    session_id: options.sessionId,
    transcript_path: options.transcriptPath,
    cwd: options.cwd,
    permission_mode: options.permissionMode(),
    hook_event_name: event,
    ...fields,
  };
  const outcomes = await Promise.all(
    hooks.map((hook) =>
      runCommandHook(hook.command, payload, {
        cwd: options.cwd,
        timeoutMs: hook.timeoutMs,
        signal: options.signal,
        baseEnv: options.baseEnv,
        env: hook.env,
        groups: options.groups,
      }),
    ),
  );
  // Read only when a hook ran: hooks' JSON answers are checked with zod.
  const { foldOutcomes } = await import("./fold-outcomes.js");
  return foldOutcomes(hooks, outcomes);
}
