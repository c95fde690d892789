// Git worktrees hx makes for isolated work: `.hx/worktrees/<name>` on branch `hx/<name>`.
export {
  createWorktree,
  describeChanges,
  diffSummary,
  type HxWorktree,
  listWorktrees,
  newWorktreeName,
  removeWorktree,
  type WorktreeChanges,
  WorktreeError,
  worktreeChanges,
  worktreesFolder,
} from "./worktrees.js";
