import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** One worktree hx made: `.hx/worktrees/<name>` on branch `hx/<name>`. */
export interface HxWorktree {
  name: string;
  path: string;
  branch: string;
  /** The commit it started from. */
  base: string;
}

export interface WorktreeChanges {
  /** Files changed, added or deleted and not committed (`git status --porcelain`). */
  files: string[];
  /** Commits on its branch since it started. */
  commits: number;
}

/** Why a worktree could not be made or removed, in words for the user or the model. */
export class WorktreeError extends Error {}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function worktreesFolder(repoRoot: string): string {
  return path.join(repoRoot, ".hx", "worktrees");
}

/** A name for a worktree nobody named: `20261201-231500-a1b2`. */
export function newWorktreeName(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${Math.random().toString(16).slice(2, 6)}`;
}

/**
 * Makes `.hx/worktrees/<name>` on a new branch `hx/<name>` from HEAD. The main tree's
 * uncommitted changes are not in it (the caller says so when the tree is dirty).
 */
export function createWorktree(repoRoot: string, name: string): HxWorktree & { dirtyMain: boolean } {
  if (!NAME.test(name)) {
    throw new WorktreeError(
      `'${name}' is not a worktree name: use letters, digits, '.', '_' and '-' (at most 64, not starting with '.' or '-').`,
    );
  }
  const folder = worktreesFolder(repoRoot);
  const target = path.join(folder, name);
  const branch = `hx/${name}`;
  if (existsSync(target) || branchExists(repoRoot, branch)) {
    throw new WorktreeError(
      `the worktree name '${name}' is taken (${existsSync(target) ? target : `branch ${branch}`}); pick another, or remove it with hx worktree remove ${name}.`,
    );
  }
  const base = git(repoRoot, ["rev-parse", "--verify", "HEAD"]).trim();
  mkdirSync(folder, { recursive: true });
  // The main tree must not list the worktrees as untracked files.
  const ignore = path.join(folder, ".gitignore");
  if (!existsSync(ignore)) writeFileSync(ignore, "*\n");
  git(repoRoot, ["worktree", "add", "--quiet", "-b", branch, target, base]);
  const dirtyMain = git(repoRoot, ["status", "--porcelain", "--untracked-files=no"]).trim() !== "";
  return { name, path: target, branch, base, dirtyMain };
}

export function worktreeChanges(worktree: Pick<HxWorktree, "path" | "base">): WorktreeChanges {
  const status = git(worktree.path, ["status", "--porcelain", "-z", "--untracked-files=all"]);
  const files = status
    .split("\0")
    .filter(Boolean)
    .map((entry) => entry.slice(3))
    .filter((file) => !file.startsWith(".hx/"));
  const commits = Number(git(worktree.path, ["rev-list", "--count", `${worktree.base}..HEAD`]).trim()) || 0;
  return { files, commits };
}

/** The diff summary a subagent reports: `git diff --stat` against its start, committed or not. */
export function diffSummary(worktree: Pick<HxWorktree, "path" | "base">): string {
  git(worktree.path, ["add", "-A", "--intent-to-add", "."]);
  return git(worktree.path, ["diff", "--stat", worktree.base]).trim();
}

/** Removes a worktree and its branch; refused when it has changes unless `force`. */
export function removeWorktree(repoRoot: string, name: string, options: { force?: boolean } = {}): void {
  const found = listWorktrees(repoRoot).find((worktree) => worktree.name === name);
  if (!found) {
    const names = listWorktrees(repoRoot).map((w) => w.name);
    throw new WorktreeError(
      `no worktree '${name}'${names.length ? `; hx's worktrees are ${names.join(", ")}` : "; hx has made none here"}.`,
    );
  }
  if (!options.force) {
    const changes = worktreeChanges(found);
    if (changes.files.length > 0 || changes.commits > 0) {
      throw new WorktreeError(
        `worktree '${name}' has ${describeChanges(changes)}; merge or copy what you need (branch ${found.branch}), then remove it with --force.`,
      );
    }
  }
  deleteWorktree(repoRoot, found);
}

/** Removes a worktree (and its branch) that has no changes and no commits; keeps any other. */
export function removeWorktreeIfClean(
  repoRoot: string,
  worktree: HxWorktree,
): { removed: boolean; changes: WorktreeChanges } {
  const changes = worktreeChanges(worktree);
  const clean = changes.files.length === 0 && changes.commits === 0;
  if (clean) deleteWorktree(repoRoot, worktree);
  return { removed: clean, changes };
}

function deleteWorktree(repoRoot: string, worktree: Pick<HxWorktree, "path" | "branch">): void {
  git(repoRoot, ["worktree", "remove", "--force", worktree.path]);
  git(repoRoot, ["branch", "-D", worktree.branch]);
}

/** hx's worktrees of this repository (`git worktree list`, those under `.hx/worktrees/`). */
export function listWorktrees(repoRoot: string): HxWorktree[] {
  const folder = worktreesFolder(repoRoot);
  const out = git(repoRoot, ["worktree", "list", "--porcelain"]);
  const found: HxWorktree[] = [];
  for (const block of out.split("\n\n")) {
    const lines = block.split("\n");
    const where = lines.find((line) => line.startsWith("worktree "))?.slice("worktree ".length);
    const branch = lines.find((line) => line.startsWith("branch "))?.slice("branch refs/heads/".length);
    if (!where || path.dirname(where) !== folder) continue;
    const name = path.basename(where);
    const base = baseOf(repoRoot, branch ?? `hx/${name}`);
    found.push({ name, path: where, branch: branch ?? "(detached)", base });
  }
  return found;
}

export function describeChanges(changes: WorktreeChanges): string {
  const parts: string[] = [];
  if (changes.files.length)
    parts.push(`${changes.files.length} changed file${changes.files.length === 1 ? "" : "s"}`);
  if (changes.commits) parts.push(`${changes.commits} commit${changes.commits === 1 ? "" : "s"}`);
  return parts.join(" and ") || "no changes";
}

/** Where the branch left the main line: its merge base with HEAD of the main tree. */
function baseOf(repoRoot: string, branch: string): string {
  try {
    return git(repoRoot, ["merge-base", "HEAD", branch]).trim();
  } catch {
    return "HEAD";
  }
}

function branchExists(repoRoot: string, branch: string): boolean {
  try {
    git(repoRoot, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]);
    return true;
  } catch {
    return false;
  }
}

function git(cwd: string, args: string[]): string {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    throw new WorktreeError(`git ${args[0]} failed: ${stderr || (error as Error).message}`);
  }
}
