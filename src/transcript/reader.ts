import { readFileSync } from "node:fs";
import { addUsage, emptyUsage, type Message, type ToolResultMessage, type Usage } from "../core/messages.js";
import type { TranscriptEvent, TranscriptLine } from "./events.js";

export interface SessionHeader {
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
export const INTERRUPTED_RESULT =
  "Error: interrupted. The session ended before this call finished, so its effects are unknown; check before repeating it.";

export function readTranscript(file: string): Transcript {
  return parseTranscript(readFileSync(file, "utf8"));
}

/**
 * Rebuilds a session from its JSONL text. Tolerates a truncated last line (a crash mid-write)
 * and skips other unreadable lines with a warning. A tool call left without a result (the turn
 * in flight when the process died) gets a synthetic error result, {@link INTERRUPTED_RESULT},
 * rather than being dropped: the model then knows it asked for it and that it may have run.
 */
export function parseTranscript(text: string): Transcript {
  const lines = text.split("\n");
  const last = lines.pop() ?? "";
  const warnings: string[] = [];
  const events: TranscriptLine[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const event = parseLine(line);
    if (event) events.push(event);
    else warnings.push(`line ${i + 1}: not a transcript event; skipped`);
  });
  let truncatedTail = false;
  if (last.trim() !== "") {
    const event = parseLine(last);
    if (event) events.push(event);
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

function parseLine(line: string): TranscriptLine | undefined {
  try {
    const value = JSON.parse(line) as Partial<TranscriptEvent> & { at?: string };
    if (value === null || typeof value !== "object" || typeof value.type !== "string") return undefined;
    if (value.type === "message" && !isMessage((value as { message?: unknown }).message)) return undefined;
    if ((value.type === "compaction" || value.type === "history") && !Array.isArray(value.messages))
      return undefined;
    return { at: "", ...value } as TranscriptLine;
  } catch {
    return undefined;
  }
}

function isMessage(value: unknown): value is Message {
  if (value === null || typeof value !== "object") return false;
  const m = value as Record<string, unknown>;
  if (typeof m.content !== "string") return false;
  if (m.role === "user") return true;
  if (m.role === "assistant") return Array.isArray(m.toolCalls);
  return m.role === "tool" && typeof m.toolCallId === "string";
}

/**
 * Every tool call gets exactly one result right after its assistant message: missing results
 * become {@link INTERRUPTED_RESULT}, results that answer no call are dropped.
 */
export function repairPairs(messages: readonly Message[]): { messages: Message[]; changes: number } {
  const out: Message[] = [];
  let changes = 0;
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
      else changes += 1;
      continue;
    }
    closeTurn();
    out.push(message);
    if (message.role === "assistant") for (const call of message.toolCalls) open.set(call.id, call.name);
  }
  closeTurn();
  return { messages: out, changes };
}
