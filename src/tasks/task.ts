/** One entry of the project's task board (`.hx/tasks/<id>.json`). */
export interface BoardTask {
  id: string;
  subject: string;
  description: string;
  status: BoardTaskStatus;
  /** Who works on it (a session, a subagent, a person); free text. */
  owner?: string;
  /** Present-tense label shown while it is in progress ("Running the tests"). */
  activeForm?: string;
  /** Tasks that must be completed before this one can start. The reverse, `blocks`, is derived. */
  blockedBy: string[];
  createdAt: string;
  updatedAt: string;
}

export const BOARD_TASK_STATUSES = ["pending", "in_progress", "completed"] as const;
export type BoardTaskStatus = (typeof BOARD_TASK_STATUSES)[number];

/** A task as read back: with the tasks it blocks and its blockers that are still open. */
export interface BoardTaskView extends BoardTask {
  blocks: string[];
  openBlockers: string[];
}

/** Why a board change was refused, in words for the model (or the user) with a way forward. */
export class BoardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BoardError";
  }
}

/** Adds `blocks` and `openBlockers` to each task, from everyone's `blockedBy`. */
export function viewsOf(tasks: readonly BoardTask[]): BoardTaskView[] {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  return tasks.map((task) => ({
    ...task,
    blocks: tasks.filter((other) => other.blockedBy.includes(task.id)).map((other) => other.id),
    // A blocker that is gone from the board (deleted by hand) blocks nothing.
    openBlockers: task.blockedBy.filter((id) => byId.has(id) && byId.get(id)?.status !== "completed"),
  }));
}

/**
 * The first dependency cycle among the tasks, as ids in order (`["2", "5", "2"]`), or
 * undefined. Every edge is "blocked by".
 */
export function findCycle(tasks: readonly BoardTask[]): string[] | undefined {
  const edges = new Map(tasks.map((task) => [task.id, task.blockedBy]));
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === "done") return undefined;
    if (state.get(id) === "open") return [...trail.slice(trail.indexOf(id)), id];
    state.set(id, "open");
    trail.push(id);
    for (const next of edges.get(id) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(id, "done");
    return undefined;
  };
  for (const task of tasks) {
    const cycle = visit(task.id);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Ids sort as numbers: 2 before 10. */
export function compareIds(a: string, b: string): number {
  return Number(a) - Number(b) || a.localeCompare(b);
}
