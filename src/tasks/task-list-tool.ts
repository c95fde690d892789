import { builtSchema } from "../tools/built-schemas.js";
import { defineTool, type Zod } from "../tools/tool.js";
import { type BoardToolDeps, boardCall } from "./board-tool.js";
import { renderBoard } from "./render.js";

export const taskListParameters = (z: Zod) => z.object({});

/** `task_list`: the whole board, a line per task. */
export function createTaskListTool(deps: BoardToolDeps) {
  return defineTool({
    name: "task_list",
    description: "The project's task board: each task's id, status, subject, owner and open blockers.",
    parameters: taskListParameters,
    jsonSchema: builtSchema("task_list"),
    effect: "none",
    async execute() {
      const { tasks, warnings } = await boardCall(() => deps.store.read());
      const notes = warnings.map((warning) => `\nwarning: ${warning}`).join("");
      return `${renderBoard(tasks)}${notes}`;
    },
  });
}
