import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import path from "node:path";
import type { Conversation, ConversationChange } from "../core/conversation.js";
import type { AgentEvent, EventSink } from "../core/events.js";
import type { Message } from "../core/messages.js";
import { TRANSCRIPT_VERSION, type TranscriptEvent } from "./events.js";
import { newSessionId, sessionFile } from "./paths.js";

export interface NewTranscriptOptions {
  workspaceRoot: string;
  provider: string;
  model: string;
  id?: string;
  /** Told once when a write fails (disk full, permissions); recording then stops. */
  onError?: (error: Error) => void;
}

/**
 * Appends a session's events to its JSONL file, one synchronous write per event, so a crash
 * (even `kill -9`) loses at most the event being written. No fsync: the OS keeps what was
 * written if the process dies; only a power cut can lose the last lines.
 *
 * The writer follows the session's `Conversation`: each change is one event (an append is a
 * `message`, a replacement a `compaction` or a `history` with its reason), so nothing is
 * guessed from positions. `usageRecorder()` adds one `usage` line per model request. The
 * file is created with the first event, so a session that never ran leaves nothing behind.
 */
export class TranscriptWriter {
  private fd?: number;
  private pending: TranscriptEvent[];
  private failed = false;

  private constructor(
    readonly id: string,
    readonly file: string,
    header: TranscriptEvent[],
    private readonly onError?: (error: Error) => void,
  ) {
    this.pending = header;
  }

  /** A new session; nothing is written until the first message. */
  static create(options: NewTranscriptOptions): TranscriptWriter {
    const id = options.id ?? newSessionId();
    const header: TranscriptEvent = {
      type: "session",
      version: TRANSCRIPT_VERSION,
      id,
      cwd: options.workspaceRoot,
      provider: options.provider,
      model: options.model,
    };
    return new TranscriptWriter(id, sessionFile(options.workspaceRoot, id), [header], options.onError);
  }

  /**
   * Goes on appending to an existing transcript whose rebuilt history is `messages` (see
   * `readTranscript`). When the rebuild had to repair the file, pass `repaired: true` and the
   * repaired history is recorded as the new starting point.
   */
  static reopen(
    file: string,
    messages: readonly Message[],
    options: { repaired?: boolean; onError?: (error: Error) => void } = {},
  ): TranscriptWriter {
    const writer = new TranscriptWriter(path.basename(file, ".jsonl"), file, [], options.onError);
    writer.record({ type: "resume" });
    if (options.repaired) writer.record({ type: "history", reason: "repair", messages: [...messages] });
    return writer;
  }

  /** Records every change of `conversation` from now on; returns the function that stops it. */
  follow(conversation: Conversation): () => void {
    return conversation.subscribe((change) => this.recordChange(change));
  }

  /** An event observer that records each model request's usage. */
  usageRecorder(): EventSink {
    return (event: AgentEvent) => {
      if (event.type === "assistant_message") this.record({ type: "usage", usage: event.usage });
    };
  }

  /** Appends one event now. Never throws: a failure is reported once and recording stops. */
  record(event: TranscriptEvent): void {
    if (this.failed) return;
    try {
      if (this.fd === undefined) {
        mkdirSync(path.dirname(this.file), { recursive: true });
        this.fd = openSync(this.file, "a+");
        this.endPartialLine(this.fd);
        const header = this.pending;
        this.pending = [];
        for (const early of header) this.write(early);
      }
      this.write(event);
    } catch (error) {
      this.failed = true;
      this.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private recordChange(change: ConversationChange): void {
    if (change.type === "append") {
      this.record({ type: "message", message: change.message });
    } else if (change.reason === "compaction") {
      const { trigger, focus, summary, droppedMessages, tokensBefore, tokensAfter, reinjectedSkills } =
        change.compaction;
      this.record({
        type: "compaction",
        trigger,
        focus,
        summary,
        droppedMessages,
        tokensBefore,
        tokensAfter,
        reinjectedSkills,
        messages: [...change.messages],
      });
    } else {
      this.record({ type: "history", reason: change.reason, messages: [...change.messages] });
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /**
   * A crash mid-write leaves a last line without its newline; appending right after it would
   * glue the next event onto the cut one and lose both. Finish that line first.
   */
  private endPartialLine(fd: number): void {
    const size = fstatSync(fd).size;
    if (size === 0) return;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] !== 0x0a) writeSync(fd, "\n");
  }

  private write(event: TranscriptEvent): void {
    const bytes = Buffer.from(`${JSON.stringify({ ...event, at: new Date().toISOString() })}\n`);
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.fd!, bytes, offset);
  }
}
