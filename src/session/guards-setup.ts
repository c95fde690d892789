import { createRepeatedCallGuard } from "../guards/repeated-call-guard.js";
import type { Capability } from "../agent/capability.js";

/** Small extensions that keep a run sane (the repeated-call guard). */
export function setUpGuards(): Capability {
  return { name: "guards", extensions: [createRepeatedCallGuard()] };
}
