/** A PreToolUse hook's say on the permission check (a deny is `blocked`). */
interface HookPermission {
  decision: "allow" | "ask";
  reason?: string;
}

/**
 * Every PreToolUse verdict, as the hooks extension hands it to the permission check: allow or
 * ask (`permissionDecision`), or deny (exit 2, `decision: "block"`, `permissionDecision: "deny"`,
 * `continue: false`) with `message`, the tool result the model reads, in the hook's words.
 */
export type PreToolUsePermission = HookPermission | { decision: "deny"; reason: string; message: string };

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
  /** PreToolUse: the call's new input from `updatedInput`, in Claude Code's fields. */
  updatedInput?: Record<string, unknown>;
  /** PermissionRequest: a hook answered the question (`hookSpecificOutput.decision`; exit 2 is a deny). */
  answer?: { behavior: "allow" | "deny"; message?: string; updatedInput?: Record<string, unknown> };
  /** What hooks that went on wrote on stderr, one entry per hook, for `--verbose`. */
  stderr: string[];
  /** Set when a hook answered `continue: false`: why the run stops. */
  stop?: string;
  /** One line per hook that failed (other exit codes, crash, timeout, spawn failure, unreadable JSON). */
  warnings: string[];
}

export function emptyVerdict(): HookVerdict {
  return { outputs: [], context: [], messages: [], stderr: [], warnings: [] };
}
