import { builtSchema } from "../tools/built-schemas.js";
import { defineTool, type Zod } from "../tools/tool.js";
import { type BoardToolDeps, boardCall } from "./board-tool.js";
import { renderLine } from "./render.js";

export const taskUpdateParameters = (z: Zod) =>
  z.object({
    id: z.string(),
    status: z.enum(["pending", "in_progress", "completed", "deleted"]).optional(),
    subject: z.string().optional(),
    description: z.string().optional(),
    owner: z.string().optional(),
    activeForm: z.string().optional().describe("Shown while in progress"),
    addBlockedBy: z.array(z.string()).optional().describe("Ids this task waits for"),
    addBlocks: z.array(z.string()).optional().describe("Ids that wait for this task"),
    removeBlockedBy: z.array(z.string()).optional(),
  });

/** `task_update`: changes one task of the board (status, text, owner, dependencies). */
export function createTaskUpdateTool(deps: BoardToolDeps) {
  return defineTool({
    name: "task_update",
    description:
      "Changes a task on the board. Mark it in_progress when you start and completed when done; a task cannot start before its blockers are completed.",
    parameters: taskUpdateParameters,
    jsonSchema: builtSchema("task_update"),
    effect: "none",
    async execute(args) {
      const { id, ...changes } = args;
      const result = await boardCall(() => deps.store.update(id, changes));
      if ("deleted" in result) {
        deps.onChange?.(`task deleted: #${result.deleted}`);
        return `Deleted task #${result.deleted}.`;
      }
      const line = renderLine(result);
      deps.onChange?.(`task updated: ${line}`);
      const unblocked = result.status === "completed" && result.blocks.length > 0;
      return unblocked
        ? `Updated ${line}\nIt blocked ${result.blocks.map((b) => `#${b}`).join(", ")}: task_list shows what can start now.`
        : `Updated ${line}`;
    },
  });
}
