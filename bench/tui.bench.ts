// The interactive terminal: how soon `hx` draws its prompt, what loading the full-screen UI
// library costs, and that the commands that do not draw it never load it.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { HX_BIN, hxEnv, REPO_ROOT } from "../test/support/run-hx.js";
import type { BenchRow } from "./types.js";

const RUNS = 7;
const here = path.dirname(fileURLToPath(import.meta.url));

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const baseline = median(timed(RUNS, () => spawnSync(process.execPath, ["-e", "0"])));
  // The same pseudo-terminal running `node -e` that prints one character: what any program pays.
  const ptyBaseline = median(
    await samples(RUNS, () =>
      timeToOutput(`${process.execPath} -e "process.stdout.write('ready')"`, "ready"),
    ),
  );
  const version = median(
    await samples(RUNS, () => timeToOutput(`${process.execPath} ${HX_BIN} --version`, ".")),
  );
  const promptDrawn = median(await samples(RUNS, timeToPromptDrawn));
  rows.push({
    area: "tui",
    metric: `node printing one line in a pseudo-terminal (baseline, median of ${RUNS})`,
    value: ms(ptyBaseline),
    target: "",
  });
  rows.push({
    area: "tui",
    metric: `hx --version in the same terminal, over that baseline (for scale)`,
    value: ms(version - ptyBaseline),
    target: "",
  });
  rows.push({
    area: "tui",
    metric: `hx → prompt and status line drawn, over that baseline (median of ${RUNS})`,
    value: ms(promptDrawn - ptyBaseline),
    target: "≤ 150 ms",
    ok: promptDrawn - ptyBaseline <= 150,
  });

  const chunk = readdirSync(path.join(REPO_ROOT, "dist", "chunks")).find((f) => /^app-.*\.js$/.test(f));
  if (chunk) {
    const file = path.join(REPO_ROOT, "dist", "chunks", chunk);
    const load = median(
      timed(RUNS, () =>
        spawnSync(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(file)})`]),
      ),
    );
    rows.push({
      area: "tui",
      metric: "loading the full-screen UI (pi-tui + marked chunk), over node -e 0",
      value: ms(Math.max(0, load - baseline)),
      target: "",
    });
  }

  const work = mkdtempSync(path.join(os.tmpdir(), "hx-bench-tui-"));
  const script = path.join(work, "script.json");
  spawnSync("sh", ["-c", `echo '{"replies":[{"text":"ok"}]}' > ${script}`]);
  const checks: Array<[string, string[]]> = [
    ["hx --version", ["--version"]],
    ["hx agent (headless)", ["agent", "hi", "--provider", "scripted", "--script", script, "-C", work]],
    ["echo hi | hx (piped, line mode)", ["--provider", "scripted", "--script", script, "-C", work]],
  ];
  for (const [label, args] of checks) {
    const loaded = loadsUi(args, work);
    rows.push({
      area: "tui",
      metric: `${label} loads the UI library`,
      value: loaded ? "yes" : "no",
      target: "no",
      ok: !loaded,
    });
  }
  return rows;
}

/** Whether a run of `hx args` loads the full-screen chunk (module hooks log every URL). */
function loadsUi(args: string[], cwd: string): boolean {
  const log = path.join(mkdtempSync(path.join(os.tmpdir(), "hx-bench-load-")), "loaded.txt");
  spawnSync(process.execPath, ["--import", path.join(here, "support", "load-log.mjs"), HX_BIN, ...args], {
    cwd,
    input: "hi\n",
    env: hxEnv({ HX_BENCH_LOAD_LOG: log }),
  });
  let loaded = "";
  try {
    loaded = readFileSync(log, "utf8");
  } catch {
    throw new Error(`the load log of hx ${args.join(" ")} was not written`);
  }
  return /\/chunks\/app-[^/]*\.js$/m.test(loaded) || loaded.includes("pi-tui");
}

/** Starts `hx` in a pseudo-terminal and times it until the status line is on screen. */
function timeToPromptDrawn(): Promise<number> {
  const work = mkdtempSync(path.join(os.tmpdir(), "hx-bench-prompt-"));
  const command = `${process.execPath} ${HX_BIN} --provider openai --base-url http://127.0.0.1:9/v1 --model m -C ${work}`;
  return timeToOutput(command, "ctx 0% of");
}

/** Runs `command` in a pseudo-terminal (util-linux script) and times it until `marker` is printed. */
function timeToOutput(command: string, marker: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      env: { ...hxEnv({ OPENAI_API_KEY: "sk-bench", TERM: "xterm-256color", COLUMNS: "100" }) },
    });
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no ${marker} within 10 s:\n${output}`));
    }, 10_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes(marker)) {
        const elapsed = performance.now() - start;
        clearTimeout(timer);
        child.kill("SIGKILL");
        resolve(elapsed);
      }
    });
  });
}

async function samples(n: number, fn: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

function timed(n: number, fn: () => unknown): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    fn();
    out.push(performance.now() - start);
  }
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
