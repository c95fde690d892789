import type { Capability, SessionBasics } from "../agent/capability.js";
import { createTodoReminderExtension, createTodoWriteTool, TodoList } from "./index.js";

/** The model's todo list: `todo_write`, shown to the user on each update, and its reminder. */
export function setUpTodo(basics: SessionBasics): Capability {
  const todos = new TodoList();
  return {
    name: "todo",
    tools: [createTodoWriteTool(todos, { onUpdate: (rendered) => basics.log(rendered) })],
    extensions: [createTodoReminderExtension(todos)],
  };
}
