// Git worktrees hx makes for isolated work: `.hx/worktrees/<name>` on branch `hx/<name>`.
export {
  createWorktree,
  describeChanges,
  diffSummary,
  type HxWorktree,
  listWorktrees,
  newWorktreeName,
  removeWorktree,
  removeWorktreeIfClean,
  WorktreeError,
  worktreeChanges,
} from "./worktrees.js";
