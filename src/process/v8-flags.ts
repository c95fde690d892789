import { setFlagsFromString } from "node:v8";

/**
 * The launcher's hook (bin/hx.cjs sets it when this run is to write V8's code cache): saves
 * the cache now. V8 refuses a cache made under other flags than a run's own, so a run about to
 * change them saves it first, or runs that always change them (every session that checks a
 * bash command) would never get one.
 */
const SAVE_CODE_CACHE = Symbol.for("hx.saveCodeCache");

/** Sets V8 flags for the rest of the process, letting the launcher save its code cache first. */
export function setV8Flags(flags: string): void {
  const save = (globalThis as Record<symbol, unknown>)[SAVE_CODE_CACHE];
  if (typeof save === "function") save();
  setFlagsFromString(flags);
}
