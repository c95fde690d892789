export { createTodoReminderExtension, REMINDER_AFTER_TURNS, reminderText } from "./reminder.js";
export { MAX_TODOS, type TodoItem, TodoList, type TodoStatus, validateTodos } from "./todo-list.js";
export { createTodoWriteTool, type TodoWriteOptions } from "./todo-write-tool.js";
