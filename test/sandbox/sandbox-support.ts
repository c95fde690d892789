import { execFileSync } from "node:child_process";
import { findBackend, probeBackend } from "../../src/sandbox/detect.js";

/** Whether this machine can run the OS sandbox; tests that need it skip with this reason. */
export const backend = await probeBackend(findBackend());

/** `describe` title suffix: empty when the sandbox works, else the visible reason for skipping. */
export const skipReason = backend.ok ? "" : ` (skipped: ${backend.reason}; fix: ${backend.fix})`;
if (!backend.ok) console.warn(`sandbox tests skipped: ${backend.reason}`);

/** Pids of live processes whose command line contains `text` (Linux/macOS `pgrep -f`). */
export function processesMatching(text: string): number[] {
  try {
    return execFileSync("pgrep", ["-f", text], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A unique `sleep` duration, so a test can find exactly its own sleeper with pgrep. */
export function uniqueSleep(): string {
  return `${1000 + Math.floor(Math.random() * 8000)}.${process.pid % 1000}${Math.floor(Math.random() * 1000)}`;
}
