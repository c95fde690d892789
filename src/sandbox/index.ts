export { describeNetwork, describeSandbox } from "./describe.js";
export { type DomainPolicy, domainPatternProblem, normalizeHost } from "./domains.js";
export { describeInside, inspectSandbox, type SandboxInside } from "./inspect.js";
export {
  formatNetworkQuestion,
  type NetworkAnswer,
  type NetworkAsker,
  type NetworkRequest,
  parseNetworkAnswer,
} from "./network.js";
export { resolveSandboxOptions, sandboxNoteForModel } from "./policy.js";
export { createSandbox, type SandboxOptions } from "./sandbox.js";
export type {
  CommandSandbox,
  SandboxLaunch,
  SandboxMode,
  SandboxRefusal,
  SandboxSettings,
  SandboxStatus,
} from "./types.js";
export { isSandboxMode, SANDBOX_MODES } from "./types.js";
