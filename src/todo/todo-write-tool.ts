import * as z from "zod";
import { defineTool } from "../tools/tool.js";
import { MAX_TODOS, type TodoList } from "./todo-list.js";

const todoParameters = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().describe("What to do, in a few words"),
        status: z.enum(["pending", "in_progress", "completed"]),
        activeForm: z
          .string()
          .optional()
          .describe("Present-tense label shown while in progress, e.g. 'Running tests'"),
      }),
    )
    .describe("The whole list; it replaces the previous one"),
});

export interface TodoWriteOptions {
  /** Shows the list to the user after each update (the terminal). */
  onUpdate?: (rendered: string, list: TodoList) => void;
}

/** `todo_write`: the model's plan for multi-step work, kept in the session's TodoList. */
export function createTodoWriteTool(list: TodoList, options: TodoWriteOptions = {}) {
  return defineTool({
    name: "todo_write",
    description: `Keep a todo list for multi-step work (3 steps or more). Send the whole list each time; it replaces the previous one. Statuses: pending, in_progress, completed. At most one item in_progress and ${MAX_TODOS} items. Mark an item completed as soon as it is done, and the next one in_progress before starting it.`,
    parameters: todoParameters,
    effect: "none",
    async execute(args) {
      list.replace(args.todos);
      const rendered = list.render();
      options.onUpdate?.(rendered, list);
      return rendered;
    },
  });
}
