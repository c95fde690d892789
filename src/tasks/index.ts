// The project's task board (.hx/tasks): tasks with dependencies that outlive a conversation.
import path from "node:path";
import type { BoardToolDeps } from "./board-tool.js";
import { createTaskCreateTool } from "./task-create-tool.js";
import { createTaskGetTool } from "./task-get-tool.js";
import { createTaskListTool } from "./task-list-tool.js";
import { createTaskUpdateTool } from "./task-update-tool.js";

export type { BoardToolDeps } from "./board-tool.js";
export { renderBoard } from "./render.js";
export { taskBoardSettingsSchema } from "./settings.js";
export { TaskStore } from "./task-store.js";

/** Where a project's board lives: `<project root>/.hx/tasks`. */
export function boardFolder(projectRoot: string): string {
  return path.join(projectRoot, ".hx", "tasks");
}

/** The four board tools, in the order the model sees them. */
export function createBoardTools(deps: BoardToolDeps) {
  return [
    createTaskCreateTool(deps),
    createTaskUpdateTool(deps),
    createTaskListTool(deps),
    createTaskGetTool(deps),
  ];
}
