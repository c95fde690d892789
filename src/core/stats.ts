import { addUsage, emptyUsage, type Usage } from "./messages.js";

/** Counters for the closing stats line. */
export interface AgentStats {
  /** Model requests made. */
  turns: number;
  toolCalls: number;
  /** Calls refused by permissions or hooks. */
  blocked: number;
  usage: Usage;
}

export function emptyStats(): AgentStats {
  return { turns: 0, toolCalls: 0, blocked: 0, usage: emptyUsage() };
}

export function addStats(a: AgentStats, b: AgentStats): AgentStats {
  return {
    turns: a.turns + b.turns,
    toolCalls: a.toolCalls + b.toolCalls,
    blocked: a.blocked + b.blocked,
    usage: addUsage(a.usage, b.usage),
  };
}
