// The interactive terminal: how soon `hx` draws its prompt, and that the commands that do not
// draw it never run the full-screen UI library.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { coverageEnv, ranPackage, ranSources } from "../test/support/ran-sources.js";
import { HX_BIN, hxEnv } from "../test/support/run-hx.js";
import { median, ms } from "./measure.js";
import { terminalPromptRows } from "./terminal-prompt.js";
import type { BenchRow } from "./types.js";

const RUNS = 7;

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // The same pseudo-terminal running `node -e` that prints one word: what any program pays.
  // Wall-clock time swings with the machine's load (2 cores shared by many); CPU time of the
  // process (from /proc) much less, so the target is checked on CPU time.
  const pty = await sampled(() =>
    timeToOutput(
      `${process.execPath} -e "process.stdout.write('ready'); setTimeout(() => {}, 5000)"`,
      "ready",
    ),
  );
  const version = await sampled(() => timeToOutput(`${process.execPath} ${HX_BIN} --version`, "."));
  // A user's first session writes the code cache of the interactive session (bin/hx.cjs: 3 s in,
  // or at exit); the runs below are killed sooner, so one session that lasts 3 s comes first.
  await timeToHx("/help for commands", { holdMs: 3500 });
  const prompt = await sampled(() => timeToHx("/help for commands"));
  const status = await sampled(() => timeToHx("ctx 0% of"));
  const uncached = await sampled(() =>
    timeToHx("/help for commands", { env: { NODE_DISABLE_COMPILE_CACHE: "1" } }),
  );
  rows.push({
    area: "tui",
    metric: `node printing one word in a pseudo-terminal (baseline; median of ${RUNS})`,
    value: `${ms(pty.wall)} wall, ${ms(pty.cpu)} CPU`,
    target: "",
  });
  rows.push({
    area: "tui",
    metric: "hx --version in the same terminal, over that baseline (for scale)",
    // (It exits as it prints, so its CPU time cannot be read at that moment.)
    value: `${ms(version.wall - pty.wall)} wall`,
    target: "",
  });
  rows.push({
    area: "tui",
    metric: "hx → prompt drawn (typing works), over that baseline",
    value: `${ms(prompt.wall - pty.wall)} wall, ${ms(prompt.cpu - pty.cpu)} CPU`,
    target: "≤ 150 ms CPU",
    ok: prompt.cpu - pty.cpu <= 150,
  });
  rows.push({
    area: "tui",
    metric: "  the same without the code cache (a first session after install or a build)",
    value: `${ms(uncached.wall - pty.wall)} wall, ${ms(uncached.cpu - pty.cpu)} CPU`,
    target: "",
  });
  rows.push({
    area: "tui",
    metric: "hx → status line filled in (settings read, model known), over that baseline",
    value: `${ms(status.wall - pty.wall)} wall, ${ms(status.cpu - pty.cpu)} CPU`,
    target: "",
  });

  rows.push(...terminalPromptRows());

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
      metric: `${label} runs the UI library`,
      value: loaded ? "yes" : "no",
      target: "no",
      ok: !loaded,
    });
  }
  return rows;
}

/** Whether a run of `hx args` loads the full-screen chunk (module hooks log every URL). */
function loadsUi(args: string[], cwd: string): boolean {
  const coverage = mkdtempSync(path.join(os.tmpdir(), "hx-bench-load-"));
  spawnSync(process.execPath, [HX_BIN, ...args], {
    cwd,
    input: "hi\n",
    env: hxEnv(coverageEnv(coverage)),
  });
  // `--version` never compiles the bundle: nothing of it ran.
  if (
    !readdirSync(coverage).some((file) =>
      readFileSync(path.join(coverage, file), "utf8").includes("/dist/hx.cjs"),
    )
  )
    return false;
  const ran = ranSources(coverage);
  return (
    ranPackage(ran, "@mariozechner/pi-tui") || [...ran].some((source) => source.startsWith("src/cli/tui/"))
  );
}

/** Starts `hx` in a pseudo-terminal and times it until `marker` is on screen. */
function timeToHx(marker: string, options: RunOptions = {}): Promise<Timing> {
  const work = mkdtempSync(path.join(os.tmpdir(), "hx-bench-prompt-"));
  const command = `${process.execPath} ${HX_BIN} --provider openai --base-url http://127.0.0.1:9/v1 --model m -C ${work}`;
  return timeToOutput(command, marker, options);
}

interface RunOptions {
  /** More environment for the program. */
  env?: Record<string, string>;
  /** How long it keeps running after the marker before it is killed. */
  holdMs?: number;
}

interface Timing {
  wall: number;
  /** CPU time (user + system) of the processes under `script` when the marker appeared. */
  cpu: number;
}

/** Runs `command` in a pseudo-terminal (util-linux script) until `marker` is printed. */
function timeToOutput(command: string, marker: string, options: RunOptions = {}): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      env: {
        ...hxEnv({ OPENAI_API_KEY: "sk-bench", TERM: "xterm-256color", COLUMNS: "100", ...options.env }),
      },
    });
    let output = "";
    let seen = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no ${marker} within 10 s:\n${output}`));
    }, 10_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (!seen && output.includes(marker)) {
        seen = true;
        const wall = performance.now() - start;
        const cpu = child.pid ? cpuOfDescendants(child.pid) : 0;
        clearTimeout(timer);
        setTimeout(() => {
          child.kill("SIGKILL");
          resolve({ wall, cpu });
        }, options.holdMs ?? 0);
      }
    });
  });
}

/** User + system CPU ms of every process below `pid` (not `pid` itself), from /proc. */
function cpuOfDescendants(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name (which may hold spaces): state ppid ... utime(14) stime(15).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended meanwhile
    }
  }
  let ticks = 0;
  const below = (parent: number) => {
    for (const [id, stat] of stats) {
      if (stat.ppid !== parent) continue;
      ticks += stat.ticks;
      below(id);
    }
  };
  below(pid);
  return (ticks * 1000) / CLOCK_TICKS;
}

/** Linux reports CPU time in clock ticks of 1/100 s on every common build. */
const CLOCK_TICKS = 100;

/** The median wall and CPU time of RUNS runs. */
async function sampled(fn: () => Promise<Timing>): Promise<Timing> {
  const runs: Timing[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await fn());
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) };
}
