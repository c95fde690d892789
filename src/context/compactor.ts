import type { EventSink } from "../agent/events.js";
import type { LoopExtension, LoopState } from "../agent/extension.js";
import { errorMessage } from "../core/error-message.js";
import type { Message } from "../core/messages.js";
import type { ModelProvider, ToolSchema } from "../providers/provider.js";
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
  /** Context window in tokens. */
  window: number;
  /** The session's system prompt and tools, to estimate whole requests. Never changed. */
  system: string;
  toolSchemas: readonly ToolSchema[];
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
  /** Before anything is dropped: make sure the full history is on disk. Awaited. */
  beforeDrop?: (messages: readonly Message[]) => void | Promise<void>;
  /** The PreCompact hook. Awaited; a throw is reported, never stops compaction. */
  onPreCompact?: (trigger: CompactionTrigger) => void | Promise<void>;
  /**
   * Skills that left the context whole (listed by name only, or cut to fit the cap): the
   * session should let the model load them again (e.g. `LoadedSkills.delete`).
   */
  onSkillsNeedReload?: (names: string[]) => void;
  /** After a summary replaced history (for the transcript). */
  onCompacted?: (record: CompactionRecord) => void | Promise<void>;
}

export interface CompactionRecord {
  trigger: CompactionTrigger;
  focus?: string;
  summary: string;
  /** The summary was written mechanically because the model call failed. */
  summaryError?: string;
  droppedMessages: number;
  keptMessages: number;
  tokensBefore: number;
  tokensAfter: number;
  reinjectedSkills: string[];
  /** Skills no longer whole in the context; the model was told to load them again if needed. */
  skillsToReload: string[];
  /** The whole history after compaction. */
  messages: Message[];
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
 * `messages` is always rewritten in place, so whoever holds the array (the session) sees it.
 * The system prompt and tool list are never touched.
 */
export class ContextCompactor {
  private readonly fixedTokens: number;
  private snapshot?: RequestSnapshot;

  constructor(readonly options: CompactorOptions) {
    this.fixedTokens = estimateTokens(options.system) + estimateToolSchemasTokens(options.toolSchemas);
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
        const changed = await this.shrink(state.messages, state.emit, state.signal, true);
        this.snapshot = undefined;
        return changed ? "retry" : undefined;
      },
    };
  }

  /** `/compact [focus]`: summarise now, whatever the size. Undefined when nothing can be dropped. */
  async compactNow(
    messages: Message[],
    options: CompactNowOptions = {},
  ): Promise<CompactionRecord | undefined> {
    this.snapshot = undefined;
    return this.summarize(messages, options.trigger ?? "manual", {
      focus: options.focus,
      emit: options.emit,
      signal: options.signal,
      keepBudget: this.forcedKeepBudget(messages),
    });
  }

  /** Estimated tokens of a request carrying `messages` (system and tools included). */
  estimate(messages: readonly Message[]): number {
    return this.fixedTokens + estimateMessagesTokens(messages);
  }

  private get window(): number {
    return this.options.window;
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
    let tokens = this.estimateNext(state);
    if (tokens > (this.options.shortenAt ?? 0.5) * this.window) {
      if (
        this.shortenInPlace(
          state.messages,
          state.emit,
          this.options.shorten,
          (this.options.shortenMinSaving ?? 0.1) * this.window,
        )
      ) {
        tokens = this.estimate(state.messages);
      }
    }
    if (tokens > threshold) {
      await this.summarize(state.messages, "auto", { emit: state.emit, signal: state.signal });
      tokens = this.estimate(state.messages);
    }
    if (tokens > threshold)
      this.shortenInPlace(state.messages, state.emit, { keepTurns: 0, minChars: 400 }, 0);
    this.snapshot = {
      state,
      turns: state.stats.turns,
      messageCount: state.messages.length,
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
    const full = this.estimate(state.messages);
    const snap = this.snapshot;
    if (!snap || snap.state !== state || state.stats.turns !== snap.turns + 1) return full;
    const input = state.stats.usage.inputTokens - snap.inputTokens;
    const output = state.stats.usage.outputTokens - snap.outputTokens;
    if (input <= 0 || state.messages.length <= snap.messageCount) return full;
    if (state.messages[snap.messageCount]?.role !== "assistant") return full;
    return Math.max(
      full,
      input + output + estimateMessagesTokens(state.messages.slice(snap.messageCount + 1)),
    );
  }

  /** Applies shortening when it saves at least `minSaving` tokens (a batch, not a trickle). */
  private shortenInPlace(
    messages: Message[],
    emit: EventSink | undefined,
    options: ShortenOptions | undefined,
    minSaving: number,
  ): boolean {
    const result = shortenOldToolResults(messages, options);
    if (result.shortened === 0 || result.savedTokens < minSaving) return false;
    messages.splice(0, messages.length, ...result.messages);
    emit?.({
      type: "notice",
      level: "info",
      text: `context: shortened ${result.shortened} older tool result(s), saving ~${result.savedTokens.toLocaleString("en-US")} tokens`,
    });
    return true;
  }

  /** After an overflow: shorten hard, then summarise. True when the history changed. */
  private async shrink(
    messages: Message[],
    emit: EventSink,
    signal: AbortSignal,
    force: boolean,
  ): Promise<boolean> {
    const shortened = this.shortenInPlace(messages, emit, { keepTurns: 1 }, 0);
    const record = await this.summarize(messages, "auto", {
      emit,
      signal,
      keepBudget: this.forcedKeepBudget(messages),
    });
    if (!record && force)
      return this.shortenInPlace(messages, emit, { keepTurns: 0, minChars: 400 }, 0) || shortened;
    return shortened || record !== undefined;
  }

  private async summarize(
    messages: Message[],
    trigger: CompactionTrigger,
    options: { focus?: string; emit?: EventSink; signal?: AbortSignal; keepBudget?: number },
  ): Promise<CompactionRecord | undefined> {
    const cut = this.chooseCut(messages, options.keepBudget ?? this.keepBudget);
    if (cut === undefined) return undefined;
    const emit = options.emit;
    const tokensBefore = this.estimate(messages);

    try {
      await this.options.onPreCompact?.(trigger);
    } catch (error) {
      emit?.({ type: "notice", level: "warn", text: `PreCompact hook failed: ${describe(error)}` });
    }
    await this.options.beforeDrop?.(messages);

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
    const next: Message[] = [head.message];
    if (kept[0]?.role === "user") {
      next.push({ role: "assistant", content: "Understood; continuing from the summary.", toolCalls: [] });
    }
    next.push(...kept);
    messages.splice(0, messages.length, ...next);

    const record: CompactionRecord = {
      trigger,
      focus: options.focus,
      summary,
      summaryError: error,
      droppedMessages: dropped.length,
      keptMessages: kept.length,
      tokensBefore,
      tokensAfter: this.estimate(messages),
      reinjectedSkills: head.reinjected,
      skillsToReload: [...head.nameOnly, ...head.cut],
      messages: [...messages],
    };
    if (record.skillsToReload.length) this.options.onSkillsNeedReload?.(record.skillsToReload);
    await this.options.onCompacted?.(record);
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
    `~${record.tokensBefore.toLocaleString("en-US")} → ~${record.tokensAfter.toLocaleString("en-US")} tokens ` +
    `(saved ~${saved.toLocaleString("en-US")})${skills}`
  );
}

function describe(error: unknown): string {
  return errorMessage(error);
}
