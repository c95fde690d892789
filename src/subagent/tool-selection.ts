import type { Tool } from "../tools/tool.js";

/**
 * The tools a subagent may have, as in the seed: it explores and edits, but cannot start
 * another subagent, keep the parent's todo list or load skills. This is configuration for the
 * session to pass (or override), not a rule the code checks by name anywhere else.
 */
export const SUBAGENT_TOOL_NAMES: readonly string[] = [
  "bash",
  "read_file",
  "write_file",
  "edit_file",
  "glob",
  "grep",
];

/** Agent types the task tool accepts; `explore` gets read-only tools. */
export const AGENT_TYPES = ["general", "explore"] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

/** The allowed tools, in the order given; for `explore`, only those whose effect is `read`. */
export function selectSubagentTools(
  tools: readonly Tool[],
  allowedNames: readonly string[],
  agentType: AgentType,
): Tool[] {
  const allowed = new Set(allowedNames);
  return tools.filter(
    (tool) => allowed.has(tool.name) && (agentType !== "explore" || tool.effect === "read"),
  );
}
