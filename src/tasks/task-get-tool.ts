import { builtSchema } from "../tools/built-schemas.js";
import { defineTool, type Zod } from "../tools/tool.js";
import { type BoardToolDeps, boardCall } from "./board-tool.js";
import { renderTask } from "./render.js";

export const taskGetParameters = (z: Zod) => z.object({ id: z.string() });

/** `task_get`: one task in full (description, dependencies both ways). */
export function createTaskGetTool(deps: BoardToolDeps) {
  return defineTool({
    name: "task_get",
    description: "One task of the board in full: description, what it waits for and what waits for it.",
    parameters: taskGetParameters,
    jsonSchema: builtSchema("task_get"),
    effect: "none",
    async execute(args) {
      return renderTask(await boardCall(() => deps.store.get(args.id)));
    },
  });
}
