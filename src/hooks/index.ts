export { dispatchHooks, type HookVerdict } from "./dispatch.js";
export { HOOK_EVENTS, type HookEventName, type HookPayload, isHookEvent } from "./events.js";
export {
  createSessionHooks,
  DEFAULT_STOP_HOOK_LIMIT,
  type HookPermissionAnswer,
  type HooksOptions,
  type SessionHooks,
} from "./hooks.js";
export { hookLogLine } from "./log-lines.js";
export { compileMatcher } from "./matcher.js";
export {
  type ConfiguredHook,
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  type HookOrigin,
  HookRegistry,
} from "./registry.js";
export { type HookOutcome, runCommandHook } from "./runner.js";
