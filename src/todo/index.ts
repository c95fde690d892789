export { createTodoReminderExtension } from "./reminder.js";
export { TodoList } from "./todo-list.js";
export { createTodoWriteTool } from "./todo-write-tool.js";
