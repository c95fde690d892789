/** One item of the model's plan. */
export interface TodoItem {
  content: string;
  status: TodoStatus;
  /** Present-tense label shown while the item is in progress ("Running the tests"). */
  activeForm?: string;
}

type TodoStatus = "pending" | "in_progress" | "completed";

export const MAX_TODOS = 20;

/**
 * The todo list of one session. `todo_write` replaces it whole; the reminder extension reads
 * `revision` to see whether it changed.
 */
export class TodoList {
  private current: TodoItem[] = [];
  private revisionCount = 0;

  get items(): readonly TodoItem[] {
    return this.current;
  }

  /** Bumped on every successful replace. */
  get revision(): number {
    return this.revisionCount;
  }

  hasOpenItems(): boolean {
    return this.current.some((item) => item.status !== "completed");
  }

  /** Replaces the list; throws an Error whose message tells the model what to fix. */
  replace(items: TodoItem[]): void {
    const problem = validateTodos(items);
    if (problem) throw new Error(problem);
    this.current = items.map((item) => ({ ...item, content: item.content.trim() }));
    this.revisionCount += 1;
  }

  /** `[x] done`, `[>] doing (activeForm)`, `[ ] to do`, and a count. */
  render(): string {
    if (this.current.length === 0) return "Todo list is empty.";
    const lines = this.current.map((item) => {
      if (item.status === "completed") return `[x] ${item.content}`;
      if (item.status === "in_progress") {
        return item.activeForm ? `[>] ${item.content} (${item.activeForm})` : `[>] ${item.content}`;
      }
      return `[ ] ${item.content}`;
    });
    const done = this.current.filter((item) => item.status === "completed").length;
    return `${lines.join("\n")}\n(${done}/${this.current.length} completed)`;
  }
}

/** The first rule the list breaks, or undefined. */
function validateTodos(items: TodoItem[]): string | undefined {
  if (items.length > MAX_TODOS) {
    return `the todo list has ${items.length} items; at most ${MAX_TODOS} are allowed. Merge or drop items and send the whole list again.`;
  }
  const empty = items.findIndex((item) => item.content.trim() === "");
  if (empty !== -1) return `todo item ${empty + 1} has empty content. Describe each item in a few words.`;
  const inProgress = items.filter((item) => item.status === "in_progress").length;
  if (inProgress > 1) {
    return `${inProgress} items are in_progress; at most one may be in_progress at a time. Mark the others pending or completed and send the whole list again.`;
  }
  return undefined;
}
