import type { LoopExtension, LoopState } from "../agent/extension.js";
import type { CompactionDetail, Conversation } from "../core/conversation.js";
import { errorMessage } from "../core/error-message.js";
import type { EventSink } from "../core/events.js";
import { formatCount } from "../core/format-count.js";
import type { Message } from "../core/messages.js";
import type { ToolSchema } from "../core/tool.js";
import type { ModelProvider } from "../providers/provider.js";
import { type ShortenOptions, shortenOldToolResults } from "./shorten.js";
import { findLoadedSkills } from "./skill-bodies.js";
import { summarizeMessages } from "./summarize.js";
import { buildSummaryMessage, isSummaryMessage } from "./summary-message.js";
import { estimateMessagesTokens, estimateTokens, estimateToolSchemasTokens } from "./tokens.js";
import { safeCutPoints } from "./turns.js";

export type CompactionTrigger = "auto" | "manual";

export interface CompactorOptions {
  /** Asked for the summary (no tools); normally the session's own model. */
  provider: ModelProvider;
  /** Context window in tokens; a function is read each time (`/model` can change it). */
  window: number | (() => number);
  /** The session's system prompt and tools, to estimate whole requests. Never changed by compaction. */
  system: string;
  /** A function when tools can be added during the session (servers that start late). */
  toolSchemas: readonly ToolSchema[] | (() => readonly ToolSchema[]);
  /** Summarise past this share of the window. Default 0.8. */
  threshold?: number;
  /** Shorten old tool results past this share of the window. Default 0.5. */
  shortenAt?: number;
  /**
   * Shorten only when it frees at least this share of the window (default 0.1): results are
   * shortened in batches, so the cached prefix breaks rarely instead of on every turn.
   */
  shortenMinSaving?: number;
  /** Recent history kept verbatim by a summary, as a share of the window. Default 0.2. */
  keepRecentShare?: number;
  /** Budget for re-injected skill bodies, as a share of the window. Default 0.1. */
  skillCapShare?: number;
  shorten?: ShortenOptions;
  /** The PreCompact hook, given the history about to be summarised. Awaited; a throw is reported, never stops compaction. */
  onPreCompact?: (trigger: CompactionTrigger, messages: readonly Message[]) => void | Promise<void>;
  /**
   * After the summary is written, before it replaces the history: context to carry in it
   * (SessionStart hooks with `source: "compact"`, as in Claude Code). Undefined: nothing.
   */
  contextAfterCompact?: (trigger: CompactionTrigger) => Promise<string | undefined>;
}

/** What a compaction did; the conversation's `replace` carries it to the transcript. */
export interface CompactionRecord extends CompactionDetail {
  /** The summary was written mechanically because the model call failed. */
  summaryError?: string;
  keptMessages: number;
  /** Skills no longer whole in the context; the model was told to load them again if needed. */
  skillsToReload: string[];
}

export interface CompactNowOptions {
  focus?: string;
  emit?: EventSink;
  signal?: AbortSignal;
  trigger?: CompactionTrigger;
}

/** What the last request looked like, to estimate the next from reported usage. */
interface RequestSnapshot {
  state: LoopState;
  turns: number;
  messageCount: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * Keeps a conversation inside the context window, in layers: shorten old tool results (cheap,
 * done in batches so the cached prefix breaks rarely), then past the threshold summarise older
 * history with the model, keeping recent turns and re-injecting loaded skills. Also compacts
 * and retries once when the provider reports a context overflow.
 *
 * Every change goes through the conversation (`replace` with reason `shorten` or
 * `compaction`), so the transcript records it. The system prompt and tool list are never touched.
 */
export class ContextCompactor {
  private readonly systemTokens: number;
  private toolTokens?: { schemas: readonly ToolSchema[]; tokens: number };
  private snapshot?: RequestSnapshot;

  constructor(readonly options: CompactorOptions) {
    this.systemTokens = estimateTokens(options.system);
  }

  /** System prompt and tools, in tokens; tools counted again only when the list changed. */
  private get fixedTokens(): number {
    const { toolSchemas } = this.options;
    const schemas = typeof toolSchemas === "function" ? toolSchemas() : toolSchemas;
    if (this.toolTokens?.schemas !== schemas)
      this.toolTokens = { schemas, tokens: estimateToolSchemasTokens(schemas) };
    return this.systemTokens + this.toolTokens.tokens;
  }

  /** The loop extension: compaction before each request and on context overflow. */
  extension(): LoopExtension {
    return {
      name: "context-compaction",
      beforeModelCall: (state) => this.beforeModelCall(state),
      onModelError: async (error, state) => {
        if (error.kind !== "context_overflow") return undefined;
        state.emit({
          type: "notice",
          level: "warn",
          text: "the model reported the context is too long; compacting",
        });
        const changed = await this.shrink(state.conversation, state.emit, state.signal, true);
        this.snapshot = undefined;
        return changed ? "retry" : undefined;
      },
    };
  }

  /** `/compact [focus]`: summarise now, whatever the size. Undefined when nothing can be dropped. */
  async compactNow(
    conversation: Conversation,
    options: CompactNowOptions = {},
  ): Promise<CompactionRecord | undefined> {
    this.snapshot = undefined;
    return this.summarize(conversation, options.trigger ?? "manual", {
      focus: options.focus,
      emit: options.emit,
      signal: options.signal,
      keepBudget: this.forcedKeepBudget(conversation.messages),
    });
  }

  /** Estimated tokens of a request carrying `messages` (system and tools included). */
  estimate(messages: readonly Message[]): number {
    return this.fixedTokens + estimateMessagesTokens(messages);
  }

  private get window(): number {
    const { window } = this.options;
    return typeof window === "function" ? window() : window;
  }

  /** Recent history a summary keeps verbatim, in tokens. */
  private get keepBudget(): number {
    return (this.options.keepRecentShare ?? 0.2) * this.window;
  }

  /**
   * What a compaction nobody's estimate asked for keeps: `/compact` in a conversation far below
   * the window, or the provider counting more than our estimate allows. The usual "keep 20% of
   * the window" could keep everything then, so keep at most a quarter of the history.
   */
  private forcedKeepBudget(messages: readonly Message[]): number {
    return Math.min(this.keepBudget, estimateMessagesTokens(messages) / 4);
  }

  private async beforeModelCall(state: LoopState): Promise<void> {
    const threshold = (this.options.threshold ?? 0.8) * this.window;
    const { conversation } = state;
    let tokens = this.estimateNext(state);
    if (tokens > (this.options.shortenAt ?? 0.5) * this.window) {
      if (
        this.shorten(
          conversation,
          state.emit,
          this.options.shorten,
          (this.options.shortenMinSaving ?? 0.1) * this.window,
        )
      ) {
        tokens = this.estimate(conversation.messages);
      }
    }
    if (tokens > threshold) {
      await this.summarize(conversation, "auto", { emit: state.emit, signal: state.signal });
      tokens = this.estimate(conversation.messages);
    }
    if (tokens > threshold) this.shorten(conversation, state.emit, { keepTurns: 0, minChars: 400 }, 0);
    this.snapshot = {
      state,
      turns: state.stats.turns,
      messageCount: conversation.length,
      inputTokens: state.stats.usage.inputTokens,
      outputTokens: state.stats.usage.outputTokens,
    };
  }

  /**
   * The next request's size: the last reported input and output plus an estimate of what was
   * appended since, when that is more than the full estimate (the provider's tokenizer counts
   * higher than ours). Never less than the full estimate: a server that reports too little or
   * nothing (local servers, proxies) must not let the history grow past the window.
   */
  private estimateNext(state: LoopState): number {
    const messages = state.conversation.messages;
    const full = this.estimate(messages);
    const snap = this.snapshot;
    if (!snap || snap.state !== state || state.stats.turns !== snap.turns + 1) return full;
    const input = state.stats.usage.inputTokens - snap.inputTokens;
    const output = state.stats.usage.outputTokens - snap.outputTokens;
    if (input <= 0 || messages.length <= snap.messageCount) return full;
    if (messages[snap.messageCount]?.role !== "assistant") return full;
    return Math.max(full, input + output + estimateMessagesTokens(messages.slice(snap.messageCount + 1)));
  }

  /** Applies shortening when it saves at least `minSaving` tokens (a batch, not a trickle). */
  private shorten(
    conversation: Conversation,
    emit: EventSink | undefined,
    options: ShortenOptions | undefined,
    minSaving: number,
  ): boolean {
    const result = shortenOldToolResults(conversation.messages, options);
    if (result.shortened === 0 || result.savedTokens < minSaving) return false;
    conversation.replace(result.messages, "shorten");
    emit?.({
      type: "notice",
      level: "info",
      text: `context: shortened ${result.shortened} older tool result(s), saving ~${formatCount(result.savedTokens)} tokens`,
    });
    return true;
  }

  /** After an overflow: shorten hard, then summarise. True when the history changed. */
  private async shrink(
    conversation: Conversation,
    emit: EventSink,
    signal: AbortSignal,
    force: boolean,
  ): Promise<boolean> {
    const shortened = this.shorten(conversation, emit, { keepTurns: 1 }, 0);
    const record = await this.summarize(conversation, "auto", {
      emit,
      signal,
      keepBudget: this.forcedKeepBudget(conversation.messages),
    });
    if (!record && force)
      return this.shorten(conversation, emit, { keepTurns: 0, minChars: 400 }, 0) || shortened;
    return shortened || record !== undefined;
  }

  private async summarize(
    conversation: Conversation,
    trigger: CompactionTrigger,
    options: { focus?: string; emit?: EventSink; signal?: AbortSignal; keepBudget?: number },
  ): Promise<CompactionRecord | undefined> {
    const messages = [...conversation.messages];
    const cut = this.chooseCut(messages, options.keepBudget ?? this.keepBudget);
    if (cut === undefined) return undefined;
    const emit = options.emit;
    const tokensBefore = this.estimate(messages);

    try {
      await this.options.onPreCompact?.(trigger, messages);
    } catch (error) {
      emit?.({ type: "notice", level: "warn", text: `PreCompact hook failed: ${describe(error)}` });
    }

    const dropped = messages.slice(0, cut);
    const kept = messages.slice(cut);
    const loaded = findLoadedSkills(messages);
    const reinject = loaded.filter((skill) => skill.index < cut);
    const { summary, error } = await summarizeMessages({
      provider: this.options.provider,
      dropped,
      focus: options.focus,
      maxChars: Math.floor(this.window * 0.6 * 4),
      signal: options.signal,
    });
    const head = buildSummaryMessage({
      summary,
      loadedNames: loaded.map((s) => s.name),
      reinject,
      skillCapTokens: (this.options.skillCapShare ?? 0.1) * this.window,
    });
    let context: string | undefined;
    try {
      context = await this.options.contextAfterCompact?.(trigger);
    } catch (error) {
      emit?.({
        type: "notice",
        level: "warn",
        text: `SessionStart (compact) hook failed: ${describe(error)}`,
      });
    }
    // At the end of the summary message: its skill spans keep their offsets.
    const summaryMessage = context
      ? { ...head.message, content: `${head.message.content}\n\n<hook-context>\n${context}\n</hook-context>` }
      : head.message;
    const next: Message[] = [summaryMessage];
    if (kept[0]?.role === "user") {
      next.push({ role: "assistant", content: "Understood; continuing from the summary.", toolCalls: [] });
    }
    next.push(...kept);

    const record: CompactionRecord = {
      trigger,
      focus: options.focus,
      summary,
      summaryError: error,
      droppedMessages: dropped.length,
      keptMessages: kept.length,
      tokensBefore,
      tokensAfter: this.estimate(next),
      reinjectedSkills: head.reinjected,
      skillsToReload: [...head.nameOnly, ...head.cut],
    };
    conversation.replace(next, "compaction", record);
    if (error)
      emit?.({ type: "notice", level: "warn", text: `summary written without the model (${error})` });
    emit?.({ type: "notice", level: "info", text: describeCompaction(record) });
    return record;
  }

  /**
   * The earliest safe cut that keeps at most `keepBudget` tokens verbatim; when
   * even the last turn is larger, the latest safe cut. Undefined when no cut drops anything
   * beyond a lone previous summary.
   */
  private chooseCut(messages: readonly Message[], keepBudget: number): number | undefined {
    const points = safeCutPoints(messages);
    if (points.length === 0) return undefined;
    const suffix: number[] = new Array(messages.length + 1).fill(0);
    for (let i = messages.length - 1; i >= 0; i--)
      suffix[i] = suffix[i + 1] + estimateMessagesTokens([messages[i]]);
    const cut = points.find((p) => suffix[p] <= keepBudget) ?? points[points.length - 1];
    const onlySummary = messages
      .slice(0, cut)
      .every((m, i) => isSummaryMessage(m) || (i === 1 && m.role === "assistant"));
    return onlySummary ? undefined : cut;
  }
}

function describeCompaction(record: CompactionRecord): string {
  const saved = record.tokensBefore - record.tokensAfter;
  const skills = record.reinjectedSkills.length ? `; skills kept: ${record.reinjectedSkills.join(", ")}` : "";
  return (
    `context compacted (${record.trigger}): ${record.droppedMessages} message(s) summarised, ${record.keptMessages} kept; ` +
    `~${formatCount(record.tokensBefore)} → ~${formatCount(record.tokensAfter)} tokens ` +
    `(saved ~${formatCount(saved)})${skills}`
  );
}

function describe(error: unknown): string {
  return errorMessage(error);
}
