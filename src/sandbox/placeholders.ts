import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { isProcessAlive } from "../process/alive.js";
import type { ProtectedEntry } from "./protected-mounts.js";

const MARKER = /^(\d+)-\d+$/;

/**
 * Empty stand-ins for protected paths that do not exist yet (`.mcp.json`, `.claude`), made on
 * the host so the sandbox can mount them read-only, and removed again once no sandboxed
 * process of any hx needs them. Every use leaves a marker `<pid>-<n>` in a folder per path under
 * the temp dir, so parallel commands and other hx processes never pull a mount point from under
 * each other; markers of dead processes are ignored, and stale stand-ins are removed on the
 * next start (after `kill -9`). A stand-in something was written into is kept.
 *
 * Each bash call makes and removes its stand-ins, so the work per call is kept to a few
 * system calls per path: the folder per path (with the `path` file naming it) stays in the
 * registry until a sweep finds it unused, and nothing here throws for a path that is missing.
 */
export class Placeholders {
  private sequence = 0;
  /**
   * This process's holds, by path: one marker per stand-in however many of its sandboxed
   * processes use it (three MCP servers starting together write the registry once, not three
   * times), removed when the last of them releases it.
   */
  private readonly holds = new Map<string, { count: number; marker: string; dir: string }>();

  constructor(private readonly registry: string) {}

  /** Makes the stand-ins; returns the paths to mount read-only and a function that undoes it all. */
  acquire(entries: readonly ProtectedEntry[]): { paths: string[]; release: () => void } {
    const held: Array<{ entry: ProtectedEntry; dir: string; counted: boolean }> = [];
    for (const entry of entries) {
      const hold = this.holds.get(entry.path);
      if (hold) {
        try {
          // Still there (a stand-in removed by hand is made again, as on a first use).
          makeStandIn(entry, hold.dir);
          hold.count += 1;
          held.push({ entry, dir: hold.dir, counted: true });
        } catch {
          if (existsSync(entry.path)) held.push({ entry, dir: hold.dir, counted: false });
        }
        continue;
      }
      const dir = this.folderFor(entry.path);
      try {
        const marker = this.mark(dir, entry.path);
        this.holds.set(entry.path, { count: 1, marker, dir });
        makeStandIn(entry, dir);
        held.push({ entry, dir, counted: true });
      } catch {
        // Cannot make it (a read-only disk, a race lost to a real file): mount what exists.
        if (this.holds.has(entry.path)) this.drop(entry.path);
        if (existsSync(entry.path)) held.push({ entry, dir, counted: false });
      }
    }
    let released = false;
    return {
      paths: held.map((h) => h.entry.path),
      release: () => {
        if (released) return;
        released = true;
        for (const h of held) {
          if (!h.counted) {
            cleanUp(h.dir, h.entry.path);
            continue;
          }
          const hold = this.holds.get(h.entry.path);
          if (!hold) continue;
          hold.count -= 1;
          if (hold.count === 0) this.drop(h.entry.path);
        }
      },
    };
  }

  /**
   * Leaves this process's marker in the registry folder for `target`, made (with the file
   * naming it) on its first use; made again when another hx's sweep removed it meanwhile.
   */
  private mark(dir: string, target: string): string {
    this.sequence += 1;
    const marker = path.join(dir, `${process.pid}-${this.sequence}`);
    const name = path.join(dir, "path");
    for (let attempt = 0; ; attempt++) {
      try {
        if (attempt > 0 || !existsSync(name)) {
          mkdirSync(dir, { recursive: true });
          writeFileSync(name, target);
        }
        closeSync(openSync(marker, "w"));
        return marker;
      } catch (error) {
        if (attempt > 0) throw error;
      }
    }
  }

  /** Gives up this process's hold on `target`: its marker goes, and the stand-in when nobody else holds it. */
  private drop(target: string): void {
    const hold = this.holds.get(target);
    if (!hold) return;
    this.holds.delete(target);
    removeFile(hold.marker);
    cleanUp(hold.dir, target);
  }

  /**
   * True when `target` is a stand-in some sandboxed process holds (made by any hx): a later
   * launch must treat it as missing, or it would take an empty `.git` stand-in for a real one
   * and leave it writable (an MCP server lives while bash commands come and go).
   */
  isStandIn(target: string): boolean {
    return existsSync(path.join(this.folderFor(target), "created"));
  }

  /** Removes stand-ins left by processes that are gone (hx killed with -9), and unused folders. */
  sweepStale(): void {
    let dirs: string[];
    try {
      dirs = readdirSync(this.registry);
    } catch {
      return;
    }
    for (const name of dirs) {
      const dir = path.join(this.registry, name);
      let target: string;
      try {
        target = readFileSync(path.join(dir, "path"), "utf8");
      } catch {
        continue;
      }
      if (!cleanUp(dir, target)) continue;
      // Nobody holds it: the folder goes too (unless a new hold came in meanwhile).
      removeFile(path.join(dir, "path"));
      try {
        rmdirSync(dir);
      } catch {
        // In use again, or gone.
      }
    }
  }

  private folderFor(target: string): string {
    return path.join(this.registry, createHash("sha256").update(target).digest("hex").slice(0, 24));
  }
}

/** Creates the stand-in when `entry.path` is missing, noting in `dir` that hx made it. */
function makeStandIn(entry: ProtectedEntry, dir: string): void {
  if (existsSync(entry.path)) return;
  if (entry.kind === "dir") mkdirSync(entry.path);
  else closeSync(openSync(entry.path, "wx", 0o644));
  closeSync(openSync(path.join(dir, "created"), "w"));
}

/**
 * Removes the stand-in when no live process holds a marker (markers of dead ones go); true
 * when nobody holds it.
 */
function cleanUp(dir: string, target: string): boolean {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  let live = false;
  for (const name of names) {
    const match = MARKER.exec(name);
    if (!match) continue;
    if (isProcessAlive(Number(match[1]))) live = true;
    else removeFile(path.join(dir, name));
  }
  if (live) return false;
  if (names.includes("created")) {
    removeIfEmpty(target);
    removeFile(path.join(dir, "created"));
  }
  return true;
}

function removeIfEmpty(target: string): void {
  const stats = lstatSync(target, { throwIfNoEntry: false });
  try {
    if (stats?.isDirectory()) {
      if (readdirSync(target).length === 0) rmdirSync(target);
    } else if (stats?.isFile() && stats.size === 0) {
      unlinkSync(target);
    }
  } catch {
    // Gone already, or not ours to remove.
  }
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already.
  }
}
