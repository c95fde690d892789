import { realpathSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";

/** `hx sessions list [--json]`: the saved sessions of this project, newest first. */
export function registerSessionsCommand(program: Command): Command {
  const sessions = program.command("sessions").description("saved conversations of this project");
  sessions
    .command("list")
    .description("list saved sessions, newest first (resume one with hx --resume ID)")
    .option("--json", "print JSON")
    .option("-C, --cwd <dir>", "the project folder (default: the current folder)")
    .action(async (options: { json?: boolean; cwd?: string }) => {
      const { formatSessionList, listSessions } = await import("../transcript/sessions.js");
      const root = realpathSync(path.resolve(options.cwd ?? process.cwd()));
      const list = listSessions(root);
      process.stdout.write(
        options.json ? `${JSON.stringify(list, null, 2)}\n` : `${formatSessionList(list)}\n`,
      );
    });
  return sessions;
}
