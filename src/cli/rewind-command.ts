import { realpathSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { UsageError } from "./run-config.js";

interface RewindFlags {
  session: string;
  list?: boolean;
  to?: string;
  files?: boolean;
  conversation?: boolean;
  json?: boolean;
  cwd?: string;
}

/**
 * `hx rewind --session ID --list` / `--to N [--files|--conversation]`: the headless `/rewind`,
 * for a session that is not open.
 */
export function registerRewindCommand(program: Command): Command {
  return program
    .command("rewind")
    .description("list a saved session's turns, or put its files and/or conversation back to before turn N")
    .requiredOption("--session <id>", "the session (hx sessions list shows them; a unique prefix is enough)")
    .option("--list", "list the turns and how many calls that may change files each has from there on")
    .option("--to <turn>", "go back to before this turn (files and conversation)")
    .option("--files", "with --to: only the files")
    .option("--conversation", "with --to: only the conversation")
    .option("--json", "print JSON")
    .option("-C, --cwd <dir>", "the project folder (default: the current folder)")
    .action(async (flags: RewindFlags) => {
      process.exitCode = await runRewind(flags);
    });
}

async function runRewind(flags: RewindFlags): Promise<number> {
  if (!flags.list && flags.to === undefined) throw new UsageError("say --list or --to N");
  if (flags.files && flags.conversation)
    throw new UsageError("--files and --conversation exclude each other (give neither for both)");
  const { findSession } = await import("../transcript/sessions.js");
  const { conversationBefore, formatFilesRewound, formatRewindTurns, openCheckpoints } = await import(
    "../checkpoints/index.js"
  );
  const { userSettingsDir } = await import("../config/settings.js");
  const root = realpathSync(path.resolve(flags.cwd ?? process.cwd()));
  const lookup = findSession(root, flags.session);
  if (lookup.kind !== "found") {
    process.stderr.write(`hx: ${lookup.message}\n`);
    return 1;
  }
  const info = lookup.session;
  const checkpoints = openCheckpoints(userSettingsDir(), root, info.id);
  if (flags.list) {
    const turns = checkpoints.turns();
    process.stdout.write(
      flags.json ? `${JSON.stringify(turns, null, 2)}\n` : `${formatRewindTurns(turns)}\n`,
    );
    return 0;
  }
  const turn = Number(flags.to);
  const { liveOwner } = await import("../transcript/lock.js");
  const owner = liveOwner(info.file);
  if (owner) {
    process.stderr.write(
      `hx: session ${info.id} is open in another hx (pid ${owner.pid}); rewind it there with /rewind, or end it first.\n`,
    );
    return 1;
  }
  const { readTranscript } = await import("../transcript/reader.js");
  const records = checkpoints.log.read();
  const target = conversationBefore(readTranscript(info.file).messages, records, turn);
  if ("error" in target && (!flags.files || !Number.isInteger(turn) || turn < 1)) {
    process.stderr.write(`hx: cannot rewind: ${target.error}\n`);
    return 1;
  }
  const report: Record<string, unknown> = { session: info.id, turn };
  if (!flags.conversation) {
    const files = await checkpoints.rewindFiles(turn);
    report.files = files;
    if (!flags.json) process.stdout.write(`${formatFilesRewound(files, turn)}\n`);
  }
  if (!flags.files && !("error" in target)) {
    await rewindTranscript(info, target.messages);
    report.conversation = { messages: target.messages.length, prompt: target.prompt };
    if (!flags.json)
      process.stdout.write(
        `Conversation: back to before turn ${turn} (continue it with hx --resume ${info.id}).\n`,
      );
  }
  if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return 0;
}

/** Records the shorter history in the session's own file, as `/rewind` in the session would. */
async function rewindTranscript(
  info: import("../transcript/sessions.js").SessionInfo,
  messages: import("../core/messages.js").Message[],
): Promise<void> {
  const { resumeSession } = await import("../transcript/sessions.js");
  const { Conversation } = await import("../core/conversation.js");
  const resumed = resumeSession(info, { provider: "", model: "" });
  try {
    const conversation = new Conversation(resumed.messages);
    const unfollow = resumed.writer.follow(conversation);
    conversation.replace(messages, "rewind");
    unfollow();
  } finally {
    resumed.writer.close();
    resumed.lock?.release();
  }
}
