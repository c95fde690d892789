import { realpathSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";

/** `hx tasks list [--json]`: the project's task board (`.hx/tasks`), as the model sees it. */
export function registerTasksCommand(program: Command): Command {
  const tasks = program.command("tasks").description("the project's task board (.hx/tasks)");
  tasks
    .command("list")
    .description("print the board: each task's id, status, subject, owner and open blockers")
    .option("--json", "print JSON (each task with blockedBy, blocks and openBlockers)")
    .option("-C, --cwd <dir>", "the project folder (default: the current folder)")
    .action(async (options: { json?: boolean; cwd?: string }) => {
      const { findProjectRoot } = await import("../fs/project-root.js");
      const { boardFolder, renderBoard, TaskStore } = await import("../tasks/index.js");
      const root = findProjectRoot(realpathSync(path.resolve(options.cwd ?? process.cwd())));
      const { tasks: board, warnings } = await new TaskStore(boardFolder(root)).read();
      for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
      process.stdout.write(options.json ? `${JSON.stringify(board, null, 2)}\n` : `${renderBoard(board)}\n`);
    });
  return tasks;
}
