// hx and Codex drawing their prompt in a real terminal emulator (tmux, which answers the
// colour and mode queries Codex waits for; a bare pseudo-terminal does not): wall time from
// the start to the prompt on screen, in rounds interleaved with node printing one word in the
// same terminal. Codex's folder is trusted in its config (else it asks first) and its model
// points at a closed port on 127.0.0.1: nothing leaves the machine.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HX_BIN, hxEnv } from "../test/support/run-hx.js";
import { codexConfigArgs, codexVersion } from "./codex.js";
import { median, ms } from "./measure.js";
import type { BenchRow } from "./types.js";

const ROUNDS = 7;
const TIMEOUT_MS = 10_000;

interface Program {
  name: string;
  command: string[];
  env: Record<string, string>;
  /** Text on screen once typing works. */
  marker: string;
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** Wall ms from starting `program` in a fresh tmux server until its marker is on screen. */
function timeToPrompt(program: Program, dir: string): number {
  const socket = path.join(dir, `tmux-${program.name.replace(/\W/g, "")}.sock`);
  const script = path.join(dir, "run.sh");
  const exports = Object.entries(program.env)
    .filter(([key]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
    .map(([key, value]) => `export ${key}=${quote(value)}`);
  writeFileSync(script, `${exports.join("\n")}\nexec ${program.command.map(quote).join(" ")}\n`);
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  const start = performance.now();
  tmux("new-session", "-d", "-x", "120", "-y", "40", `sh ${quote(script)}`);
  try {
    while (performance.now() - start < TIMEOUT_MS) {
      if (tmux("capture-pane", "-p", "-t", "0").includes(program.marker)) return performance.now() - start;
    }
    throw new Error(`${program.name}: no "${program.marker}" within ${TIMEOUT_MS} ms`);
  } finally {
    spawnSync("tmux", ["-S", socket, "kill-server"]);
  }
}

function programs(base: string): Program[] {
  const work = path.join(base, "work");
  mkdirSync(path.join(work, ".git"), { recursive: true });
  const env = hxEnv({ TERM: "xterm-256color", OPENAI_API_KEY: "sk-bench" });
  delete env.TMUX;
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
  const found: Program[] = [
    {
      name: "node",
      command: [process.execPath, "-e", "process.stdout.write('ready'); setTimeout(() => {}, 5000)"],
      env: clean,
      marker: "ready",
    },
    {
      name: "hx",
      command: [
        process.execPath,
        HX_BIN,
        "--provider",
        "openai",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--model",
        "m",
        "-C",
        work,
      ],
      env: clean,
      marker: "/help for commands",
    },
  ];
  if (codexVersion()) {
    const home = path.join(base, "home-codex");
    mkdirSync(path.join(home, ".codex"), { recursive: true });
    writeFileSync(
      path.join(home, ".codex", "config.toml"),
      `[projects.${JSON.stringify(work)}]\ntrust_level = "trusted"\n`,
    );
    found.push({
      name: "Codex",
      command: ["codex", "-C", work, ...codexConfigArgs("http://127.0.0.1:9/v1"), "-m", "bench"],
      env: { ...clean, HOME: home },
      marker: "Ask Codex to do anything",
    });
  }
  return found;
}

/** The rows: each program's prompt over node's word, in the same terminal, medians of the rounds. */
export function terminalPromptRows(): BenchRow[] {
  if (spawnSync("tmux", ["-V"]).status !== 0)
    return [
      { area: "tui", metric: "prompt drawn in tmux, hx and Codex", value: "n/a (no tmux)", target: "" },
    ];
  const base = mkdtempSync(path.join(os.tmpdir(), "hx-bench-tmux-"));
  try {
    const all = programs(base);
    for (const program of all) timeToPrompt(program, base); // first runs: caches, config files
    const times = new Map<Program, number[]>(all.map((p) => [p, []]));
    for (let round = 0; round < ROUNDS; round++)
      for (const program of all) times.get(program)?.push(timeToPrompt(program, base));
    const baseline = times.get(all[0]) ?? [];
    const over = (program: Program) => median((times.get(program) ?? []).map((t, i) => t - baseline[i]));
    const hx = over(all[1]);
    const codex = all[2] ? over(all[2]) : undefined;
    return [
      {
        area: "tui",
        metric: `prompt drawn in tmux, over node printing a word there (median of ${ROUNDS} interleaved rounds): hx; Codex`,
        value: `${ms(hx)}; ${codex === undefined ? "n/a (not installed)" : ms(codex)}`,
        target: codex === undefined ? "" : "hx ahead",
        ...(codex === undefined ? {} : { ok: hx < codex }),
      },
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
