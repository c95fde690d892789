import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Message } from "../core/messages.js";
import { projectSessionsDir } from "./paths.js";
import { readTranscript, type Transcript } from "./reader.js";
import { TranscriptWriter } from "./writer.js";

export interface SessionInfo {
  id: string;
  file: string;
  /** From the session line; the file's birth time when that line is missing. */
  startedAt: Date;
  /** Last write: what "latest" means for `--continue`. */
  updatedAt: Date;
  firstPrompt: string;
  /** Messages ever appended (compaction does not lower it). */
  messageCount: number;
  provider?: string;
  model?: string;
}

/** The project's sessions, most recently active first. Unreadable files are skipped. */
export function listSessions(workspaceRoot: string): SessionInfo[] {
  const dir = projectSessionsDir(workspaceRoot);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
  } catch {
    return [];
  }
  const sessions: SessionInfo[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      sessions.push(describeSession(file, readTranscript(file)));
    } catch {
      // Vanished or unreadable: not listed.
    }
  }
  return sessions.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || b.id.localeCompare(a.id));
}

function describeSession(file: string, transcript: Transcript): SessionInfo {
  const stat = statSync(file);
  const started = transcript.header?.startedAt ? new Date(transcript.header.startedAt) : stat.birthtime;
  return {
    id: path.basename(file, ".jsonl"),
    file,
    startedAt: Number.isNaN(started.getTime()) ? stat.birthtime : started,
    updatedAt: stat.mtime,
    firstPrompt: transcript.firstPrompt ?? "",
    messageCount: transcript.messageEvents,
    provider: transcript.header?.provider,
    model: transcript.header?.model,
  };
}

/** The session `--continue` resumes: the project's most recently active one. */
export function latestSession(workspaceRoot: string): SessionInfo | undefined {
  return listSessions(workspaceRoot)[0];
}

export type SessionLookup =
  | { kind: "found"; session: SessionInfo }
  | { kind: "none"; message: string }
  | { kind: "ambiguous"; message: string; candidates: SessionInfo[] };

/** `--resume <id>`: an exact id, or a prefix matching exactly one session. */
export function findSession(workspaceRoot: string, query: string): SessionLookup {
  const sessions = listSessions(workspaceRoot);
  const wanted = query.trim();
  const exact = sessions.find((s) => s.id === wanted);
  if (exact) return { kind: "found", session: exact };
  const matches = wanted === "" ? [] : sessions.filter((s) => s.id.startsWith(wanted));
  if (matches.length === 1) return { kind: "found", session: matches[0] };
  if (matches.length > 1) {
    return {
      kind: "ambiguous",
      message: `'${wanted}' matches ${matches.length} sessions (${matches.map((s) => s.id).join(", ")}); give more of the id.`,
      candidates: matches,
    };
  }
  return {
    kind: "none",
    message: sessions.length
      ? `No session '${wanted}' in this project. See them with: hx sessions list`
      : "This project has no saved sessions yet.",
  };
}

export interface ResumedSession {
  info: SessionInfo;
  transcript: Transcript;
  /** The history to put in the new session. */
  messages: Message[];
  /** Appends to the same file from here on. */
  writer: TranscriptWriter;
}

/** Reads a session back and reopens its transcript for appending. */
export function resumeSession(info: SessionInfo, onError?: (error: Error) => void): ResumedSession {
  const transcript = readTranscript(info.file);
  const writer = TranscriptWriter.reopen(info.file, transcript.messages, {
    repaired: transcript.repaired > 0 || transcript.truncatedTail,
    onError,
  });
  return { info, transcript, messages: transcript.messages, writer };
}

/** One line per session for `hx sessions list`. */
export function formatSessionList(sessions: readonly SessionInfo[]): string {
  if (sessions.length === 0) return "No saved sessions for this project.";
  return sessions
    .map((s) => {
      const when = s.updatedAt.toISOString().replace("T", " ").slice(0, 16);
      const prompt = s.firstPrompt.replace(/\s+/g, " ").trim();
      const shown = prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt;
      return `${s.id}  ${when}  ${String(s.messageCount).padStart(4)} msgs  ${shown}`;
    })
    .join("\n");
}
