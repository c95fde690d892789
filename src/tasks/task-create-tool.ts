import { builtSchema } from "../tools/built-schemas.js";
import { defineTool, type Zod } from "../tools/tool.js";
import { type BoardToolDeps, boardCall } from "./board-tool.js";
import { renderLine } from "./render.js";

export const taskCreateParameters = (z: Zod) =>
  z.object({
    subject: z.string().describe("What to do, in a few words"),
    description: z.string().optional().describe("Details someone picking it up needs"),
    blockedBy: z.array(z.string()).optional().describe("Ids of tasks that must be completed first"),
  });

/** `task_create`: adds a pending task to the project's board. */
export function createTaskCreateTool(deps: BoardToolDeps) {
  return defineTool({
    name: "task_create",
    description:
      "Adds a task to the project's task board, which outlives this conversation (a later session continues it). For work with dependencies or that spans sessions; todo_write is for this session's steps.",
    parameters: taskCreateParameters,
    jsonSchema: builtSchema("task_create"),
    effect: "none",
    async execute(args) {
      const task = await boardCall(() => deps.store.create(args));
      const line = renderLine(task);
      deps.onChange?.(`task created: ${line}`);
      return `Created ${line}`;
    },
  });
}
