/** Events hx fires, at the moments Claude Code fires them. */
const FIRED = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "Notification",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "SessionEnd",
] as const;

/**
 * Events hx has no moment for: `Setup` (claude --init), `TeammateIdle` and `TaskCompleted`
 * (agent teams), `ConfigChange` (a settings file changed mid-session), `InstructionsLoaded`,
 * `WorktreeCreate` / `WorktreeRemove` (hooks that replace how Claude Code makes a worktree).
 */
const UNFIRED = [
  "Setup",
  "TeammateIdle",
  "TaskCompleted",
  "ConfigChange",
  "InstructionsLoaded",
  "WorktreeCreate",
  "WorktreeRemove",
] as const;

/**
 * Every hook event Claude Code has, by its name there. A settings file copied from Claude Code
 * may name any of them; hx runs the hooks of the events it fires (FIRED_EVENTS) and warns about
 * the others, never refusing the file.
 */
export const HOOK_EVENTS = [...FIRED, ...UNFIRED] as const;

export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Events hx fires: every Claude Code event but those it has no moment for. */
export const FIRED_EVENTS: ReadonlySet<HookEventName> = new Set(FIRED);

/** Events whose hooks are chosen by tool name (the matcher). */
export const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
]);

/**
 * The payload field other events' matchers are matched against, as in Claude Code
 * (`"SessionStart": [{ "matcher": "compact", ... }]`). Events absent here ignore matchers.
 */
export const MATCHED_FIELD: Readonly<Partial<Record<HookEventName, string>>> = {
  SessionStart: "source",
  PreCompact: "trigger",
  Notification: "notification_type",
  SessionEnd: "reason",
  SubagentStart: "agent_type",
  SubagentStop: "agent_type",
  Setup: "trigger",
};

export function isHookEvent(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/**
 * The JSON a command hook reads on stdin, in Claude Code's shape: always `hook_event_name`,
 * `session_id`, `transcript_path`, `cwd` and `permission_mode`; then each event's own fields
 * (docs/hooks.md lists them).
 */
export interface HookPayload {
  hook_event_name: HookEventName;
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
  [field: string]: unknown;
}
