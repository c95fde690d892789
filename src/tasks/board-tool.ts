import { ToolError } from "../core/tool.js";
import { BoardError } from "./task.js";
import type { TaskStore } from "./task-store.js";

/** What every task board tool is built from. */
export interface BoardToolDeps {
  store: TaskStore;
  /** Shows a change to the user (the terminal), e.g. `task #3 → in_progress: Write the tests`. */
  onChange?: (line: string) => void;
}

/** Runs a board operation; a refusal becomes the tool error the model reads. */
export async function boardCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BoardError) throw new ToolError(error.message);
    throw error;
  }
}
