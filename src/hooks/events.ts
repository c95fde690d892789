/** The moments hooks can run at, named as in Claude Code. */
export const HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Stop",
  "SubagentStop",
  /** Reserved for context compaction. */
  "PreCompact",
] as const;

export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Events whose hooks are chosen by tool name (the matcher); the others ignore matchers. */
export const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set(["PreToolUse", "PostToolUse"]);

export function isHookEvent(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/**
 * The JSON a command hook reads on stdin. Always `hook_event_name`, `session_id` and `cwd`;
 * then per event: `prompt` (UserPromptSubmit), `tool_name` + `tool_input` (PreToolUse),
 * plus `tool_output` (PostToolUse), `stop_hook_active` (Stop), `source` (SessionStart),
 * `description` / `agent_type` / `final_text` (SubagentStop), `trigger` (PreCompact).
 */
export interface HookPayload {
  hook_event_name: HookEventName;
  session_id: string;
  cwd: string;
  [field: string]: unknown;
}
