import { createBaseTools } from "../tools/base-tools.js";
import type { Capability } from "./capability.js";

/** The built-in workspace tools (bash, files, search), also the pool subagents draw from. */
export function setUpBaseTools(): Capability & { tools: ReturnType<typeof createBaseTools> } {
  return { name: "tools", tools: createBaseTools() };
}
