import type { ProcessGroups } from "../process/process-groups.js";
import { runProcess } from "../process/run-process.js";
import { childEnvironment } from "../secrets/child-env.js";
import { truncate } from "../tools/truncate.js";
import type { HookPayload } from "./events.js";

/** How one command hook ended. */
export type HookOutcome =
  /** Exit 0: go on; stdout may hold Claude Code's JSON answer. */
  | { kind: "success"; stdout: string; stderr: string }
  /** Exit 2: block; `stderr` is the reason. */
  | { kind: "block"; stdout: string; stderr: string }
  /** Any other exit code, a crash, a timeout or a spawn failure: warn and go on. */
  | { kind: "failure"; message: string; stdout: string; stderr: string };

export interface RunHookOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The environment the hook starts from; default hx's own without secrets. */
  baseEnv?: Record<string, string>;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Registers the hook's process group so hx's exit kills it. */
  groups?: ProcessGroups;
}

/** Characters of each end of stdout and stderr kept. */
const KEEP_CHARS = 32 * 1024;

/**
 * The most of a hook's text the model reads (a block reason, context, a Stop hook's message),
 * as in Claude Code: a hook printing a whole test log would otherwise fill the window, once per
 * call. Longer text keeps its start and end around a note saying how much was cut.
 */
const HOOK_TEXT_MAX_CHARS = 10_000;

/** `text` cut to `HOOK_TEXT_MAX_CHARS`, counting what the output buffer already dropped. */
export function boundHookText(text: string, alreadyCut?: { chars: number; lines: number }): string {
  return truncate(text, { maxChars: HOOK_TEXT_MAX_CHARS, keep: "both", alreadyCut }).text;
}
/** After the hook exits, how long to wait for its pipes to close (a background child may hold them). */
const DRAIN_MS = 200;

/**
 * Runs `bash --norc --noprofile -c command` with the payload as JSON on stdin, through the shared process-group
 * runner: a timeout, an abort or the hook's own exit kills everything it started. Never
 * throws, never rejects.
 */
export async function runCommandHook(
  command: string,
  payload: HookPayload,
  options: RunHookOptions,
): Promise<HookOutcome> {
  const run = await runProcess({
    file: "bash",
    // --norc: bash reads ~/.bashrc for `-c` when its stdin is a socket (Node's pipes are) and
    // SHLVL < 2; a hook must not run the user's shell start-up (slow, and its output would
    // mix with the hook's answer).
    args: ["--norc", "--noprofile", "-c", command],
    cwd: options.cwd,
    env: {
      ...(options.baseEnv ?? childEnvironment()),
      HX_PROJECT_DIR: options.cwd,
      CLAUDE_PROJECT_DIR: options.cwd,
      ...options.env,
    },
    stdin: `${JSON.stringify(payload)}\n`,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    keepChars: KEEP_CHARS,
    drainMs: DRAIN_MS,
    groups: options.groups,
    sweepEscaped: true,
  });
  const stdout = run.stdout.text.trim();
  const stderr = boundHookText(run.stderr.text.trim(), run.stderr.dropped);
  const { ending } = run;
  switch (ending.kind) {
    case "spawn-error":
      return { kind: "failure", message: `could not start: ${ending.message}`, stdout, stderr };
    case "timeout":
      return {
        kind: "failure",
        message: `timed out after ${options.timeoutMs / 1000}s and was killed`,
        stdout,
        stderr,
      };
    case "aborted":
      return { kind: "failure", message: "cancelled", stdout, stderr };
    case "signal": {
      const how = `was killed by ${ending.signal}`;
      return { kind: "failure", message: stderr ? `${how}: ${firstLine(stderr)}` : how, stdout, stderr };
    }
    case "exit": {
      if (ending.code === 0) return { kind: "success", stdout, stderr };
      if (ending.code === 2) return { kind: "block", stdout, stderr };
      const how = `exited with code ${ending.code}`;
      return { kind: "failure", message: stderr ? `${how}: ${firstLine(stderr)}` : how, stdout, stderr };
    }
  }
}

function firstLine(text: string): string {
  const line = text.split("\n")[0];
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
