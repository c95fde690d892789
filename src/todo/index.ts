// The todo list: todo_write, the list it keeps, and the reminder extension.
export { createTodoReminderExtension } from "./reminder.js";
export { TodoList } from "./todo-list.js";
export { createTodoWriteTool, TODO_WRITE_CLAUDE } from "./todo-write-tool.js";
