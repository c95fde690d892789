import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Message } from "../core/messages.js";
import { type LockOwner, liveOwner, SessionLock } from "./lock.js";
import { legacyProjectSessionsDir, projectSessionsDir } from "./paths.js";
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
  /** The pid of the live hx writing it now, if any (a second `--continue` forks it). */
  inUseBy?: number;
}

/**
 * The project's sessions, most recently active first: those in its folder, and those in the
 * folder older versions of hx used whose recorded cwd is this workspace (that folder could be
 * shared by two paths, `/x/a-b` and `/x/a/b`). A damaged line never hides a session; only
 * files that cannot be read at all are skipped.
 */
export function listSessions(workspaceRoot: string): SessionInfo[] {
  const current = projectSessionsDir(workspaceRoot);
  const legacy = legacyProjectSessionsDir(workspaceRoot);
  const sessions: SessionInfo[] = [];
  for (const dir of current === legacy ? [current] : [current, legacy]) {
    for (const file of transcriptFiles(dir)) {
      try {
        const transcript = readTranscript(file);
        if (dir === legacy && transcript.header?.cwd !== workspaceRoot) continue;
        sessions.push(describeSession(file, transcript));
      } catch {
        // Vanished, not a regular file, or too large: not listed.
      }
    }
  }
  return sessions.sort(
    (a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
}

function transcriptFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
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
    inUseBy: liveOwner(file)?.pid,
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
  /** The session being written: the one resumed, or the fork made from it (see `forkedFrom`). */
  info: SessionInfo;
  transcript: Transcript;
  /** The history to put in the new session. */
  messages: Message[];
  /** Appends to the session's file from here on. */
  writer: TranscriptWriter;
  /** This process's hold on the session; released when the session closes. */
  lock?: SessionLock;
  /**
   * Set when the session asked for was in use by another live hx: its history was copied into
   * a new session instead of two processes writing one file.
   */
  forkedFrom?: { info: SessionInfo; owner?: LockOwner };
}

export interface ResumeOptions {
  /** For a fork: the new session's header. */
  provider: string;
  model: string;
  onError?: (error: Error) => void;
}

/**
 * Reads a session back and reopens its transcript for appending, holding its lock. When another
 * live hx holds the lock, the session is forked instead: a new session starts with the same
 * history, so two writers never interleave one file (and neither loses its tool results).
 */
export function resumeSession(info: SessionInfo, options: ResumeOptions): ResumedSession {
  const transcript = readTranscript(info.file);
  const attempt = SessionLock.acquire(info.file);
  if (attempt.kind === "busy") {
    const writer = TranscriptWriter.create({
      workspaceRoot: transcript.header?.cwd ?? path.dirname(info.file),
      provider: options.provider,
      model: options.model,
      onError: options.onError,
    });
    writer.record({ type: "history", reason: "resume", messages: transcript.messages });
    const forkLock = SessionLock.acquire(writer.file);
    const forked: SessionInfo = {
      ...info,
      id: writer.id,
      file: writer.file,
      startedAt: new Date(),
      updatedAt: new Date(),
      provider: options.provider,
      model: options.model,
    };
    return {
      info: forked,
      transcript,
      messages: transcript.messages,
      writer,
      lock: forkLock.kind === "locked" ? forkLock.lock : undefined,
      forkedFrom: { info, owner: attempt.owner },
    };
  }
  const writer = TranscriptWriter.reopen(info.file, transcript.messages, {
    repaired: transcript.repaired > 0 || transcript.truncatedTail,
    onError: options.onError,
  });
  return {
    info,
    transcript,
    messages: transcript.messages,
    writer,
    lock: attempt.kind === "locked" ? attempt.lock : undefined,
  };
}

/** One line per session for `hx sessions list`. */
export function formatSessionList(sessions: readonly SessionInfo[]): string {
  if (sessions.length === 0) return "No saved sessions for this project.";
  return sessions
    .map((s) => {
      const when = s.updatedAt.toISOString().replace("T", " ").slice(0, 16);
      const prompt = s.firstPrompt.replace(/\s+/g, " ").trim();
      const shown = prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt;
      const busy = s.inUseBy === undefined ? "" : `  [in use by pid ${s.inUseBy}]`;
      return `${s.id}  ${when}  ${String(s.messageCount).padStart(4)} msgs  ${shown}${busy}`;
    })
    .join("\n");
}
