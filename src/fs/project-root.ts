import { existsSync } from "node:fs";
import path from "node:path";

/** The nearest folder at or above `cwd` that holds `.git`; undefined outside a repository. */
export function findRepoRoot(cwd: string): string | undefined {
  let current = path.resolve(cwd);
  while (true) {
    if (existsSync(path.join(current, ".git"))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** The project root: the repository root, or the working directory outside a repository. */
export function findProjectRoot(cwd: string): string {
  return findRepoRoot(cwd) ?? path.resolve(cwd);
}

/** Folders from the project root down to `cwd`, outermost first. */
export function foldersFromRootTo(cwd: string): string[] {
  const target = path.resolve(cwd);
  const root = findProjectRoot(target);
  const folders: string[] = [];
  let current = target;
  while (true) {
    folders.unshift(current);
    if (current === root) return folders;
    const parent = path.dirname(current);
    if (parent === current) return folders;
    current = parent;
  }
}
