// Shared setup for the harness end-to-end tests (test/e2e/harness-*.test.ts): the real built
// `hx` against the fake model server, with settings written as a Claude Code user writes them.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { HX_BIN, type HxOptions, type HxRun, hxEnv, runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { startInTerminal } from "../support/terminal.js";
import { OPENAI_KEY } from "../support/wire.js";

export interface HarnessContext {
  server: FakeModelServer;
  /** The project folder hx works in (`-C`). */
  work: string;
  /** `--provider openai --base-url … --model test-model -C work` (and `--trust` unless `{ trust: false }`). */
  args: () => string[];
  /** Runs `hx agent <task> [...extra]` headless (stdin closed at once). */
  agent: (task: string, extra?: string[], options?: HxOptions) => Promise<HxRun>;
  /** Starts `hx agent <task> [...extra]` without waiting, so a test can signal it mid-run; `done` is its exit code. */
  start: (
    task: string,
    extra?: string[],
    env?: Record<string, string>,
  ) => { child: ChildProcess; done: Promise<number | null> };
}

export const KEYS = OPENAI_KEY;

/**
 * Starts a fresh fake server and project folder for each test of the calling file. The folder
 * is the user's own project, so it is trusted for each run (`--trust`: its settings' allow
 * rules, modes and hooks apply); `{ trust: false }` makes it a repository the user just cloned.
 */
export function useHarness(options: { trust?: boolean } = {}): HarnessContext {
  const context = {} as HarnessContext;
  beforeEach(async () => {
    context.server = await startFakeModelServer();
    context.work = tempDir("hx-harness-");
  });
  afterEach(async () => {
    await context.server.close();
  });
  context.args = () => [
    "--provider",
    "openai",
    "--base-url",
    `${context.server.url}/v1`,
    "--model",
    "test-model",
    "-C",
    context.work,
    ...(options.trust === false ? [] : ["--trust"]),
  ];
  context.start = (task, extra = [], env = {}) => {
    const child = spawn(process.execPath, [HX_BIN, "agent", task, ...extra, ...context.args()], {
      env: hxEnv({ ...KEYS, ...env }),
      stdio: ["ignore", "ignore", "ignore"],
    });
    return { child, done: new Promise((resolve) => child.once("close", (code) => resolve(code))) };
  };
  context.agent = (task, extra = [], options = {}) =>
    runHx(["agent", task, ...extra, ...context.args()], {
      ...options,
      env: { ...KEYS, ...options.env },
    });
  return context;
}

/** A command hook as settings hold it, with an optional timeout in seconds. */
export const commandHook = (command: string, timeout?: number) => ({
  type: "command",
  command,
  ...(timeout ? { timeout } : {}),
});

/** Writes `.hx/<file>` (default settings.json) in the project. */
export function writeSettings(work: string, settings: unknown, file = "settings.json"): void {
  mkdirSync(path.join(work, ".hx"), { recursive: true });
  writeFileSync(path.join(work, ".hx", file), JSON.stringify(settings, null, 2));
}

/** Writes an executable bash script into the project and returns its absolute path. */
export function writeScript(work: string, name: string, body: string): string {
  const file = path.join(work, name);
  writeFileSync(file, `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
  return file;
}

export { messagesOf, toolNamesOf, toolResultsOf, type WireMessage } from "../support/wire.js";

/** `[HOOK] ...` lines of a run's stderr, in order. */
export function hookLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.trimStart().startsWith("[HOOK]"));
}

/** The closing stats line (`turns=… tool_calls=… blocked=…`). */
export function statsLine(stderr: string): string {
  return stderr.split("\n").find((line) => /^turns=\d+ tool_calls=\d+ blocked=\d+/.test(line)) ?? "";
}

export interface PtyStep {
  /** Text to wait for (after the previous step's match). */
  expect: string;
  /** Keys to type once it appeared, e.g. "y\r". */
  send: string;
}

export interface PtyRun {
  /** stdout and stderr together, as the terminal showed them. */
  output: string;
  code: number | null;
  /** Set when a step's text never appeared or hx did not exit in time. */
  error?: string;
}

/**
 * Runs the built `hx` in a real pseudo-terminal, waits for each step's text and types its
 * answer. Never waits forever: after `timeoutSeconds` hx is killed and `error` says why.
 */
export async function runHxInTerminal(
  args: string[],
  options: { cwd: string; steps: PtyStep[]; env?: Record<string, string>; timeoutSeconds?: number },
): Promise<PtyRun> {
  const timeoutMs = (options.timeoutSeconds ?? 20) * 1000;
  const term = startInTerminal(args, { cwd: options.cwd, env: { ...KEYS, ...options.env } });
  let error: string | undefined;
  try {
    let from = 0;
    for (const step of options.steps) {
      const at = await term.waitFor(step.expect, { from, timeoutMs });
      from = at + step.expect.length;
      term.type(step.send);
    }
    const timer = setTimeout(() => {
      error = `hx did not exit within ${timeoutMs} ms`;
      term.kill();
    }, timeoutMs);
    const code = await term.exited();
    clearTimeout(timer);
    return { output: term.output(), code: error ? null : code, error };
  } catch (failure) {
    term.kill();
    return { output: term.output(), code: null, error: (failure as Error).message };
  }
}
