// Hooks: commands from settings run at Claude Code's events (PreToolUse, Stop, SessionStart…),
// their registry, the session's hooks as loop extensions, and the `hooks` settings fragment.
export {
  DEFAULT_STOP_HOOK_LIMIT,
  type SessionHooks,
} from "./hooks.js";

export {
  hookSettingsSchema,
  logHooksSchema,
  maxStopHookContinuationsSchema,
  mergeHookSettings,
  newerHookEvent,
} from "./settings.js";
