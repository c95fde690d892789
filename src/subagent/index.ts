export { lastAssistantText, runSubagent, type SubagentRunConfig } from "./run-subagent.js";
export { SUBAGENT_PROMPT_SECTION } from "./system-prompt.js";
export { createTaskTool, SUBAGENT_MAX_TURNS, type TaskToolDeps } from "./task-tool.js";
export { AGENT_TYPES, type AgentType, SUBAGENT_TOOL_NAMES, selectSubagentTools } from "./tool-selection.js";
export type { SubagentStopInfo } from "./types.js";
