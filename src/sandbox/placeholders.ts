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
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { isProcessAlive } from "../process/alive.js";
import type { ProtectedEntry } from "./protected-mounts.js";

/**
 * Empty stand-ins for protected paths that do not exist yet (`.mcp.json`, `.claude`), made on
 * the host so the sandbox can mount them read-only, and removed again once no sandboxed
 * process of any hx needs them. Every use leaves a marker `<pid>-<n>` in a folder per path under
 * the temp dir, so parallel commands and other hx processes never pull a mount point from under
 * each other; markers of dead processes are ignored, and stale stand-ins are removed on the
 * next start (after `kill -9`). A stand-in something was written into is kept.
 */
export class Placeholders {
  private sequence = 0;

  constructor(private readonly registry: string) {}

  /** Makes the stand-ins; returns the paths to mount read-only and a function that undoes it all. */
  acquire(entries: readonly ProtectedEntry[]): { paths: string[]; release: () => void } {
    const held: Array<{ entry: ProtectedEntry; marker: string; dir: string }> = [];
    for (const entry of entries) {
      const dir = this.folderFor(entry.path);
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, "path"), entry.path);
        this.sequence += 1;
        const marker = path.join(dir, `${process.pid}-${this.sequence}`);
        writeFileSync(marker, "");
        if (!existsSync(entry.path)) {
          if (entry.kind === "dir") mkdirSync(entry.path);
          else closeSync(openSync(entry.path, "wx", 0o644));
          writeFileSync(path.join(dir, "created"), "");
        }
        held.push({ entry, marker, dir });
      } catch {
        // Cannot make it (a read-only disk, a race lost to a real file): mount what exists.
        if (existsSync(entry.path)) held.push({ entry, marker: "", dir });
      }
    }
    let released = false;
    return {
      paths: held.map((h) => h.entry.path),
      release: () => {
        if (released) return;
        released = true;
        for (const h of held) {
          if (h.marker) rmSync(h.marker, { force: true });
          cleanUp(h.dir, h.entry.path);
        }
      },
    };
  }

  /**
   * True when `target` is a stand-in some sandboxed process holds (made by any hx): a later
   * launch must treat it as missing, or it would take an empty `.git` stand-in for a real one
   * and leave it writable (an MCP server lives while bash commands come and go).
   */
  isStandIn(target: string): boolean {
    return existsSync(path.join(this.folderFor(target), "created"));
  }

  /** Removes stand-ins left by processes that are gone (hx killed with -9). */
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
      cleanUp(dir, target);
    }
  }

  private folderFor(target: string): string {
    return path.join(this.registry, createHash("sha256").update(target).digest("hex").slice(0, 24));
  }
}

/** Removes the stand-in and its folder when no live process holds a marker. */
function cleanUp(dir: string, target: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  let live = false;
  for (const name of names) {
    const pid = Number(name.split("-")[0]);
    if (!/^\d+-\d+$/.test(name)) continue;
    if (isProcessAlive(pid)) live = true;
    else rmSync(path.join(dir, name), { force: true });
  }
  if (live) return;
  if (names.includes("created")) removeIfEmpty(target);
  rmSync(dir, { recursive: true, force: true });
}

function removeIfEmpty(target: string): void {
  try {
    const stats = lstatSync(target);
    if (stats.isDirectory()) {
      if (readdirSync(target).length === 0) rmdirSync(target);
    } else if (stats.isFile() && stats.size === 0) {
      unlinkSync(target);
    }
  } catch {
    // Gone already, or not ours to remove.
  }
}
