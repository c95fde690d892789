import { builtSchema } from "../tools/built-schemas.js";
import { type ClaudeShape, defineTool, type Zod } from "../tools/tool.js";
import { MAX_TODOS, type TodoList } from "./todo-list.js";

export const todoWriteParameters = (z: Zod) =>
  z.object({
    todos: z.array(
      z.object({
        content: z.string().describe("A few words"),
        status: z.enum(["pending", "in_progress", "completed"]),
        activeForm: z.string().optional().describe("Shown while in progress ('Running tests')"),
      }),
    ),
  });

export interface TodoWriteOptions {
  /** Shows the list to the user after each update (the terminal). */
  onUpdate?: (rendered: string, list: TodoList) => void;
}

/** todo_write as Claude Code's TodoWrite: the same `todos` list. */
export const TODO_WRITE_CLAUDE: ClaudeShape<{ todos: unknown[] }> = {
  name: "TodoWrite",
  input: (args) => ({ todos: args.todos }),
  response: (args) => ({ newTodos: args.todos }),
};

/** `todo_write`: the model's plan for multi-step work, kept in the session's TodoList. */
export function createTodoWriteTool(list: TodoList, options: TodoWriteOptions = {}) {
  return defineTool({
    name: "todo_write",
    description: `Your plan for work of 3+ steps. Send the whole list each time (≤ ${MAX_TODOS} items, one in_progress); mark each step completed once done, the next in_progress before starting it.`,
    parameters: todoWriteParameters,
    jsonSchema: builtSchema("todo_write"),
    effect: "none",
    claude: TODO_WRITE_CLAUDE,
    async execute(args) {
      list.replace(args.todos);
      const rendered = list.render();
      options.onUpdate?.(rendered, list);
      const plan = list.items.map((item) => ({ content: item.content, status: item.status }));
      return { content: rendered, meta: { plan } };
    },
  });
}
