import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { isProcessAlive } from "../process/alive.js";
import { sandboxFilter } from "./seccomp.js";

const TMP_PREFIX = "hx-sandbox-";

/**
 * The files one session's sandbox owns: its private /tmp (created on first use, removed at
 * dispose or when hx exits) and the seccomp filters' files beside it, one per kind, written
 * once and handed to every command.
 */
export class SandboxFiles {
  private tmpDir: string | undefined;
  /** The seccomp filters' files, by whether they refuse Unix sockets. */
  private readonly filterFiles = new Map<boolean, string>();
  private readonly removeAtExit = () => this.remove();

  constructor(
    private readonly tempRoot: string,
    private readonly arch: string | undefined,
  ) {}

  /** The private temp dir (a real path), created on the first call. */
  tmp(): string {
    if (!this.tmpDir) {
      // In the background: a crowded temp folder takes long to list, and nothing waits on it.
      void removeStaleTmpDirs(this.tempRoot);
      this.tmpDir = realpathSync(mkdtempSync(path.join(this.tempRoot, `${TMP_PREFIX}${process.pid}-`)));
      process.once("exit", this.removeAtExit);
    }
    return this.tmpDir;
  }

  /**
   * The seccomp filter's file, beside the private /tmp (never inside it: commands could
   * rewrite it for the next one), created afresh (`wx`: never through a planted symlink);
   * undefined where hx has no filter for this machine (`status` says so).
   */
  filter(refuseUnixSockets: boolean): string | undefined {
    let file = this.filterFiles.get(refuseUnixSockets);
    if (!file) {
      const filter = sandboxFilter(this.arch, { refuseUnixSockets });
      if (!filter) return undefined;
      file = `${this.tmp()}.${refuseUnixSockets ? "seccomp" : "seccomp-net"}`;
      writeFileSync(file, filter, { mode: 0o400, flag: "wx" });
      this.filterFiles.set(refuseUnixSockets, file);
    }
    return file;
  }

  /** Removes every file (a later command creates them again). */
  remove(): void {
    if (this.tmpDir) rmSync(this.tmpDir, { recursive: true, force: true });
    for (const file of this.filterFiles.values()) rmSync(file, { force: true });
    this.tmpDir = undefined;
    this.filterFiles.clear();
  }

  dispose(): void {
    this.remove();
    process.off("exit", this.removeAtExit);
  }
}

/**
 * Private temp dirs of hx processes that are gone (killed by a signal before they could clean
 * up), removed off the main thread; never rejects.
 */
async function removeStaleTmpDirs(tempRoot: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(tempRoot);
  } catch {
    return;
  }
  for (const name of names) {
    const match = name.startsWith(TMP_PREFIX) ? /^(\d+)-/.exec(name.slice(TMP_PREFIX.length)) : null;
    if (!match || isProcessAlive(Number(match[1]))) continue;
    await rm(path.join(tempRoot, name), { recursive: true, force: true }).catch(() => {});
  }
}
