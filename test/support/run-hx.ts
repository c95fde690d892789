// Runs the real, built `hx` binary (bin/hx.cjs → dist/hx.js) as a child process, the way a
// user does, with an isolated HOME and no real API keys.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp-dir.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const HX_BIN = path.join(REPO_ROOT, "bin", "hx.cjs");
/** ../shared next to the project; tests that read it skip when it is absent. */
export const SHARED_DIR = path.resolve(REPO_ROOT, "../shared");

export interface HxRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface HxOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

/** Environment for a child hx: isolated HOME, fake keys, fast retries, no inherited HX_/OPENAI_ vars. */
export function hxEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(HX_|OPENAI_|DEEPSEEK_|ANTHROPIC_)/.test(key)) continue;
    env[key] = value;
  }
  Object.assign(env, {
    HOME: tempDir("hx-home-"),
    NO_COLOR: "1",
    HX_MAX_RETRIES: "2",
    HX_REQUEST_TIMEOUT_MS: "10000",
  });
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export function runHx(args: string[], options: HxOptions = {}): Promise<HxRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HX_BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: hxEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on("error", () => {}); // a child that stops reading early (EPIPE) is not a test failure
    child.stdin.end(options.input ?? "");
  });
}
