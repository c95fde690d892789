// Drives the real `hx` in a real terminal emulator (tmux, on its own socket) and reads the
// screen as a person sees it: what is drawn where, after cursor moves and redraws. For the
// full-screen session; `terminal.ts` (a raw pty byte stream) serves line-mode tests.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HX_BIN, hxEnv } from "./run-hx.js";
import { tempDir } from "./temp-dir.js";

export const TMUX_AVAILABLE = spawnSync("tmux", ["-V"]).status === 0;

export interface Screen {
  /** The visible screen, one string per row, trailing spaces trimmed. */
  capture(): string[];
  /** The visible screen with its colours and attributes as SGR escape sequences. */
  captureStyled(): string;
  /** Resolves with the screen once `test` holds on it; rejects with the screen after `timeoutMs`. */
  waitFor(test: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  /** Keys by tmux name: "Enter", "C-c", "Escape", "BTab", "M-Enter". */
  keys(...names: string[]): void;
  /** Literal text, typed key by key. */
  type(text: string): void;
  /** Text pasted as a bracketed paste (as a terminal sends a clipboard paste). */
  paste(text: string): void;
  resize(columns: number, rows: number): void;
  /** Resolves with hx's exit code. */
  exited(timeoutMs?: number): Promise<number>;
  close(): void;
}

export interface ScreenOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  columns?: number;
  rows?: number;
}

/** Starts `hx args` in a fresh tmux server, sized `columns`×`rows` (default 100×30). */
export function startScreen(args: string[], options: ScreenOptions): Screen {
  const dir = tempDir("hx-tmux-");
  const socket = path.join(dir, "tmux.sock");
  const exitFile = path.join(dir, "exit-code");
  const env = hxEnv({ TERM: "xterm-256color", ...options.env });
  delete env.NO_COLOR;
  if (options.env?.NO_COLOR) env.NO_COLOR = options.env.NO_COLOR;
  delete env.TMUX;
  const script = path.join(dir, "run.sh");
  const exports = Object.entries(env)
    .filter(([key]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
    .map(([key, value]) => `export ${key}=${quote(value ?? "")}`)
    .join("\n");
  const command = [process.execPath, HX_BIN, ...args].map(quote).join(" ");
  writeFileSync(
    script,
    `${exports}\ncd ${quote(options.cwd)}\n${command}\necho $? > ${quote(exitFile)}\nsleep 600\n`,
  );
  const tmux = (...rest: string[]) =>
    execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...rest], { encoding: "utf8" });
  tmux(
    "new-session",
    "-d",
    "-x",
    String(options.columns ?? 100),
    "-y",
    String(options.rows ?? 30),
    `sh ${quote(script)}`,
  );
  tmux("set-option", "-g", "window-size", "manual");

  const capture = () =>
    tmux("capture-pane", "-p", "-t", "0")
      .replace(/\n$/, "")
      .split("\n")
      .map((line) => line.replace(/\s+$/, ""));
  const poll = <T>(check: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> =>
    new Promise((resolve, reject) => {
      const started = Date.now();
      const tick = () => {
        const value = check();
        if (value !== undefined) return resolve(value);
        if (Date.now() - started > timeoutMs)
          return reject(
            new Error(
              `timed out after ${timeoutMs} ms waiting for ${what()}; screen:\n${capture().join("\n")}`,
            ),
          );
        setTimeout(tick, 50);
      };
      tick();
    });

  return {
    capture,
    captureStyled: () => tmux("capture-pane", "-p", "-e", "-t", "0"),
    waitFor(test, timeoutMs = 15_000) {
      const holds = (screen: string) =>
        typeof test === "string"
          ? screen.includes(test)
          : test instanceof RegExp
            ? test.test(screen)
            : test(screen);
      return poll(
        () => {
          const screen = capture().join("\n");
          return holds(screen) ? screen : undefined;
        },
        timeoutMs,
        () => String(test),
      );
    },
    keys: (...names) => void tmux("send-keys", "-t", "0", ...names),
    type: (text) => void tmux("send-keys", "-t", "0", "-l", text),
    paste(text) {
      tmux("set-buffer", "--", text);
      tmux("paste-buffer", "-p", "-t", "0");
    },
    resize: (columns, rows) =>
      void tmux("resize-window", "-t", "0", "-x", String(columns), "-y", String(rows)),
    exited: (timeoutMs = 15_000) =>
      poll(
        () => (existsSync(exitFile) ? Number(readFileSync(exitFile, "utf8").trim()) : undefined),
        timeoutMs,
        () => "hx to exit",
      ),
    close() {
      spawnSync("tmux", ["-S", socket, "kill-server"]);
    },
  };
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
