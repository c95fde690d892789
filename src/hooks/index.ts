// Hooks: commands from settings run at Claude Code's events (PreToolUse, Stop, SessionStart…),
// their registry, the session's hooks as loop extensions, and the `hooks` settings fragment.
export {
  createSessionHooks,
  DEFAULT_STOP_HOOK_LIMIT,
  type SessionHooks,
} from "./hooks.js";

export { HookRegistry } from "./registry.js";
export {
  type HookSettings,
  hookSettingsSchema,
  logHooksSchema,
  maxStopHookContinuationsSchema,
  mergeHookSettings,
  newerHookEvent,
} from "./settings.js";
