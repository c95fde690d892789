import type { Conversation } from "../core/conversation.js";
import type { EventSink } from "../core/events.js";
import type { AgentStats } from "../core/stats.js";
import type { Escalation, Grant, ToolOutput } from "../core/tool.js";
import type { ProviderError } from "../providers/provider.js";
import type { PreparedCall } from "../tools/registry.js";

/** What extensions may look at and change while a run is going on. */
export interface LoopState {
  /** The history; extensions append or replace through it, keeping call/result pairs intact. */
  conversation: Conversation;
  /** Model requests made so far in this run. */
  turn: number;
  stats: AgentStats;
  emit: EventSink;
  signal: AbortSignal;
  /**
   * Nobody watches this run (a background subagent): a call that would be asked is refused as
   * in a headless run, never put to a user who is busy with something else.
   */
  unattended?: boolean;
  /**
   * Ends the run at the next safe point (after the current tool call; calls not yet run get
   * a "not run" result), with `stop: "ended"`. `reason` is a sentence for the user. The first
   * reason wins.
   */
  endRun(reason: string): void;
}

/**
 * An extension's verdict on a tool call: `block` refuses it and becomes the tool result;
 * `args` replaces its arguments (a hook's `updatedInput`): they are checked against the tool's
 * schema again, and the extensions after this one see the new call.
 */
export type ToolDecision = { block: string } | { args: unknown } | undefined;

/**
 * A capability around the loop (permissions, hooks, reminders, compaction). The loop calls
 * every registered extension at these points, in order; it knows nothing else about them.
 * An extension that throws is reported as a warning and skipped, never fatal.
 */
export interface LoopExtension {
  name: string;
  /** Before each model request. May append to or replace `state.conversation`. */
  beforeModelCall?(state: LoopState): Promise<void> | void;
  /** Before a tool runs. The first extension that blocks wins. */
  beforeToolCall?(prepared: PreparedCall, state: LoopState): Promise<ToolDecision> | ToolDecision;
  /** After a tool ran. May replace the output. */
  afterToolCall?(
    prepared: PreparedCall,
    output: ToolOutput,
    state: LoopState,
  ): Promise<ToolOutput | undefined> | ToolOutput | undefined;
  /**
   * After a call the OS sandbox refused (its output carries an `Escalation`): a `Grant` runs
   * it again with more, `{ instead }` adds the user's words to the refusal; undefined leaves
   * the refusal as it is. The first extension that answers wins. Only the user may grant it:
   * an extension answers from a question, never on its own.
   */
  onEscalation?(
    prepared: PreparedCall,
    escalation: Escalation,
    state: LoopState,
  ): Promise<Grant | { instead: string } | undefined> | Grant | { instead: string } | undefined;
  /** When the model answered without tools. Returning text feeds it back and the loop goes on. */
  onStop?(finalText: string, state: LoopState): Promise<string | undefined> | string | undefined;
  /** When the model request failed. Returning "retry" makes the loop send it again once. */
  onModelError?(error: ProviderError, state: LoopState): Promise<"retry" | undefined> | "retry" | undefined;
}
