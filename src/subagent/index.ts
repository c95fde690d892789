export { SUBAGENT_PROMPT_SECTION } from "./system-prompt.js";
export { createTaskTool, type TaskToolDeps } from "./task-tool.js";
export type { SubagentStartInfo, SubagentStopInfo } from "./types.js";
