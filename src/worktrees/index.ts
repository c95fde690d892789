// Git worktrees hx makes for isolated work: `.hx/worktrees/<name>` on branch `hx/<name>`.
export {
  createWorktree,
  describeChanges,
  type HxWorktree,
  listWorktrees,
  newWorktreeName,
  removeWorktree,
  WorktreeError,
  worktreeChanges,
} from "./worktrees.js";
