import { type ChildProcess, spawn } from "node:child_process";
import { errorMessage } from "../core/error-message.js";
import type { HookPayload } from "./events.js";

/** How one command hook ended. */
export type HookOutcome =
  /** Exit 0: go on. */
  | { kind: "success"; stdout: string; stderr: string }
  /** Exit 2: block; `stderr` is the reason. */
  | { kind: "block"; stdout: string; stderr: string }
  /** Any other exit code, a crash, a timeout or a spawn failure: warn and go on. */
  | { kind: "failure"; message: string; stdout: string; stderr: string };

export interface RunHookOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Extra environment variables. */
  env?: Record<string, string>;
}

const MAX_CAPTURE = 64 * 1024;
/** After the hook exits, how long to wait for its pipes to close (a background child may hold them). */
const DRAIN_MS = 200;

/**
 * Runs `bash -c command` with the payload as JSON on stdin, in its own process group so a
 * timeout or an abort kills everything it started. Never throws, never rejects.
 */
export function runCommandHook(
  command: string,
  payload: HookPayload,
  options: RunHookOptions,
): Promise<HookOutcome> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let finished = false;
    let timedOut = false;
    let aborted = false;
    let drainTimer: NodeJS.Timeout | undefined;

    let child: ChildProcess;
    try {
      child = spawn("bash", ["-c", command], {
        cwd: options.cwd,
        env: { ...process.env, HX_PROJECT_DIR: options.cwd, CLAUDE_PROJECT_DIR: options.cwd, ...options.env },
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      resolve({
        kind: "failure",
        message: `could not start: ${errorMessage(error)}`,
        stdout: "",
        stderr: "",
      });
      return;
    }

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

    const finish = (outcome: HookOutcome) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (drainTimer) clearTimeout(drainTimer);
      options.signal?.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(outcome);
    };
    const settle = (code: number | null, signal: NodeJS.Signals | null) => {
      const out = stdout.trim();
      const err = stderr.trim();
      if (timedOut) {
        finish({
          kind: "failure",
          message: `timed out after ${options.timeoutMs / 1000}s and was killed`,
          stdout: out,
          stderr: err,
        });
      } else if (aborted) {
        finish({ kind: "failure", message: "cancelled", stdout: out, stderr: err });
      } else if (code === 0) {
        finish({ kind: "success", stdout: out, stderr: err });
      } else if (code === 2) {
        finish({ kind: "block", stdout: out, stderr: err });
      } else {
        const how = code === null ? `was killed by ${signal ?? "a signal"}` : `exited with code ${code}`;
        finish({
          kind: "failure",
          message: err ? `${how}: ${firstLine(err)}` : how,
          stdout: out,
          stderr: err,
        });
      }
    };

    child.stdout?.on("data", (chunk: Buffer) => {
      if (stdout.length < MAX_CAPTURE) stdout += chunk.toString("utf8");
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < MAX_CAPTURE) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      finish({ kind: "failure", message: `could not start: ${error.message}`, stdout, stderr });
    });
    child.on("exit", (code, signal) => {
      drainTimer = setTimeout(() => settle(code, signal), DRAIN_MS);
    });
    child.on("close", (code, signal) => settle(code, signal));

    // A hook that never reads stdin must not crash us with EPIPE.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(`${JSON.stringify(payload)}\n`);
  });
}

function firstLine(text: string): string {
  const line = text.split("\n")[0];
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
