import { closeSync, openSync } from "node:fs";

/**
 * Runs `spawn` with `files` opened read-only, as the stdio entries that become the child's
 * fds 3, 4, … (bubblewrap reads its seccomp filter from one), and closes hx's copies once the
 * child has them. A file that cannot be opened throws before anything is spawned.
 */
export function withInheritedFiles<T>(files: readonly string[] | undefined, spawn: (fds: number[]) => T): T {
  const fds: number[] = [];
  try {
    for (const file of files ?? []) fds.push(openSync(file, "r"));
    return spawn(fds);
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}
