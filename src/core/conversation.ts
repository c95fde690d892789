import type { Message } from "./messages.js";

/** Why the history was replaced rather than appended to. */
export type ReplaceReason = "compaction" | "resume" | "clear" | "shorten" | "repair" | "rewind";

/** What a compaction did, for the transcript and the user (the compactor's record extends it). */
export interface CompactionDetail {
  trigger: "auto" | "manual";
  focus?: string;
  summary: string;
  droppedMessages: number;
  tokensBefore: number;
  tokensAfter: number;
  /** Skills whose bodies the summary carries again. */
  reinjectedSkills: string[];
}

/** One change to the history, as subscribers see it; `version` is the history's version after it. */
export type ConversationChange =
  | { type: "append"; message: Message; version: number }
  | {
      type: "replace";
      reason: "compaction";
      compaction: CompactionDetail;
      messages: readonly Message[];
      version: number;
    }
  | {
      type: "replace";
      reason: Exclude<ReplaceReason, "compaction">;
      messages: readonly Message[];
      version: number;
    };

export type ConversationListener = (change: ConversationChange) => void;

/**
 * The one owner of a conversation's messages. The loop, reminders, compaction, resume and
 * slash commands change history only through `append` and `replace`; everyone else reads
 * `messages` (a read-only view) or subscribes (the transcript writer records each change).
 * Listeners are called in order, synchronously, after the change; one that throws is
 * reported to `onListenerError` and the others still run.
 */
export class Conversation {
  private readonly items: Message[];
  private revision = 0;
  private readonly listeners: ConversationListener[] = [];

  /** `initial` is the starting point (a resumed session's history); it is not a change. */
  constructor(
    initial: readonly Message[] = [],
    private readonly onListenerError?: (error: unknown) => void,
  ) {
    this.items = [...initial];
  }

  /** The history, oldest first. A live view (it reflects later changes); copy it to keep a snapshot. */
  get messages(): readonly Message[] {
    return this.items;
  }

  /** Counts changes: a reader can tell whether the history moved since it last looked. */
  get version(): number {
    return this.revision;
  }

  get length(): number {
    return this.items.length;
  }

  append(message: Message): void {
    this.items.push(message);
    this.revision += 1;
    this.notify({ type: "append", message, version: this.revision });
  }

  /** Puts `messages` in place of the whole history. A compaction says what it did. */
  replace(messages: readonly Message[], reason: "compaction", compaction: CompactionDetail): void;
  replace(messages: readonly Message[], reason: Exclude<ReplaceReason, "compaction">): void;
  replace(messages: readonly Message[], reason: ReplaceReason, compaction?: CompactionDetail): void {
    const next = [...messages];
    this.items.length = 0;
    for (const message of next) this.items.push(message);
    this.revision += 1;
    const base = { type: "replace" as const, messages: this.items, version: this.revision };
    this.notify(
      reason === "compaction"
        ? { ...base, reason, compaction: compaction as CompactionDetail }
        : { ...base, reason },
    );
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: ConversationListener): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  private notify(change: ConversationChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.onListenerError?.(error);
      }
    }
  }
}
