import type { RunFailure } from "./errors.js";
import type { AssistantMessage, ToolCall, ToolResultMessage, Usage } from "./messages.js";
import type { AgentStats } from "./stats.js";

/** Streamed pieces of the answer, for display while the model is still talking. */
export type StreamDelta = { type: "text"; text: string } | { type: "reasoning"; text: string };

/**
 * Told before each retry wait. The answer of this call starts again: whatever was streamed
 * through `onDelta` since the call began (or since the last retry) is void; `discard` counts it.
 */
export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  /** The wait hx really sleeps before trying again. */
  delayMs: number;
  reason: string;
  /** Characters of streamed text and reasoning that the restarted answer replaces. */
  discard: { text: number; reasoning: number };
}

/** Why a run ended; "length": the final answer was cut at the model's output limit. */
type StopKind = "done" | "length" | "max_turns" | "ended" | "aborted" | "error";

export interface AgentResult {
  /** The model's final answer (empty when the run did not finish). */
  text: string;
  stop: StopKind;
  stats: AgentStats;
  error?: RunFailure;
}

/**
 * Everything the loop reports. Front ends (trace lines, JSON output, the REPL) subscribe; the
 * loop never writes to a terminal itself.
 */
export type AgentEvent =
  | { type: "turn_start"; turn: number }
  | { type: "delta"; delta: StreamDelta }
  | { type: "assistant_message"; message: AssistantMessage; usage: Usage }
  /** `tool`: the tool that runs, when another stands for it (`call_mcp_tool` → `mcp__s__t`). */
  | { type: "tool_call"; call: ToolCall; args: unknown; tool?: string }
  /**
   * Output a running call has produced, as it comes (a command's output, in pieces): for the
   * user to watch. The model reads only the call's result.
   */
  | { type: "tool_progress"; callId: string; text: string }
  | { type: "tool_result"; call: ToolCall; result: ToolResultMessage; blocked: boolean }
  /** The model call is retried: the answer streamed so far in this turn is void (`discard`). */
  | ({ type: "retry" } & RetryInfo)
  | { type: "notice"; level: "info" | "warn"; text: string }
  | { type: "subagent"; label: string; event: AgentEvent }
  | { type: "end"; result: AgentResult };

export type EventSink = (event: AgentEvent) => void;
