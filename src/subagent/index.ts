// Subagents: the task tool, the runner that gives a subagent its own loop, and the prompt section.

export {
  type SubagentJob,
  TASK_CLAUDE,
  type TaskToolDeps,
} from "./task-tool.js";
export type { AgentType } from "./tool-selection.js";
export type { SubagentStartInfo, SubagentStopInfo } from "./types.js";
export { createWorktreeIsolation, type WorkspaceKit } from "./worktree-isolation.js";
