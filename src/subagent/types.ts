import type { AgentResult } from "../core/events.js";

/** What the task tool reports when a subagent ends (for SubagentStop hooks and stats). */
/** What the task tool reports when a subagent starts (for SubagentStart hooks). */
export interface SubagentStartInfo {
  /** The task call's id: Claude Code's `agent_id`. */
  id: string;
  description: string;
  agentType: string;
}

export interface SubagentStopInfo {
  /** The task call's id: Claude Code's `agent_id`. */
  id?: string;
  /** The task's short description, also the label of its wrapped events. */
  description: string;
  agentType?: string;
  result: AgentResult;
}
