export { createTodoReminderExtension } from "./reminder.js";
export { type TodoItem, TodoList, type TodoStatus } from "./todo-list.js";
export { createTodoWriteTool, type TodoWriteOptions } from "./todo-write-tool.js";
