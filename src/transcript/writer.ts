import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import path from "node:path";
import type { AgentEvent, EventSink } from "../agent/events.js";
import type { CompactionRecord } from "../context/compactor.js";
import type { Message } from "../core/messages.js";
import type { TranscriptEvent } from "./events.js";
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
 * The history is mirrored by position: `syncMessages` writes the messages past the count
 * already recorded; a compaction records the new history and resets the count. The file is
 * created with the first event, so a session that never ran leaves nothing behind.
 *
 * Wiring: `session.parts.observers.push(writer.observe(() => session.messages))`, and the
 * compactor's `beforeDrop: (m) => writer.syncMessages(m)`, `onCompacted: (r) => writer.recordCompaction(r)`.
 */
export class TranscriptWriter {
  private fd?: number;
  private recorded: number;
  /** The last message on disk, to notice a history replaced by one of the same length or longer. */
  private lastRecorded: Message | undefined;
  private pending: TranscriptEvent[];
  private failed = false;

  private constructor(
    readonly id: string,
    readonly file: string,
    header: TranscriptEvent[],
    recordedMessages: readonly Message[],
    private readonly onError?: (error: Error) => void,
  ) {
    this.pending = header;
    this.recorded = recordedMessages.length;
    this.lastRecorded = recordedMessages.at(-1);
  }

  /** A new session; nothing is written until the first message. */
  static create(options: NewTranscriptOptions): TranscriptWriter {
    const id = options.id ?? newSessionId();
    const header: TranscriptEvent = {
      type: "session",
      version: 1,
      id,
      cwd: options.workspaceRoot,
      provider: options.provider,
      model: options.model,
    };
    return new TranscriptWriter(id, sessionFile(options.workspaceRoot, id), [header], [], options.onError);
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
    const id = path.basename(file, ".jsonl");
    const events: TranscriptEvent[] = [{ type: "resume" }];
    if (options.repaired) events.push({ type: "history", messages: [...messages] });
    const writer = new TranscriptWriter(id, file, [], messages, options.onError);
    for (const event of events) writer.record(event);
    return writer;
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

  /**
   * Writes the messages not yet on disk. A history that was replaced rather than appended to
   * (shorter, or no longer holding the last message written at its place, e.g. `/resume`
   * loading another session) is recorded whole.
   */
  syncMessages(messages: readonly Message[]): void {
    const replaced =
      messages.length < this.recorded ||
      (this.recorded > 0 && messages[this.recorded - 1] !== this.lastRecorded);
    if (replaced) this.record({ type: "history", messages: [...messages] });
    else
      for (let i = this.recorded; i < messages.length; i++)
        this.record({ type: "message", message: messages[i] });
    this.recorded = messages.length;
    this.lastRecorded = messages.at(-1);
  }

  recordCompaction(record: CompactionRecord): void {
    this.record({
      type: "compaction",
      trigger: record.trigger,
      focus: record.focus,
      summary: record.summary,
      droppedMessages: record.droppedMessages,
      tokensBefore: record.tokensBefore,
      tokensAfter: record.tokensAfter,
      reinjectedSkills: record.reinjectedSkills,
      messages: record.messages,
    });
    this.recorded = record.messages.length;
    this.lastRecorded = record.messages.at(-1);
  }

  /**
   * An event observer: brings the history up to date on every loop event (the loop appends a
   * message before announcing it) and records each request's usage.
   */
  observe(history: () => readonly Message[]): EventSink {
    return (event: AgentEvent) => {
      if (event.type === "delta" || event.type === "notice" || event.type === "subagent") return;
      if (event.type === "retry") return;
      this.syncMessages(history());
      if (event.type === "assistant_message") this.record({ type: "usage", usage: event.usage });
    };
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
