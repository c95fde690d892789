// Drives the real `hx` in a pseudo-terminal (util-linux `script` allocates the pty), so tests
// can type at prompts, press Ctrl-C, and read what a person would see.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { HX_BIN, hxEnv } from "./run-hx.js";

export interface TerminalSession {
  /** Everything printed so far (stdout and stderr share the terminal). */
  output(): string;
  /** Resolves when `text` has appeared after `from` (default: anywhere). Rejects after `timeoutMs`. */
  waitFor(text: string | RegExp, options?: { from?: number; timeoutMs?: number }): Promise<number>;
  type(keys: string): void;
  /** Resolves with the exit code. */
  exited(): Promise<number | null>;
  kill(): void;
}

function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function startInTerminal(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): TerminalSession {
  const command = [process.execPath, HX_BIN, ...args].map(shellQuote).join(" ");
  const child: ChildProcessWithoutNullStreams = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: options.cwd,
    env: { ...hxEnv(options.env), TERM: "dumb", COLUMNS: "200" },
  });
  let buffer = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    for (const wake of waiters) wake();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exit = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));

  return {
    output: () => buffer,
    waitFor(text, { from = 0, timeoutMs = 15_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const rest = buffer.slice(from);
          const index = typeof text === "string" ? rest.indexOf(text) : rest.search(text);
          if (index < 0) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(from + index);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`timed out waiting for ${String(text)}; terminal so far:\n${buffer}`));
        }, timeoutMs);
        if (!check()) waiters.add(wake);
      });
    },
    type: (keys) => child.stdin.write(keys),
    exited: () => exit,
    kill: () => child.kill("SIGKILL"),
  };
}
