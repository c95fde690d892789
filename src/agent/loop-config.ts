import type { Conversation } from "../core/conversation.js";
import type { EventSink } from "../core/events.js";
import { emptyStats } from "../core/stats.js";
import type { ModelProvider } from "../providers/provider.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { Workspace } from "../tools/workspace.js";
import type { LoopExtension, LoopState } from "./extension.js";

/** Everything one run of the loop works with; the history is passed beside it. */
export interface AgentLoopConfig {
  provider: ModelProvider;
  /** Sent unchanged on every request, so providers can cache the prefix. */
  system: string;
  tools: ToolRegistry;
  workspace: Workspace;
  maxTurns: number;
  /** How many times onStop may send the model back to work in one run; default 3. */
  maxStopContinuations?: number;
  extensions: LoopExtension[];
  emit: EventSink;
  signal?: AbortSignal;
  /** Nobody watches this run (a background subagent): extensions must not ask the user. */
  unattended?: boolean;
}

/** A run's fresh state: turn 0, no counts yet; `endRun` is how an extension ends the run. */
export function newLoopState(
  config: AgentLoopConfig,
  conversation: Conversation,
  endRun: (reason: string) => void,
): LoopState {
  return {
    conversation,
    turn: 0,
    stats: emptyStats(),
    emit: config.emit,
    signal: config.signal ?? new AbortController().signal,
    unattended: config.unattended === true,
    endRun,
  };
}
