import { mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Who holds a session: written into `<id>.lock` beside the transcript. */
export interface LockOwner {
  pid: number;
  host: string;
  /** The owner's start time as the kernel counts it (Linux), so a reused pid is not taken for it. */
  processStart?: string;
  since: string;
}

export type LockAttempt =
  | { kind: "locked"; lock: SessionLock }
  | { kind: "busy"; owner?: LockOwner }
  | { kind: "unlockable"; error: Error };

/**
 * One writer per session: a lock file created exclusively beside the transcript, holding the
 * owner's pid. A lock whose process is gone (`kill -9`, a crash) is stale and taken over; a
 * live one is reported so the caller can fork instead of interleaving two writers. Released
 * on `release()` or when the process exits.
 */
export class SessionLock {
  private released = false;
  private readonly onExit = () => this.release();

  private constructor(
    readonly file: string,
    private readonly owner: LockOwner,
  ) {
    process.once("exit", this.onExit);
  }

  /**
   * Takes the lock for a transcript, or says it is busy (and who holds it, when the lock can
   * be read). Never throws: a lock that cannot be written at all is "unlockable".
   */
  static acquire(transcriptFile: string): LockAttempt {
    const file = lockFileFor(transcriptFile);
    const owner: LockOwner = {
      pid: process.pid,
      host: os.hostname(),
      processStart: processStart(process.pid),
      since: new Date().toISOString(),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, `${JSON.stringify(owner)}\n`, { flag: "wx" });
        return { kind: "locked", lock: new SessionLock(file, owner) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST")
          return { kind: "unlockable", error: error as Error };
      }
      const current = readOwner(file);
      if (current && isAlive(current)) return { kind: "busy", owner: current };
      if (!current && recentlyCreated(file)) return { kind: "busy" }; // being written this instant
      try {
        unlinkSync(file); // stale: its process is gone
      } catch {
        // someone else removed it first; try again
      }
    }
    return { kind: "busy", owner: readOwner(file) };
  }

  /** Removes the lock if it is still this process's. */
  release(): void {
    if (this.released) return;
    this.released = true;
    process.removeListener("exit", this.onExit);
    const current = readOwner(this.file);
    if (current?.pid !== this.owner.pid || current.since !== this.owner.since) return;
    try {
      unlinkSync(this.file);
    } catch {
      // already gone
    }
  }
}

export function lockFileFor(transcriptFile: string): string {
  return transcriptFile.replace(/\.jsonl$/, "") + ".lock";
}

/** The live owner of a session's lock, if any (for listings). */
export function liveOwner(transcriptFile: string): LockOwner | undefined {
  const owner = readOwner(lockFileFor(transcriptFile));
  return owner && isAlive(owner) ? owner : undefined;
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as Partial<LockOwner>;
    if (typeof value.pid !== "number" || typeof value.host !== "string" || typeof value.since !== "string")
      return undefined;
    return value as LockOwner;
  } catch {
    return undefined;
  }
}

function recentlyCreated(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < 2_000;
  } catch {
    return false;
  }
}

function isAlive(owner: LockOwner): boolean {
  if (owner.host !== os.hostname()) return true; // cannot check another machine: assume it is live
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const start = processStart(owner.pid);
  return owner.processStart === undefined || start === undefined || start === owner.processStart;
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined off Linux. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}
