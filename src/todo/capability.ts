import type { Capability, SessionBasics } from "../agent/capability.js";
import { createTodoReminderExtension } from "./reminder.js";
import { TodoList } from "./todo-list.js";
import { createTodoWriteTool } from "./todo-write-tool.js";

/** The model's todo list: `todo_write`, shown to the user on each update, and its reminder. */
export function setUpTodo(basics: SessionBasics): Capability {
  const todos = new TodoList();
  return {
    name: "todo",
    tools: [createTodoWriteTool(todos, { onUpdate: (rendered) => basics.log(rendered) })],
    extensions: [createTodoReminderExtension(todos)],
  };
}
