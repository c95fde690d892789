import { addUsage, emptyUsage, type Message, type ToolResultMessage, type Usage } from "../core/messages.js";
import { toolErrorText } from "../core/tool.js";
import { readRegularFileSync } from "../fs/regular-file.js";
import type { TranscriptLine } from "./events.js";
import { parseTranscriptLine } from "./line-schema.js";

interface SessionHeader {
  id: string;
  cwd: string;
  provider: string;
  model: string;
  startedAt: string;
}

export interface Transcript {
  header?: SessionHeader;
  /** The history to continue from: after the last compaction, pairs repaired. */
  messages: Message[];
  /** Usage of every request ever made in the session. */
  usage: Usage;
  /** `message` lines in the file (every message ever appended). */
  messageEvents: number;
  compactions: number;
  /** The first prompt of the session (for listings). */
  firstPrompt?: string;
  /** The last line was cut off mid-write (a crash) and was skipped. */
  truncatedTail: boolean;
  /** Synthetic results added / orphan results dropped to keep call-result pairs intact. */
  repaired: number;
  /** Lines that could not be read, other than a cut-off last line. */
  warnings: string[];
}

/** The result given to a tool call whose result never reached the transcript. */
export const INTERRUPTED_RESULT = toolErrorText(
  "interrupted. The session ended before this call finished, so its effects are unknown; check before repeating it.",
);

/** Transcripts larger than this are not read (a session that big cannot be resumed anyway). */
const MAX_TRANSCRIPT_BYTES = 1024 * 1024 * 1024;

/**
 * Reads a transcript file; a file that is missing, not a regular file or too large throws an
 * Error naming the file and why. Lines are decoded one by one, so no single huge string is built.
 */
export function readTranscript(file: string): Transcript {
  const read = readRegularFileSync(file, MAX_TRANSCRIPT_BYTES);
  if (!read.ok) throw new Error(`${file} ${read.message}`);
  return parseTranscriptLines(splitLines(read.bytes));
}

/**
 * Every valid line of a transcript, in order (damaged lines and a cut-off last line are left
 * out): for readers that need the whole story, such as `hx skills stats`, not just the history.
 */
export function readTranscriptLines(file: string): TranscriptLine[] {
  const read = readRegularFileSync(file, MAX_TRANSCRIPT_BYTES);
  if (!read.ok) throw new Error(`${file} ${read.message}`);
  const { lines, last } = splitLines(read.bytes);
  const events: TranscriptLine[] = [];
  for (const line of [...lines, last]) {
    if (line.trim() === "") continue;
    const parsed = parseTranscriptLine(line);
    if ("event" in parsed) events.push(parsed.event);
  }
  return events;
}

/** Rebuilds a session from its JSONL text (see parseTranscriptLines). */
export function parseTranscript(text: string): Transcript {
  return parseTranscriptLines(splitLines(Buffer.from(text, "utf8")));
}

function splitLines(bytes: Buffer): { lines: string[]; last: string } {
  const lines: string[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0x0a, start); end !== -1; end = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.toString("utf8", start, end));
    start = end + 1;
  }
  return { lines, last: bytes.toString("utf8", start) };
}

/**
 * Rebuilds a session from its lines. Tolerates a truncated last line (a crash mid-write) and
 * skips every other line that is not a valid event with a warning, keeping all the others:
 * one damaged line never loses the session. A tool call left without a result (the turn in
 * flight when the process died) gets a synthetic error result, {@link INTERRUPTED_RESULT},
 * rather than being dropped: the model then knows it asked for it and that it may have run.
 */
function parseTranscriptLines({ lines, last }: { lines: string[]; last: string }): Transcript {
  const warnings: string[] = [];
  const events: TranscriptLine[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const parsed = parseTranscriptLine(line);
    if ("event" in parsed) events.push(parsed.event);
    else warnings.push(`line ${i + 1}: ${parsed.problem}; skipped`);
  });
  let truncatedTail = false;
  if (last.trim() !== "") {
    const parsed = parseTranscriptLine(last);
    if ("event" in parsed) events.push(parsed.event);
    else truncatedTail = true;
  }

  let header: SessionHeader | undefined;
  let history: Message[] = [];
  let usage = emptyUsage();
  let messageEvents = 0;
  let compactions = 0;
  let firstPrompt: string | undefined;
  for (const event of events) {
    switch (event.type) {
      case "session":
        header ??= {
          id: event.id,
          cwd: event.cwd,
          provider: event.provider,
          model: event.model,
          startedAt: event.at,
        };
        break;
      case "message":
        history.push(event.message);
        messageEvents += 1;
        if (firstPrompt === undefined && event.message.role === "user") firstPrompt = event.message.content;
        break;
      case "usage":
        usage = addUsage(usage, { ...emptyUsage(), ...event.usage });
        break;
      case "compaction":
        compactions += 1;
        history = [...event.messages];
        break;
      case "history":
        history = [...event.messages];
        break;
    }
  }
  const repaired = repairPairs(history);
  if (repaired.dropped > 0) {
    warnings.push(
      `${repaired.dropped} tool result${repaired.dropped === 1 ? "" : "s"} whose call was lost (a damaged line) left out of the history`,
    );
  }
  return {
    header,
    messages: repaired.messages,
    usage,
    messageEvents,
    compactions,
    firstPrompt,
    truncatedTail,
    repaired: repaired.changes,
    warnings,
  };
}

/**
 * Every tool call gets exactly one result right after its assistant message: missing results
 * become {@link INTERRUPTED_RESULT}, results that answer no call are dropped.
 */
export function repairPairs(messages: readonly Message[]): {
  messages: Message[];
  changes: number;
  /** Results that answered no call, left out. */
  dropped: number;
} {
  const out: Message[] = [];
  let changes = 0;
  let dropped = 0;
  let open: Map<string, string> = new Map();
  const closeTurn = () => {
    for (const [id, name] of open) {
      const result: ToolResultMessage = {
        role: "tool",
        toolCallId: id,
        toolName: name,
        content: INTERRUPTED_RESULT,
        isError: true,
      };
      out.push(result);
      changes += 1;
    }
    open = new Map();
  };
  for (const message of messages) {
    if (message.role === "tool") {
      if (open.delete(message.toolCallId)) out.push(message);
      else {
        changes += 1;
        dropped += 1;
      }
      continue;
    }
    closeTurn();
    out.push(message);
    if (message.role === "assistant") for (const call of message.toolCalls) open.set(call.id, call.name);
  }
  closeTurn();
  return { messages: out, changes, dropped };
}
