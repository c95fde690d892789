import { mkdir, open, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { errorMessage } from "../core/error-message.js";
import {
  BOARD_TASK_STATUSES,
  BoardError,
  type BoardTask,
  type BoardTaskStatus,
  type BoardTaskView,
  compareIds,
  findCycle,
  viewsOf,
} from "./task.js";

export interface NewTask {
  subject: string;
  description?: string;
  activeForm?: string;
  owner?: string;
  blockedBy?: readonly string[];
}

export interface TaskChanges {
  subject?: string;
  description?: string;
  activeForm?: string;
  owner?: string;
  status?: BoardTaskStatus | "deleted";
  addBlockedBy?: readonly string[];
  removeBlockedBy?: readonly string[];
  /** Tasks this one blocks: this task joins their `blockedBy`. */
  addBlocks?: readonly string[];
}

export interface BoardRead {
  tasks: BoardTaskView[];
  /** Files that are not tasks (hand-edited, cut short): named, never fatal. */
  warnings: string[];
}

const LOCK_WAIT_MS = 3000;
const STALE_LOCK_MS = 10_000;

/**
 * The project's task board: one JSON file per task under `.hx/tasks/`, so tasks outlive the
 * conversation (compaction, `--continue`, a new session). Every change runs under a lock file
 * and writes each file atomically (temporary file, then rename), so two sessions working on one
 * board never lose each other's changes or read half a file. `blockedBy` is the only stored
 * direction; `blocks` is derived on read, so the two can never disagree.
 */
export class TaskStore {
  constructor(readonly folder: string) {}

  async read(): Promise<BoardRead> {
    const warnings: string[] = [];
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { tasks: [], warnings };
      throw error;
    }
    const tasks: BoardTask[] = [];
    for (const name of names.filter((n) => /^[^.].*\.json$/.test(n))) {
      const file = path.join(this.folder, name);
      try {
        const task = parseTask(JSON.parse(await readFile(file, "utf8")), name.slice(0, -".json".length));
        if (typeof task === "string") warnings.push(`${file}: ${task}; left as it is`);
        else tasks.push(task);
      } catch (error) {
        warnings.push(`${file}: not a task (${errorMessage(error)}); left as it is`);
      }
    }
    tasks.sort((a, b) => compareIds(a.id, b.id));
    return { tasks: viewsOf(tasks), warnings };
  }

  async get(id: string): Promise<BoardTaskView> {
    const { tasks } = await this.read();
    return find(tasks, id);
  }

  async create(input: NewTask): Promise<BoardTaskView> {
    return this.locked(async () => {
      const { tasks } = await this.read();
      const blockedBy = unique(input.blockedBy ?? []);
      for (const id of blockedBy) find(tasks, id);
      const now = new Date().toISOString();
      const id = String((await this.highWater(tasks)) + 1);
      const task: BoardTask = {
        id,
        subject: requireText(input.subject, "subject"),
        description: input.description?.trim() ?? "",
        status: "pending",
        ...(input.owner ? { owner: input.owner } : {}),
        ...(input.activeForm ? { activeForm: input.activeForm } : {}),
        blockedBy,
        createdAt: now,
        updatedAt: now,
      };
      await this.write(task);
      await writeFile(path.join(this.folder, ".highwatermark"), id);
      return find(viewsOf([...tasks, task]), id);
    });
  }

  /** Applies the changes to one task (and, for `addBlocks`, to the tasks it now blocks). */
  async update(id: string, changes: TaskChanges): Promise<BoardTaskView | { deleted: string }> {
    return this.locked(async () => {
      const { tasks } = await this.read();
      const current = find(tasks, id);
      if (changes.status === "deleted") return this.remove(tasks, current);
      const next: BoardTask = stored(current);
      const touched = new Map<string, BoardTask>([[id, next]]);
      if (changes.subject !== undefined) next.subject = requireText(changes.subject, "subject");
      if (changes.description !== undefined) next.description = changes.description.trim();
      if (changes.activeForm !== undefined) next.activeForm = changes.activeForm;
      if (changes.owner !== undefined) next.owner = changes.owner || undefined;
      for (const other of changes.addBlockedBy ?? []) {
        find(tasks, other);
        if (other === id) throw new BoardError(`task ${id} cannot block itself.`);
        if (!next.blockedBy.includes(other)) next.blockedBy.push(other);
      }
      const removing = new Set(changes.removeBlockedBy ?? []);
      next.blockedBy = next.blockedBy.filter((other) => !removing.has(other));
      for (const other of changes.addBlocks ?? []) {
        if (other === id) throw new BoardError(`task ${id} cannot block itself.`);
        const blocked = touched.get(other) ?? stored(find(tasks, other));
        if (!blocked.blockedBy.includes(id)) blocked.blockedBy.push(id);
        touched.set(other, blocked);
      }
      const after = tasks.map((task) => touched.get(task.id) ?? task);
      const cycle = findCycle(after);
      if (cycle) {
        throw new BoardError(
          `that would make a dependency cycle (${cycle.join(" → ")}); each arrow means "waits for". Remove one of these dependencies instead.`,
        );
      }
      if (changes.status !== undefined && changes.status !== next.status) {
        const open = viewsOf(after).find((task) => task.id === id)?.openBlockers ?? [];
        if (changes.status !== "pending" && open.length > 0) {
          throw new BoardError(
            `task ${id} is blocked by ${open.map((o) => `task ${o}`).join(", ")}, not completed yet. Finish ${open.length === 1 ? "it" : "them"} first, or remove the dependency with removeBlockedBy.`,
          );
        }
        next.status = changes.status;
      }
      const now = new Date().toISOString();
      for (const task of touched.values()) {
        task.updatedAt = now;
        await this.write(task);
      }
      return find(viewsOf(after), id);
    });
  }

  private async remove(tasks: BoardTaskView[], task: BoardTaskView): Promise<{ deleted: string }> {
    for (const other of tasks) {
      if (!other.blockedBy.includes(task.id)) continue;
      await this.write({ ...stored(other), blockedBy: other.blockedBy.filter((id) => id !== task.id) });
    }
    await unlink(this.fileOf(task.id));
    return { deleted: task.id };
  }

  private fileOf(id: string): string {
    return path.join(this.folder, `${id}.json`);
  }

  private async write(task: BoardTask): Promise<void> {
    const target = this.fileOf(task.id);
    const temporary = path.join(this.folder, `.${task.id}.json.${process.pid}.tmp`);
    await writeFile(temporary, `${JSON.stringify(task, null, 2)}\n`);
    await rename(temporary, target);
  }

  /** The highest id ever given out, so a deleted task's id is not given to a new one. */
  private async highWater(tasks: readonly BoardTask[]): Promise<number> {
    const recorded = Number(
      await readFile(path.join(this.folder, ".highwatermark"), "utf8").catch(() => "0"),
    );
    const present = tasks.map((task) => Number(task.id)).filter(Number.isFinite);
    return Math.max(Number.isFinite(recorded) ? recorded : 0, 0, ...present);
  }

  /** Runs `work` holding `.lock` (created exclusively; a dead owner's or an old lock is taken over). */
  private async locked<T>(work: () => Promise<T>): Promise<T> {
    await mkdir(this.folder, { recursive: true });
    const lock = path.join(this.folder, ".lock");
    const started = Date.now();
    while (true) {
      try {
        const handle = await open(lock, "wx");
        await handle.writeFile(String(process.pid));
        await handle.close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        if (await isStale(lock)) {
          await unlink(lock).catch(() => {});
          continue;
        }
        if (Date.now() - started > LOCK_WAIT_MS) {
          throw new BoardError(
            `the task board is busy (${lock} is held by another hx); try again in a moment.`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    }
    try {
      return await work();
    } finally {
      await unlink(lock).catch(() => {});
    }
  }
}

async function isStale(lock: string): Promise<boolean> {
  const [owner, info] = await Promise.all([
    readFile(lock, "utf8").catch(() => ""),
    stat(lock).catch(() => undefined),
  ]);
  if (!info) return false; // gone meanwhile: the next attempt takes it
  if (Date.now() - info.mtimeMs > STALE_LOCK_MS) return true;
  const pid = Number(owner);
  if (!Number.isInteger(pid) || pid <= 0) return false; // being written right now
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function find<T extends BoardTask>(tasks: readonly T[], id: string): T {
  const task = tasks.find((t) => t.id === String(id).trim());
  if (task) return task;
  const known = tasks.length ? `The board has ${tasks.map((t) => t.id).join(", ")}` : "The board is empty";
  throw new BoardError(`task ${id} does not exist. ${known} (task_list shows them).`);
}

/** A task as it is stored: without the derived fields of a view. */
function stored(task: BoardTask | BoardTaskView): BoardTask {
  const { blocks: _blocks, openBlockers: _open, ...rest } = task as BoardTaskView;
  return { ...rest, blockedBy: [...rest.blockedBy] };
}

function requireText(value: string, field: string): string {
  const text = value.trim();
  if (!text) throw new BoardError(`the ${field} is empty; give it in a few words.`);
  return text;
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => String(id).trim()))];
}

/** The task in a file, or what is wrong with it. */
function parseTask(value: unknown, fileId: string): BoardTask | string {
  if (typeof value !== "object" || value === null) return "not a JSON object";
  const task = value as Record<string, unknown>;
  if (task.id !== fileId) return `its id ${JSON.stringify(task.id)} does not match the file name`;
  if (typeof task.subject !== "string") return "no subject";
  if (!BOARD_TASK_STATUSES.includes(task.status as BoardTaskStatus))
    return `unknown status ${JSON.stringify(task.status)}`;
  const blockedBy = Array.isArray(task.blockedBy) ? task.blockedBy.map(String) : [];
  return {
    id: fileId,
    subject: task.subject,
    description: typeof task.description === "string" ? task.description : "",
    status: task.status as BoardTaskStatus,
    ...(typeof task.owner === "string" && task.owner ? { owner: task.owner } : {}),
    ...(typeof task.activeForm === "string" && task.activeForm ? { activeForm: task.activeForm } : {}),
    blockedBy,
    createdAt: typeof task.createdAt === "string" ? task.createdAt : "",
    updatedAt: typeof task.updatedAt === "string" ? task.updatedAt : "",
  };
}
