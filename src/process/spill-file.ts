import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

/** What a spill file ended up holding. */
export interface SpillResult {
  /** Absolute path of the file. */
  file: string;
  bytes: number;
  /** False when the output went past `maxBytes` and the file holds only its start. */
  complete: boolean;
}

/**
 * Saves a process's whole output to disk once it passes `afterBytes`, so memory holds only
 * its head and tail while nothing is lost. Bytes below the threshold wait in memory (most
 * commands never reach it, and then no file is made). Stops writing at `maxBytes`.
 */
export class SpillFile {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private fd: number | undefined;
  private written = 0;
  private failed = false;
  private truncated = false;

  constructor(
    readonly file: string,
    private readonly afterBytes: number,
    private readonly maxBytes: number,
  ) {}

  write(chunk: Buffer): void {
    if (this.failed) return;
    if (this.fd === undefined) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes <= this.afterBytes) return;
      if (!this.open()) return;
      const first = Buffer.concat(this.pending);
      this.pending = [];
      this.append(first);
      return;
    }
    this.append(chunk);
  }

  /** Closes the file; undefined when nothing was spilled (or the file could not be written). */
  finish(): SpillResult | undefined {
    this.pending = [];
    if (this.fd === undefined) return undefined;
    closeSync(this.fd);
    this.fd = undefined;
    if (this.failed) return undefined;
    return { file: this.file, bytes: this.written, complete: !this.truncated };
  }

  /** Removes the file (when the output turned out small enough to show whole). */
  discard(): void {
    this.finish();
    rmSync(this.file, { force: true });
  }

  private open(): boolean {
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      this.fd = openSync(this.file, "w", 0o600);
      return true;
    } catch {
      this.failed = true;
      this.pending = [];
      return false;
    }
  }

  private append(chunk: Buffer): void {
    if (this.fd === undefined || this.truncated) return;
    const room = this.maxBytes - this.written;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    try {
      writeSync(this.fd, part);
      this.written += part.length;
    } catch {
      this.failed = true;
      closeSync(this.fd);
      this.fd = undefined;
      return;
    }
    if (part.length < chunk.length) this.truncated = true;
  }
}
