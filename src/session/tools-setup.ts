import type { Capability } from "../agent/capability.js";
import { createBaseTools } from "../tools/base-tools.js";
import type { BashToolOptions } from "../tools/bash.js";

/** The built-in workspace tools (bash, files, search), also the pool subagents draw from. */
export function setUpBaseTools(
  options: { bash?: BashToolOptions } = {},
): Capability & { tools: ReturnType<typeof createBaseTools> } {
  return { name: "tools", tools: createBaseTools(options) };
}
