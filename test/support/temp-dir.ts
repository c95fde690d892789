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
 * compares equal to what the workspace and child processes see). Removed after the test
 * file's last test (test/support/setup-temp-dirs.ts), or at the latest when the test process
 * exits, so fixtures made in `beforeAll` live as long as the tests that use them.
 */
export function tempDir(prefix = "hx-test-"): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  made().push(dir);
  return dir;
}

/**
 * Removes every directory tempDir made so far in this process. Vitest ends its workers
 * without an `exit` event, so the setup file calls this after each test file; without it
 * every run left its folders in /tmp.
 */
export function removeTempDirs(): void {
  const dirs = made();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
