import type { Capability } from "../agent/capability.js";
import { createRepeatedCallGuard } from "./repeated-call-guard.js";

/** Small extensions that keep a run sane (the repeated-call guard). */
export function setUpGuards(): Capability {
  return { name: "guards", extensions: [createRepeatedCallGuard()] };
}
