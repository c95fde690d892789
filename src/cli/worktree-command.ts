import { realpathSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";

/** `hx worktree list [--json]` and `hx worktree remove NAME [--force]`: the worktrees hx made. */
export function registerWorktreeCommand(program: Command): Command {
  const worktree = program.command("worktree").description("the git worktrees hx made (.hx/worktrees)");
  worktree
    .command("list")
    .description("list them with their branch and changes")
    .option("--json", "print JSON")
    .option("-C, --cwd <dir>", "the repository (default: the current folder)")
    .action(async (options: { json?: boolean; cwd?: string }) => {
      const { describeChanges, listWorktrees, worktreeChanges } = await import("../worktrees/index.js");
      const root = await repoRootOf(options.cwd);
      if (!root) return;
      const rows = listWorktrees(root).map((w) => ({ ...w, changes: worktreeChanges(w) }));
      if (options.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        rows.length === 0
          ? "hx has no worktrees here.\n"
          : `${rows.map((w) => `${w.name}  ${w.branch}  ${describeChanges(w.changes)}  ${path.relative(root, w.path)}`).join("\n")}\n`,
      );
    });
  worktree
    .command("remove")
    .description("remove one and its branch (refused when it has changes, unless --force)")
    .argument("<name>", "the worktree's name")
    .option("--force", "remove it even with changes or commits")
    .option("-C, --cwd <dir>", "the repository (default: the current folder)")
    .action(async (name: string, options: { force?: boolean; cwd?: string }) => {
      const { removeWorktree, WorktreeError } = await import("../worktrees/index.js");
      const root = await repoRootOf(options.cwd);
      if (!root) return;
      try {
        removeWorktree(root, name, { force: options.force });
        process.stdout.write(`Removed worktree ${name} and its branch hx/${name}.\n`);
      } catch (error) {
        if (!(error instanceof WorktreeError)) throw error;
        process.stderr.write(`hx: ${error.message}\n`);
        process.exitCode = 1;
      }
    });
  return worktree;
}

async function repoRootOf(cwd: string | undefined): Promise<string | undefined> {
  const { findRepoRoot } = await import("../fs/project-root.js");
  const here = realpathSync(path.resolve(cwd ?? process.cwd()));
  const root = findRepoRoot(here);
  if (!root) {
    process.stderr.write(`hx: ${here} is not in a git repository.\n`);
    process.exitCode = 1;
  }
  return root;
}
