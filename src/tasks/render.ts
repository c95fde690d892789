import type { BoardTaskView } from "./task.js";

const MARK = { pending: "[ ]", in_progress: "[>]", completed: "[x]" } as const;

/**
 * The board as the model and the user read it, one line per task:
 * `#3 [>] Write the tests (owner: main) — blocked by #1, #2`, then the counts.
 */
export function renderBoard(tasks: readonly BoardTaskView[]): string {
  if (tasks.length === 0) return "The task board is empty.";
  const lines = tasks.map(renderLine);
  const done = tasks.filter((task) => task.status === "completed").length;
  const blocked = tasks.filter((task) => task.status !== "completed" && task.openBlockers.length > 0).length;
  return `${lines.join("\n")}\n(${done}/${tasks.length} completed${blocked ? `, ${blocked} blocked` : ""})`;
}

export function renderLine(task: BoardTaskView): string {
  const owner = task.owner ? ` (owner: ${task.owner})` : "";
  const waits =
    task.status !== "completed" && task.openBlockers.length > 0
      ? ` — blocked by ${task.openBlockers.map((id) => `#${id}`).join(", ")}`
      : "";
  return `#${task.id} ${MARK[task.status]} ${task.subject}${owner}${waits}`;
}

/** One task in full, for task_get. */
export function renderTask(task: BoardTaskView): string {
  const lines = [renderLine(task)];
  if (task.description) lines.push("", task.description, "");
  if (task.activeForm && task.status === "in_progress") lines.push(`active: ${task.activeForm}`);
  if (task.blockedBy.length) lines.push(`blocked by: ${task.blockedBy.map((id) => `#${id}`).join(", ")}`);
  if (task.blocks.length) lines.push(`blocks: ${task.blocks.map((id) => `#${id}`).join(", ")}`);
  lines.push(`status: ${task.status}; updated ${task.updatedAt}`);
  return lines.join("\n");
}
