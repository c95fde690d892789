// Start-up: how fast `hx` answers and reaches the model, what the bundle weighs, and what a
// short run costs in memory. Drives the built binary like a user, against the fake server.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakeModelServer } from "../test/support/fake-model-server.js";
import { HX_BIN, hxEnv, REPO_ROOT } from "../test/support/run-hx.js";
import type { BenchRow } from "./types.js";

const RUNS = 9;

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const baseline = median(times(RUNS, () => spawnSync(process.execPath, ["-e", "0"])));
  const version = median(
    times(RUNS, () => spawnSync(process.execPath, [HX_BIN, "--version"], { env: hxEnv() })),
  );
  rows.push({
    area: "startup",
    metric: `node -e 0 (baseline, median of ${RUNS})`,
    value: ms(baseline),
    target: "",
  });
  rows.push({
    area: "startup",
    metric: `hx --version (median of ${RUNS})`,
    value: ms(version),
    target: "< baseline + 150 ms",
    ok: version < baseline + 150,
  });

  const firstRequest = await timeToFirstRequest(RUNS);
  rows.push({
    area: "startup",
    metric: `hx agent → first model request (median of ${RUNS})`,
    value: ms(firstRequest),
    target: "< baseline + 400 ms",
    ok: firstRequest < baseline + 400,
  });

  const dist = path.join(REPO_ROOT, "dist");
  const main = statSync(path.join(dist, "hx.js")).size;
  const chunks = readdirSync(path.join(dist, "chunks")).filter((f) => f.endsWith(".js"));
  const chunkBytes = chunks.reduce((sum, f) => sum + statSync(path.join(dist, "chunks", f)).size, 0);
  rows.push({
    area: "bundle",
    metric: "dist/hx.js (what --help/--version load)",
    value: kb(main),
    target: "< 100 KB",
    ok: main < 100_000,
  });
  rows.push({
    area: "bundle",
    metric: `all chunks (${chunks.length}, SDKs loaded only when used)`,
    value: kb(chunkBytes),
    target: "",
  });

  const rss = peakRss();
  if (rss !== undefined) {
    rows.push({
      area: "memory",
      metric: "peak RSS of a one-turn hx agent run",
      value: `${(rss / 1024).toFixed(0)} MB`,
      target: "< 150 MB",
      ok: rss < 150 * 1024,
    });
  }
  return rows;
}

async function timeToFirstRequest(runs: number): Promise<number> {
  const server = await startFakeModelServer();
  const work = mkdtempSync(path.join(os.tmpdir(), "hx-bench-start-"));
  const samples: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      server.reply().text("ok");
      const start = performance.now();
      const before = server.requests.length;
      const child = spawn(process.execPath, [HX_BIN, "agent", "hi", ...openaiArgs(server.url, work)], {
        env: hxEnv({ OPENAI_API_KEY: "sk-bench" }),
        stdio: "ignore",
      });
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (server.requests.length > before) {
            samples.push(performance.now() - start);
            clearInterval(poll);
            resolve();
          }
        }, 1);
      });
      await new Promise((resolve) => child.on("close", resolve));
    }
  } finally {
    await server.close();
  }
  return median(samples);
}

/** Peak RSS in KB of one short run, read with GNU time; undefined when it is not installed. */
function peakRss(): number | undefined {
  const probe = spawnSync("/usr/bin/time", ["-f", "%M", "true"]);
  if (probe.status !== 0) return undefined;
  const result = spawnSync(
    "/usr/bin/time",
    ["-f", "%M", process.execPath, HX_BIN, "agent", "hi", "--provider", "scripted", "--script", "/dev/stdin"],
    {
      input: JSON.stringify({ replies: [{ text: "ok" }] }),
      env: hxEnv(),
      cwd: mkdtempSync(path.join(os.tmpdir(), "hx-rss-")),
    },
  );
  const lines = result.stderr.toString().trim().split("\n");
  const kbUsed = Number(lines.at(-1));
  return Number.isFinite(kbUsed) ? kbUsed : undefined;
}

function openaiArgs(url: string, cwd: string): string[] {
  return ["--provider", "openai", "--base-url", `${url}/v1`, "--model", "bench", "-C", cwd];
}

function times(n: number, fn: () => unknown): number[] {
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
  return sorted[Math.floor(sorted.length / 2)];
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
