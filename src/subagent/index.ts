export { SUBAGENT_PROMPT_SECTION } from "./system-prompt.js";
export {
  createSubagentRunner,
  createTaskTool,
  type IsolatedPlace,
  type SubagentJob,
  type TaskToolDeps,
} from "./task-tool.js";
export type { AgentType } from "./tool-selection.js";
