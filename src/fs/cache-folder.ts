import { readdirSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";

/** A file in the cache folder that nothing wrote for this long is removed. */
const CACHE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** `~/.hx/cache`: what hx computed and can compute again (skill discovery, V8's code cache). */
export function cacheFolder(homeDir: string): string {
  return path.join(homeDir, ".hx", "cache");
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
