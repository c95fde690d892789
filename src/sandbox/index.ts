export { describeSandbox } from "./describe.js";
export { type DomainPolicy, domainPatternProblem, normalizeHost } from "./domains.js";
export { describeInside, inspectSandbox, type SandboxInside } from "./inspect.js";
export type { NetworkAsker } from "./network.js";
export { resolveSandboxOptions, sandboxNoteForModel } from "./policy.js";
export { createSandbox, type SandboxOptions } from "./sandbox.js";
export type {
  CommandSandbox,
  SandboxMode,
  SandboxSettings,
  SandboxStatus,
} from "./types.js";
