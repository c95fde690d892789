export {
  createSessionHooks,
  DEFAULT_STOP_HOOK_LIMIT,
  type SessionHooks,
} from "./hooks.js";

export { HookRegistry } from "./registry.js";
