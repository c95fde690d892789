import type { Capability, PromptFilter, PromptRun, SlashCommand } from "../agent/capability.js";
import type { LoopExtension } from "../agent/extension.js";
import { runAgentLoop } from "../agent/loop.js";
import type { AgentLoopConfig } from "../agent/loop-config.js";
import { runToolCall, runUserCall } from "../agent/tool-calls.js";
import type { Conversation } from "../core/conversation.js";
import type { AgentEvent, AgentResult, EventSink } from "../core/events.js";
import {
  type ToolCall,
  type ToolResultMessage,
  type UserMessageMeta,
  userMessage,
} from "../core/messages.js";
import { type AgentStats, addStats, emptyStats } from "../core/stats.js";
import type { ToolEffect, ToolSchema } from "../core/tool.js";
import type { PermissionModeHandle } from "../permissions/capability.js";
import type { ModelProvider } from "../providers/provider.js";
import type { CommandSandbox } from "../sandbox/index.js";
import type { InvocableSkill } from "../skills/index.js";
import type { FileChange } from "../tools/file-change.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { Workspace } from "../tools/workspace.js";
import type { SwitchableModel } from "./switchable-model.js";

/** What `createSession` hands over; the session keeps it to itself. */
export interface AgentSessionInit {
  model: SwitchableModel;
  workspace: Workspace;
  conversation: Conversation;
  tools: ToolRegistry;
  system: string;
  maxTurns: number;
  /** How many times Stop hooks may send the model back in one prompt (settings.maxStopHookContinuations). */
  maxStopContinuations?: number;
  /** In the order they were built: extensions, filters, commands and observers keep it. */
  capabilities: readonly Capability[];
  /** Changes the permission mode between prompts. */
  permissions: PermissionModeHandle;
  /** Where the conversation is saved, for `--resume`. */
  transcript: { id: string; file: string };
  /** The OS sandbox commands run in. */
  sandbox?: CommandSandbox;
  /** The skills `/name` invokes (front ends complete and check command names with them). */
  skills?: () => ReadonlyArray<InvocableSkill>;
  /** Background commands and subagents, for what a headless result says was still running. */
  background?: { running(): ReadonlyArray<BackgroundJobSummary> };
}

/** A background job as a front end reports it. */
export interface BackgroundJobSummary {
  readonly id: string;
  readonly kind: "command" | "subagent";
  /** The command line, or the subagent's description. */
  readonly command: string;
  readonly startedAt: number;
}

/** A tool call as a front end shows it (see AgentSession.describeCall). */
export interface CallDescription {
  effect: ToolEffect;
  subject?: string;
  change?: FileChange;
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
 * One conversation with its tools and capabilities. `run` takes a prompt, passes it through
 * the prompt filters, and drives the agent loop; the history stays in `conversation` for the
 * next prompt. Front ends get what they need by name and call `close()` when done.
 */
export class AgentSession {
  readonly conversation: Conversation;
  readonly transcript: { id: string; file: string };
  /** The model; `model.switchTo(provider)` changes it for the next prompt. */
  readonly model: SwitchableModel;
  /** The permission mode; `permissions.set(mode)` changes it for the next tool call. */
  readonly permissions: PermissionModeHandle;
  /** The OS sandbox around commands: `status()` (or `await check()`) says what is in force, for the status line. */
  readonly sandbox?: CommandSandbox;
  /** Background jobs (`running()`), for what a headless result says was still running. */
  readonly background?: { running(): ReadonlyArray<BackgroundJobSummary> };
  private readonly invocable: () => ReadonlyArray<InvocableSkill>;
  private readonly extensions: LoopExtension[];
  private readonly promptFilters: PromptFilter[];
  private readonly observers: EventSink[];
  private totals: AgentStats = emptyStats();
  private closed?: Promise<void>;

  constructor(private readonly init: AgentSessionInit) {
    const from = <T>(pick: (c: Capability) => readonly T[] | undefined) =>
      init.capabilities.flatMap((c) => pick(c) ?? []);
    this.conversation = init.conversation;
    this.transcript = init.transcript;
    this.model = init.model;
    this.permissions = init.permissions;
    this.sandbox = init.sandbox;
    this.background = init.background;
    this.invocable = init.skills ?? (() => []);
    this.extensions = from((c) => c.extensions);
    this.promptFilters = from((c) => c.promptFilters);
    this.observers = from((c) => c.observers);
  }

  /**
   * `/name` commands of the interactive session, from every capability, read each time: a
   * capability may add commands later (the prompts of an MCP server that finished starting).
   */
  get commands(): readonly SlashCommand[] {
    return this.init.capabilities.flatMap((c) => c.commands ?? []);
  }

  /** The skills `/name` invokes now (with their argument hints), for completion; follows hot reloads. */
  get skills(): ReadonlyArray<InvocableSkill> {
    return this.invocable();
  }

  /** The system prompt every request of this session sends. */
  get systemPrompt(): string {
    return this.init.system;
  }

  /** Counters of every run so far. */
  get total(): AgentStats {
    return this.totals;
  }

  /** The tools as the model sees them (for /context and `hx context`). */
  toolSchemas(): readonly ToolSchema[] {
    return this.init.tools.schemas();
  }

  async run(prompt: string, options: RunOptions): Promise<SessionRunResult> {
    let subagentStats = emptyStats();
    const emit: EventSink = (event: AgentEvent) => {
      if (event.type === "subagent" && event.event.type === "end") {
        subagentStats = addStats(subagentStats, event.event.result.stats);
      }
      for (const observer of this.observers) observer(event);
      options.emit(event);
    };
    const run: PromptRun = {
      emit,
      signal: options.signal,
      runToolCall: (call) => this.runToolCall(call, { emit, signal: options.signal }),
    };
    let text = prompt;
    let meta: UserMessageMeta | undefined;
    let model: ModelProvider | undefined;
    for (const filter of this.promptFilters) {
      const verdict = await filter(text, run);
      if ("refuse" in verdict) {
        return {
          text: "",
          stop: "done",
          stats: emptyStats(),
          refused: verdict.refuse,
          subagentStats,
        };
      }
      text = verdict.prompt;
      if (verdict.meta) meta = { ...meta, ...verdict.meta };
      if (verdict.model) model = verdict.model;
    }

    this.conversation.append(userMessage(text, meta));
    const config = this.loopConfig(emit, options.signal);
    const result = await runAgentLoop(model ? { ...config, provider: model } : config, this.conversation);
    this.totals = addStats(this.totals, result.stats);
    return { ...result, subagentStats };
  }

  /**
   * A tool call made for the user outside a run (a skill's `!command`): checked by every
   * extension — rules, the mode, hooks — and run exactly as a model's call would be. Its events
   * go to `options.emit`; the conversation is not changed.
   */
  async runToolCall(
    call: ToolCall,
    options: RunOptions,
  ): Promise<{ message: ToolResultMessage; blocked: boolean }> {
    const result = await runToolCall(this.loopConfig(options.emit, options.signal), this.conversation, call);
    options.emit({ type: "tool_result", call, result: result.message, blocked: result.blocked });
    return result;
  }

  /**
   * A tool call the user makes themselves (`!cmd` at the prompt runs the shell tool): run as it
   * is, without the permission check or hooks (it is the user's own command); the tool's OS
   * sandbox still holds. Its events go to `options.emit`; the conversation is not changed.
   */
  async runUserCall(call: ToolCall, options: RunOptions): Promise<ToolResultMessage> {
    const { message } = await runUserCall(this.loopConfig(options.emit, options.signal), call);
    options.emit({ type: "tool_result", call, result: message, blocked: false });
    return message;
  }

  private loopConfig(emit: EventSink, signal: AbortSignal | undefined): AgentLoopConfig {
    return {
      provider: this.model,
      system: this.init.system,
      tools: this.init.tools,
      workspace: this.init.workspace,
      maxTurns: this.init.maxTurns,
      maxStopContinuations: this.init.maxStopContinuations,
      extensions: this.extensions,
      emit,
      signal,
    };
  }

  /** The file change a call would make (for a diff on screen); undefined when it changes no file. */
  previewCall(name: string, args: unknown): FileChange | undefined {
    const tool = this.init.tools.get(name);
    if (!tool?.preview) return undefined;
    try {
      return tool.preview(args as never, this.init.workspace);
    } catch {
      return undefined;
    }
  }

  /**
   * What a call is, for a front end that shows it (an editor over ACP): its tool's effect, its
   * rule subject (a path, a command) and the file change it would make. Undefined for a tool
   * the session does not have. Never throws.
   */
  describeCall(name: string, args: unknown): CallDescription | undefined {
    const tool = this.init.tools.get(name);
    if (!tool) return undefined;
    let subject: string | undefined;
    try {
      subject = tool.ruleSubject?.(args as never, this.init.workspace);
    } catch {
      subject = undefined;
    }
    return { effect: tool.effect, subject, change: this.previewCall(name, args) };
  }

  /** The folder the session works in: paths typed by the user (`@file`) resolve as the tools' do. */
  get workspace(): Workspace {
    return this.init.workspace;
  }

  /** Stops what the capabilities hold (servers, watchers, the transcript file), last built first. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      for (const capability of [...this.init.capabilities].reverse()) {
        try {
          await capability.close?.();
        } catch {
          // Closing is best effort: one capability failing to stop must not keep the others running.
        }
      }
    })();
    return this.closed;
  }
}
