import path from "node:path";
import { findRepoRoot } from "../fs/project-root.js";
import {
  createWorktree,
  describeChanges,
  type HxWorktree,
  newWorktreeName,
  removeWorktreeIfClean,
  WorktreeError,
} from "../worktrees/index.js";
import { UsageError } from "./run-config.js";

/**
 * `--worktree [NAME]`: the run works in a new git worktree of the repository (`.hx/worktrees/
 * NAME`, branch `hx/NAME`) instead of `cwd`. When hx exits, a worktree with no changes is
 * removed; one with changes is kept and named. Returns the folder to work in.
 */
export function enterWorktree(cwd: string, flag: string | boolean, warn: (line: string) => void): string {
  const repoRoot = findRepoRoot(cwd);
  if (!repoRoot) throw new UsageError(`--worktree needs a git repository; ${cwd} is not in one.`);
  const name = typeof flag === "string" ? flag : newWorktreeName();
  let worktree: ReturnType<typeof createWorktree>;
  try {
    worktree = createWorktree(repoRoot, name);
  } catch (error) {
    if (error instanceof WorktreeError) throw new UsageError(`--worktree: ${error.message}`);
    throw error;
  }
  warn(
    `hx: working in worktree ${path.relative(repoRoot, worktree.path)} (branch ${worktree.branch})${worktree.dirtyMain ? "; your uncommitted changes in the main tree are not in it" : ""}`,
  );
  process.once("exit", () => finishWorktree(repoRoot, worktree, warn));
  return path.join(worktree.path, path.relative(repoRoot, cwd));
}

/** At exit: a worktree with nothing in it goes; one with changes stays, named with how to remove it. */
function finishWorktree(repoRoot: string, worktree: HxWorktree, warn: (line: string) => void): void {
  try {
    const { removed, changes } = removeWorktreeIfClean(repoRoot, worktree);
    const where = path.relative(repoRoot, worktree.path);
    if (removed) {
      warn(`hx: worktree ${where} had no changes and was removed`);
      return;
    }
    warn(
      `hx: worktree ${where} kept (branch ${worktree.branch}: ${describeChanges(changes)}); hx worktree remove ${worktree.name} --force deletes it`,
    );
  } catch (error) {
    warn(`hx: worktree ${worktree.path} kept (could not check it: ${(error as Error).message})`);
  }
}
