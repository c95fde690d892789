import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A file in the cache folder that nothing wrote for this long is removed. */
const CACHE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** `~/.hx/cache`: what hx computed and can compute again (skill discovery, V8's code cache). */
export function cacheFolder(homeDir: string): string {
  return path.join(homeDir, ".hx", "cache");
}

/**
 * Writes a cache file whole or not at all (a temporary file, created afresh and readable by
 * the user alone, renamed over it), synchronously, so it can run as hx exits; true when it was
 * written. Never throws: a cache that cannot be written is computed again next time.
 */
export function writeCacheFile(file: string, text: string): boolean {
  const temporary = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temporary, text, { flag: "wx", mode: 0o600 });
    renameSync(temporary, file);
    return true;
  } catch {
    try {
      unlinkSync(temporary);
    } catch {}
    return false;
  }
}

/**
 * Removes the files of the cache folder not written for 30 days (a project left, an old
 * build's code cache, a temporary file of a process killed while it wrote). A file still in
 * use is only written again by the next run that needs it. Never throws.
 */
export function pruneCacheFolder(folder: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(folder, name);
    try {
      const stats = statSync(file);
      if (stats.isFile() && now - stats.mtimeMs > CACHE_MAX_AGE_MS) unlinkSync(file);
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
}
