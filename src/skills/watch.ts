import { existsSync, type FSWatcher, watch } from "node:fs";
import path from "node:path";

/** How long the watcher waits after the last change before it rescans (editors write in bursts). */
export const WATCH_DEBOUNCE_MS = 150;

export interface SkillWatchOptions {
  /** The skill roots, existing or not. */
  roots: readonly string[];
  /** Folders holding SKILL.md files found by the last scan. */
  skillDirs: readonly string[];
  /** Above this folder nothing is watched (the project root, or home for user roots). */
  stopAt: (root: string) => string;
  onChange: () => void;
  debounceMs?: number;
}

/**
 * Watches skill roots for added, removed and edited skills without polling: one
 * non-recursive `fs.watch` (inotify, FSEvents) per root, per folder between a root and a
 * skill, and per skill folder; a root that does not exist yet is watched from its nearest
 * existing parent, for the one name that would create it. Changes are debounced into one
 * `onChange`. `sync` re-targets the watchers after a rescan; `close` stops everything.
 * Watchers and the timer are unref'd, so they never keep the process alive.
 */
export class SkillWatcher {
  private readonly watchers = new Map<string, { watcher: FSWatcher; names?: Set<string> }>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: SkillWatchOptions) {
    this.sync(options.skillDirs);
  }

  /** How many folders are watched (for the bench and tests). */
  get size(): number {
    return this.watchers.size;
  }

  sync(skillDirs: readonly string[]): void {
    if (this.closed) return;
    const wanted = new Map<string, Set<string> | undefined>();
    // A folder maps to the names worth a rescan there; undefined = any change.
    const want = (dir: string, name?: string) => {
      if (name === undefined) wanted.set(dir, undefined);
      else if (!wanted.has(dir)) wanted.set(dir, new Set([name]));
      else wanted.get(dir)?.add(name);
    };
    for (const root of this.options.roots) {
      if (existsSync(root)) {
        want(root);
        continue;
      }
      const stop = this.options.stopAt(root);
      let child = root;
      let parent = path.dirname(root);
      while (!existsSync(parent) && parent !== child && child !== stop) {
        child = parent;
        parent = path.dirname(parent);
      }
      if (existsSync(parent) && isInsideOrSame(parent, stop)) want(parent, path.basename(child));
    }
    for (const dir of skillDirs) {
      want(dir);
      const root = this.options.roots.find((r) => isInsideOrSame(dir, r));
      for (
        let folder = path.dirname(dir);
        root && isInsideOrSame(folder, root) && folder !== root;
        folder = path.dirname(folder)
      )
        want(folder);
    }
    for (const [dir, entry] of this.watchers) {
      const names = wanted.get(dir);
      if (!wanted.has(dir) || !sameNames(names, entry.names)) {
        entry.watcher.close();
        this.watchers.delete(dir);
      }
    }
    for (const [dir, names] of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, { persistent: false }, (_event, file) => {
          if (names && (file === null || !names.has(String(file)))) return;
          this.changed();
        });
        watcher.on("error", () => {
          watcher.close();
          this.watchers.delete(dir);
          this.changed(); // the folder went away: rescan, which re-targets the watchers
        });
        this.watchers.set(dir, { watcher, names });
      } catch {
        // a folder that vanished between the check and the watch: the next sync sees it
      }
    }
  }

  /** Runs a rescan still waiting for its debounce now (before a model request, so it sees it). */
  flush(): void {
    if (!this.timer || this.closed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.options.onChange();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const { watcher } of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private changed(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.closed) this.options.onChange();
    }, this.options.debounceMs ?? WATCH_DEBOUNCE_MS);
    this.timer.unref();
  }
}

function isInsideOrSame(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function sameNames(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.size === b.size && [...a].every((name) => b.has(name));
}
