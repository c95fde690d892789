import path from "node:path";
import type { LoopExtension } from "../agent/extension.js";
import { ToolError, type ToolOutput } from "../core/tool.js";
import type { Tool } from "../tools/tool.js";
import { Workspace } from "../tools/workspace.js";
import {
  createWorktree,
  describeChanges,
  diffSummary,
  type HxWorktree,
  removeWorktreeIfClean,
  WorktreeError,
} from "../worktrees/index.js";
import type { IsolatedPlace } from "./task-tool.js";

/** What a subagent needs to work in another folder: tools and extensions bound to it. */
export interface WorkspaceKit {
  tools: readonly Tool[];
  extensions: LoopExtension[];
  /** Ends what the kit started (its sandbox, its process groups). */
  close(): void;
}

/**
 * `task` with `isolation: "worktree"`: each subagent gets a new git worktree of the repository
 * (`.hx/worktrees/task-…`, branch `hx/task-…`), a workspace rooted there (file tools, the
 * sandbox's writable folder and the permission check's root), so two of them never see each
 * other's files. When it ends, a worktree with no changes is removed; one with changes is kept
 * and its branch and diff summary join the answer.
 */
export function createWorktreeIsolation(options: {
  repoRoot: string;
  /** The session's workspace root (a folder inside the repository, often its root). */
  root: string;
  kitFor: (workspace: Workspace) => Promise<WorkspaceKit>;
}): (job: { id: string; description: string }) => Promise<IsolatedPlace> {
  // `git worktree add` takes repository-wide locks: one at a time.
  let creating: Promise<unknown> = Promise.resolve();
  const create = (name: string): Promise<HxWorktree> => {
    const made = creating.then(() => createWorktree(options.repoRoot, name));
    creating = made.catch(() => undefined);
    return made;
  };
  return async (job) => {
    let worktree: HxWorktree;
    try {
      worktree = await create(worktreeName(job.description));
    } catch (error) {
      if (!(error instanceof WorktreeError)) throw error;
      throw new ToolError(
        `isolation: no worktree could be made: ${error.message} Run the task without isolation, or commit first.`,
      );
    }
    const workspace = new Workspace(path.join(worktree.path, path.relative(options.repoRoot, options.root)));
    const kit = await options.kitFor(workspace);
    return {
      workspace,
      tools: kit.tools,
      extensions: kit.extensions,
      finish: (output) => {
        kit.close();
        return withWorktreeReport(output, options.repoRoot, worktree);
      },
    };
  };
}

/** The answer, then where its work is: branch and diff summary, or that nothing was changed. */
function withWorktreeReport(output: ToolOutput, repoRoot: string, worktree: HxWorktree): ToolOutput {
  const where = path.relative(repoRoot, worktree.path);
  let report: string;
  try {
    const { removed, changes } = removeWorktreeIfClean(repoRoot, worktree);
    report = removed
      ? `[It changed no files; its worktree ${where} was removed.]`
      : `[Its work is in worktree ${where} on branch ${worktree.branch} (${describeChanges(changes)}), not in your files: merge the branch or copy what you need.]\n${diffSummary(worktree)}`;
  } catch (error) {
    report = `[Its worktree ${where} (branch ${worktree.branch}) was kept: ${(error as Error).message}]`;
  }
  return { ...output, content: `${output.content}\n\n${report}` };
}

/** `task-<description as a slug>-<4 hex>`, a valid and unused-in-practice worktree name. */
function worktreeName(description: string): string {
  const slug = description
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 32)
    .replace(/-+$/, "");
  return `task-${slug ? `${slug}-` : ""}${Math.random().toString(16).slice(2, 6)}`;
}
