// The todo list: todo_write, the list it keeps, and the reminder extension.

export { TODO_WRITE_CLAUDE } from "./todo-write-tool.js";
