import type { AgentEvent, AgentResult, EventSink } from "../agent/events.js";
import type { LoopExtension } from "../agent/extension.js";
import { runAgentLoop } from "../agent/loop.js";
import { type AgentStats, addStats, emptyStats } from "../agent/stats.js";
import type { Message } from "../core/messages.js";
import type { ModelProvider } from "../providers/provider.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { Workspace } from "../tools/workspace.js";
import type { SlashCommand } from "./slash-commands.js";

/**
 * A step a prompt passes through before the model sees it: hooks may refuse it, a
 * `/skill-name` invocation may expand it. Returns the messages to add, or a refusal.
 */
export type PromptFilter = (
  prompt: string,
  session: AgentSession,
) => Promise<{ prompt: string } | { refuse: string }> | { prompt: string } | { refuse: string };

export interface AgentSessionParts {
  provider: ModelProvider;
  workspace: Workspace;
  tools: ToolRegistry;
  system: string;
  extensions: LoopExtension[];
  promptFilters: PromptFilter[];
  maxTurns: number;
  /** Called once per run with every event (transcripts, stats, ...), before the front end's sink. */
  observers: EventSink[];
  /** Where the conversation is saved, for `--resume`. */
  transcript?: { id: string; file: string };
}

export interface RunOptions {
  emit: EventSink;
  signal?: AbortSignal;
}

/** Outcome of one prompt, with session-wide totals for the stats line. */
export interface SessionRunResult extends AgentResult {
  refused?: string;
  /** Counters of the subagents this run started. */
  subagentStats: AgentStats;
}

/**
 * One conversation: its history, its tools and extensions. `run` takes a prompt, passes it
 * through the prompt filters, and drives the agent loop; history is kept for the next prompt.
 */
export class AgentSession {
  readonly messages: Message[] = [];
  total: AgentStats = emptyStats();
  /** `/name` commands of the interactive session. */
  commands: SlashCommand[] = [];

  constructor(readonly parts: AgentSessionParts) {}

  get system(): string {
    return this.parts.system;
  }

  async run(prompt: string, options: RunOptions): Promise<SessionRunResult> {
    let text = prompt;
    for (const filter of this.parts.promptFilters) {
      const verdict = await filter(text, this);
      if ("refuse" in verdict) {
        return {
          text: "",
          stop: "done",
          stats: emptyStats(),
          refused: verdict.refuse,
          subagentStats: emptyStats(),
        };
      }
      text = verdict.prompt;
    }

    let subagentStats = emptyStats();
    const emit: EventSink = (event: AgentEvent) => {
      if (event.type === "subagent" && event.event.type === "end") {
        subagentStats = addStats(subagentStats, event.event.result.stats);
      }
      for (const observer of this.parts.observers) observer(event);
      options.emit(event);
    };

    this.messages.push({ role: "user", content: text });
    const result = await runAgentLoop(
      {
        provider: this.parts.provider,
        system: this.parts.system,
        tools: this.parts.tools,
        workspace: this.parts.workspace,
        maxTurns: this.parts.maxTurns,
        extensions: this.parts.extensions,
        emit,
        signal: options.signal,
      },
      this.messages,
    );
    this.total = addStats(this.total, result.stats);
    return { ...result, subagentStats };
  }
}
