// Timing helpers for benches on a shared, noisy machine: every figure is measured in rounds
// interleaved with `node -e 0`, so a load spike slows both sides of a ratio alike, and the
// verdict is the median of the per-round ratios.
import { type SpawnOptions, spawn } from "node:child_process";

export interface Timed {
  /** Wall time from spawn to the process's exit, in ms. */
  ms: number;
  /** performance.now() at exit. */
  exitAt: number;
  code: number | null;
}

/** Runs a command to its exit (not to its pipes closing) and times it. */
export function timedSpawn(command: string, args: string[], options: SpawnOptions = {}): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { stdio: "ignore", ...options });
    child.once("error", reject);
    child.once("exit", (code) => {
      const exitAt = performance.now();
      resolve({ ms: exitAt - start, exitAt, code });
    });
  });
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median of the per-round ratios a[i] / b[i]. */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((value, i) => value / b[i]));
}

export const ms = (value: number) => `${value.toFixed(0)} ms`;
export const times = (ratio: number) => `${ratio.toFixed(2)}×`;

/** Peak RSS in bytes of one run of a command, read with GNU time; undefined when it failed. */
export async function peakRssOnce(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<number | undefined> {
  return (await usageOnce(command, args, options))?.rssBytes;
}

/**
 * Peak RSS (bytes) and CPU time (user + system, ms, GNU time's 10 ms resolution) of one run of
 * a command and what it waited for; undefined when it failed.
 */
export async function usageOnce(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ rssBytes: number; cpuMs: number } | undefined> {
  // Asynchronous: a fake server answering the command may live in this process.
  const child = spawn("/usr/bin/time", ["-f", "%M %U %S", command, ...args], {
    ...options,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise((resolve) => child.on("close", resolve));
  const [kb, user, system] = (stderr.trim().split("\n").at(-1) ?? "").split(" ").map(Number);
  if (code !== 0 || ![kb, user, system].every(Number.isFinite)) return undefined;
  return { rssBytes: kb * 1024, cpuMs: (user + system) * 1000 };
}
