import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Every directory tempDir made in this process; one exit handler removes them all. */
const registry = Symbol.for("hx.test.tempDirs");
type Registry = { [registry]?: string[] };

function made(): string[] {
  const global = globalThis as Registry;
  if (!global[registry]) {
    const dirs: string[] = [];
    global[registry] = dirs;
    process.once("exit", () => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });
  }
  return global[registry];
}

/**
 * A fresh directory under the OS temp dir, as its real path (symlinks resolved, so it
 * compares equal to what the workspace and child processes see). Removed when the test
 * process exits, so fixtures made in `beforeAll` live as long as the tests that use them.
 */
export function tempDir(prefix = "hx-test-"): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  made().push(dir);
  return dir;
}
