// The writer's modules only: reading saved sessions (and its zod line schema) loads on /resume.

import type { Capability, SessionBasics, SlashCommand } from "../agent/capability.js";
import type { Tool } from "../tools/tool.js";
import { ClaudeTranscript, SessionLock, TranscriptWriter } from "../transcript/index.js";
import type { ResumedSession } from "../transcript/sessions.js";

export interface TranscriptCapability extends Capability {
  writer: TranscriptWriter;
  /** The same session as a Claude Code transcript, for hooks (`transcript_path`). */
  claude: ClaudeTranscript;
}

/**
 * The session's JSONL transcript (a resumed one goes on appending to its own file): the
 * writer follows the conversation, one event per change, and records each request's usage.
 * Also `/resume [id]`, which lists saved sessions or loads one's history into this one.
 */
export function setUpTranscript(
  basics: SessionBasics,
  options: {
    resume?: ResumedSession;
    persist?: boolean;
    /** The session's tool by name (the registry is built later), for the Claude Code transcript. */
    toolFor: (name: string) => Tool | undefined;
  },
): TranscriptCapability {
  const { conversation, workspace } = basics;
  const writer =
    options.resume?.writer ??
    TranscriptWriter.create({
      workspaceRoot: workspace.root,
      provider: basics.model.name,
      model: basics.model.model,
      onError: (error) =>
        basics.log(`warning: the session transcript could not be written: ${error.message}`),
    });
  // Not persisted: the writer exists (the session has an id) but never follows, so no file.
  const persist = options.persist !== false;
  // One writer per session: a new session's lock is free (its id is new); a resumed one holds its own.
  const acquired = options.resume || !persist ? undefined : SessionLock.acquire(writer.file);
  const lock = options.resume?.lock ?? (acquired?.kind === "locked" ? acquired.lock : undefined);
  const unfollow = persist ? writer.follow(conversation) : () => {};
  const claude = new ClaudeTranscript({
    sessionId: writer.id,
    workspace,
    toolFor: options.toolFor,
    temporary: !persist,
    onError: (error) =>
      basics.log(`warning: the Claude Code transcript for hooks could not be written: ${error.message}`),
  });
  const unfollowClaude = claude.follow(conversation);
  const resumeCommand: SlashCommand = {
    name: "resume",
    usage: "/resume [id]",
    description: "list saved sessions, or load one's history into this conversation",
    async run(args, io) {
      const { findSession, formatSessionList, listSessions } = await import("../transcript/sessions.js");
      const { readTranscript } = await import("../transcript/reader.js");
      if (!args.trim()) {
        io.print(formatSessionList(listSessions(workspace.root)));
        return;
      }
      const lookup = findSession(workspace.root, args);
      if (lookup.kind !== "found") {
        io.print(lookup.message);
        return;
      }
      const transcript = readTranscript(lookup.session.file);
      conversation.replace(transcript.messages, "resume");
      io.print(`Resumed ${lookup.session.id}: ${transcript.messages.length} messages.`);
    },
  };
  return {
    name: "transcript",
    observers: persist ? [writer.usageRecorder()] : [],
    commands: [resumeCommand],
    close() {
      unfollow();
      unfollowClaude();
      claude.close();
      writer.close();
      lock?.release();
    },
    writer,
    claude,
  };
}
