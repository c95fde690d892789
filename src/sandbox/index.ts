// The OS sandbox: creating one for the settings, describing and inspecting it, explaining a
// refusal, the network question, and the `sandbox` settings fragment.
export { describeSandbox } from "./describe.js";
export { type DomainPolicy, domainPatternProblem, normalizeHost } from "./domains.js";
export { explainSandboxFailure, sandboxEscalation } from "./explain.js";
export { describeInside, inspectSandbox, type SandboxInside } from "./inspect.js";
export type { NetworkAsker } from "./network.js";
export { formatNetworkQuestion, parseNetworkAnswer } from "./network.js";
export { resolveSandboxOptions, sandboxNoteForModel } from "./policy.js";
export { createSandbox, type SandboxOptions } from "./sandbox.js";
export { mergeSandboxSettings, sandboxSettingsSchema } from "./settings.js";
export type {
  CommandSandbox,
  SandboxMode,
  SandboxSettings,
  SandboxStatus,
} from "./types.js";
export { isSandboxMode, SANDBOX_MODES, type SandboxLaunch } from "./types.js";
