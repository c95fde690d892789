import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileKind } from "../../fs/regular-file.js";

/**
 * The first entry below `dir` that is neither a regular file, a folder nor a symlink (a FIFO, a
 * socket, a device), as `relative/path (a named pipe (FIFO))`; undefined when there is none.
 * Copying one would block (a FIFO) or copy something that is not a file, so the skill is
 * refused before anything is staged.
 */
export function specialFileIn(dir: string): string | undefined {
  const visit = (folder: string, rel: string): string | undefined => {
    for (const name of readdirSync(folder)) {
      if (name === ".git") continue;
      const relative = rel === "" ? name : `${rel}/${name}`;
      const stats = lstatSync(path.join(folder, name));
      if (stats.isDirectory()) {
        const found = visit(path.join(folder, name), relative);
        if (found) return found;
      } else if (!stats.isFile() && !stats.isSymbolicLink()) return `${relative} (${fileKind(stats)})`;
    }
    return undefined;
  };
  return visit(dir, "");
}
