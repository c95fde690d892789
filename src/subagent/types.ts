import type { AgentResult } from "../core/events.js";

/** What the task tool reports when a subagent ends (for SubagentStop hooks and stats). */
export interface SubagentStopInfo {
  /** The task's short description, also the label of its wrapped events. */
  description: string;
  agentType?: string;
  result: AgentResult;
}
