// Start-up: how fast `hx` answers, what a one-turn headless run costs from spawn to exit, how
// long the process lingers after the model's last byte, what it weighs in memory and what its
// fixed request holds. Drives the built binary like a user, against the fake OpenAI-compatible
// server, in rounds interleaved with `node -e 0` (see measure.ts): the verdicts are ratios to
// that baseline, measured in the same rounds, so load on the machine moves both sides.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { type FakeModelServer, startFakeModelServer } from "../test/support/fake-model-server.js";
import { coverageEnv, ranPackage, ranSources } from "../test/support/ran-sources.js";
import { HX_BIN, hxEnv, REPO_ROOT } from "../test/support/run-hx.js";
import { codexExecArgs, codexVersion, runCodex } from "./codex.js";
import { median, ms, pairedRatio, peakRssOnce, timedSpawn, times } from "./measure.js";
import type { BenchRow } from "./types.js";

const ROUNDS = Number(process.env.HX_BENCH_ROUNDS ?? 15);
const RSS_RUNS = 5;
const MB = 1024 * 1024;

export async function run(): Promise<BenchRow[]> {
  const server = await startFakeModelServer();
  server.replyWith((_request, reply) => reply.text("ok"));
  const home = mkdtempSync(path.join(os.tmpdir(), "hx-bench-home-"));
  const work = mkdtempSync(path.join(os.tmpdir(), "hx-bench-work-"));
  const env = hxEnv({ HOME: home, OPENAI_API_KEY: "sk-bench" });
  const agentArgs = [HX_BIN, "agent", "hi", ...openaiArgs(server.url, work)];
  try {
    const samples = {
      baseline: [] as number[],
      version: [] as number[],
      agent: [] as number[],
      cold: [] as number[],
    };
    // The first run writes the code cache the others use (bin/hx.cjs); timed apart below.
    await node(agentArgs, env);
    const coldEnv = { ...env, NODE_DISABLE_COMPILE_CACHE: "1" };
    const firstRequest: number[] = [];
    const lingering: number[] = [];
    const jobs: Array<[keyof typeof samples, () => Promise<void>]> = [
      ["baseline", async () => void samples.baseline.push((await node(["-e", "0"])).ms)],
      ["version", async () => void samples.version.push((await node([HX_BIN, "--version"], env)).ms)],
      [
        "agent",
        async () => {
          const before = server.requests.length;
          const start = performance.now();
          const result = await node(agentArgs, env);
          // The model is one hx does not know, so hx first asks the server for its window (GET).
          const requests = server.requests.slice(before).filter((r) => r.method === "POST");
          if (result.code !== 0 || requests.length !== 1 || requests[0].respondedAt === undefined) {
            throw new Error(`bench: hx agent exited ${result.code} after ${requests.length} request(s)`);
          }
          samples.agent.push(result.ms);
          firstRequest.push(requests[0].receivedAt - start);
          lingering.push(result.exitAt - requests[0].respondedAt);
        },
      ],
      ["cold", async () => void samples.cold.push((await node(agentArgs, coldEnv)).ms)],
    ];
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order so no figure always runs right after another.
      for (let j = 0; j < jobs.length; j++) await jobs[(round + j) % jobs.length][1]();
    }
    const baseline = median(samples.baseline);
    const versionRatio = pairedRatio(samples.version, samples.baseline);
    const agentRatio = pairedRatio(samples.agent, samples.baseline);
    const coldRatio = pairedRatio(samples.cold, samples.baseline);
    const linger = median(lingering);
    const rss = await peakRss(agentArgs, env);
    const fixed = fixedRequestChars(server);
    const fixedTen = await fixedRequestAtTenSkills(server, env);
    const loads = await loadedByOneTurn(agentArgs, env, work);
    const rows: BenchRow[] = [
      {
        area: "startup",
        metric: `node -e 0 (baseline; medians of ${ROUNDS} interleaved rounds)`,
        value: ms(baseline),
        target: "",
      },
      {
        area: "startup",
        metric: "hx --version vs node -e 0",
        value: `${ms(median(samples.version))} = ${times(versionRatio)}`,
        target: "≤ 1.2×",
        ok: versionRatio <= 1.2,
      },
      {
        area: "startup",
        metric: 'one-turn hx agent "hi" vs node -e 0 (fake OpenAI server, spawn → exit)',
        value: `${ms(median(samples.agent))} = ${times(agentRatio)}`,
        target: "≤ 2.0×",
        ok: agentRatio <= 2.0,
      },
      {
        area: "startup",
        metric: "  the same without the code cache (first run after a build; NODE_DISABLE_COMPILE_CACHE=1)",
        value: `${ms(median(samples.cold))} = ${times(coldRatio)}`,
        target: "",
      },
      await codexRow(server, home, work, median(samples.agent)),
      {
        area: "startup",
        metric: "  of which spawn → request at the server",
        value: ms(median(firstRequest)),
        target: "",
      },
      {
        area: "exit",
        metric: "last response byte → process exit (one-turn run)",
        value: ms(linger),
        target: "≤ 30 ms",
        ok: linger <= 30,
      },
      rss === undefined
        ? {
            area: "memory",
            metric: "peak RSS, one-turn run",
            value: "n/a (GNU time missing)",
            target: "≤ 70 MB",
          }
        : {
            area: "memory",
            metric: "peak RSS, one-turn run (fake OpenAI server)",
            value: `${(rss / MB).toFixed(1)} MB`,
            target: "≤ 70 MB",
            ok: rss <= 70 * MB,
          },
      {
        area: "request",
        metric: "fixed request at N=0 skills: system prompt + tool schemas",
        value: `${fixed.total.toLocaleString("en-US")} chars (system ${fixed.system}, tools ${fixed.tools}: ${fixed.names})`,
        target: "≤ 4,800 chars",
        ok: fixed.total <= 4800,
      },
      {
        area: "request",
        metric: "whole first request at N=10 typical skills (~100-char descriptions): system + tools",
        value: `${fixedTen.total.toLocaleString("en-US")} chars (system ${fixedTen.system}, tools ${fixedTen.tools})`,
        target: "≤ 6,240 chars (0.8× pi's 7,800)",
        ok: fixedTen.total <= 6240,
      },
      {
        area: "bundle",
        metric:
          "what the one-turn run runs (source files of the bundle with a function run; zod and yaml on first need)",
        value: `${loads.sources} files (${loads.packages} of packages: ${loads.packageNames}); zod ${loads.zod ? "ran" : "not run"}, yaml ${loads.yaml ? "loaded" : "not loaded"}`,
        target: "no zod, no yaml",
        ok: !loads.zod && !loads.yaml,
      },
      ...bundleRows(),
    ];
    return rows;
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

function node(args: string[], env?: NodeJS.ProcessEnv) {
  return timedSpawn(process.execPath, args, { env });
}

function openaiArgs(url: string, cwd: string): string[] {
  return ["--provider", "openai", "--base-url", `${url}/v1`, "--model", "bench", "-C", cwd];
}

/**
 * Codex's one-turn wall, where a `codex` binary is installed beside: the optional column (see
 * codex.ts). A Codex that cannot talk to the server is reported as n/a rather than timed failing.
 */
async function codexRow(
  server: FakeModelServer,
  home: string,
  work: string,
  hxAgentMs: number,
): Promise<BenchRow> {
  const row = {
    area: "startup",
    metric: "  one-turn run vs Codex (codex exec, same server; medians of 7)",
    target: "≤ 0.8× (optional)",
  };
  const version = codexVersion();
  if (!version) return { ...row, value: "n/a (no codex binary on PATH)" };
  const walls: number[] = [];
  for (let i = 0; i < 7; i++) {
    const result = await runCodex(server, codexExecArgs(server, work), home);
    if (!result) return { ...row, value: `n/a (${version} failed against the fake server)` };
    walls.push(result.ms);
  }
  const ratio = hxAgentMs / median(walls);
  return {
    ...row,
    value: `${version}: ${ms(median(walls))}; hx = ${times(ratio)}`,
    ok: ratio <= 0.8,
  };
}

/** Peak RSS in bytes of the one-turn run (median of a few), read with GNU time. */
async function peakRss(agentArgs: string[], env: NodeJS.ProcessEnv): Promise<number | undefined> {
  const probe = spawnSync("/usr/bin/time", ["-f", "%M", "true"]);
  if (probe.status !== 0) return undefined;
  const values: number[] = [];
  for (let i = 0; i < RSS_RUNS; i++) {
    const rss = await peakRssOnce(process.execPath, agentArgs, { env });
    if (rss !== undefined) values.push(rss);
  }
  return values.length > 0 ? median(values) : undefined;
}

/**
 * The sources of the bundle one one-turn run runs code of (V8's coverage through the source
 * map); yaml is seen by its CommonJS require in the loader trace the tests use.
 */
async function loadedByOneTurn(agentArgs: string[], env: NodeJS.ProcessEnv, work: string) {
  const trace = path.join(work, "imports.txt");
  const coverage = path.join(work, "coverage");
  const preload = path.join(REPO_ROOT, "test/fixtures/import-trace.mjs");
  const result = await timedSpawn(process.execPath, agentArgs, {
    env: { ...env, NODE_OPTIONS: `--import=${preload}`, HX_TRACE_IMPORTS: trace, ...coverageEnv(coverage) },
  });
  if (result.code !== 0) throw new Error(`bench: traced hx agent exited ${result.code}`);
  const entries = existsSync(trace) ? readFileSync(trace, "utf8").split("\n").filter(Boolean) : [];
  const ran = ranSources(coverage);
  const packages = [...ran].filter((source) => source.startsWith("node_modules/"));
  const names = new Set(packages.map((source) => source.split("/")[1]));
  return {
    sources: ran.size,
    packages: packages.length,
    packageNames: [...names].sort().join(", "),
    zod: ranPackage(ran, "zod"),
    yaml: entries.some((e) => /^require:.*\/node_modules\/yaml\//.test(e)),
  };
}

/** The first request of a session with 10 typical skills (catalog and load_skill included). */
async function fixedRequestAtTenSkills(server: FakeModelServer, env: NodeJS.ProcessEnv) {
  const work = mkdtempSync(path.join(os.tmpdir(), "hx-bench-ten-"));
  try {
    for (let i = 0; i < 10; i++) {
      const name = `skill-${String(i).padStart(3, "0")}`;
      mkdirSync(path.join(work, ".agents", "skills", name), { recursive: true });
      const description = `Does task ${i} the way this project does it. Use it when the user asks about topic ${i} or its files.`;
      writeFileSync(
        path.join(work, ".agents", "skills", name, "SKILL.md"),
        `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`,
      );
    }
    const result = await node([HX_BIN, "agent", "hi", ...openaiArgs(server.url, work)], env);
    if (result.code !== 0) throw new Error(`bench: hx agent with 10 skills exited ${result.code}`);
    return fixedRequestChars(server);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What every request of a session with no skills starts with, as the server received it. */
function fixedRequestChars(server: FakeModelServer) {
  const body = server.requests.filter((r) => r.method === "POST").at(-1)?.body;
  const system = String(body?.messages?.[0]?.content ?? "").length;
  const tools = JSON.stringify(body?.tools ?? []).length;
  const names = (body?.tools ?? []).map((t: { function: { name: string } }) => t.function.name).join(", ");
  return { system, tools, total: system + tools, names };
}

function bundleRows(): BenchRow[] {
  const dist = path.join(REPO_ROOT, "dist");
  const bundle = statSync(path.join(dist, "hx.cjs")).size;
  const cacheDir = path.join(dist, ".cache");
  const caches = existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.startsWith("agent-v")) : [];
  const cache = caches.length > 0 ? statSync(path.join(cacheDir, caches[0])).size : undefined;
  return [
    {
      area: "bundle",
      metric: "dist/hx.cjs, the one bundle (--version answers without it)",
      value: `${(bundle / 1024).toFixed(0)} KB`,
      target: "",
    },
    {
      area: "bundle",
      metric: "  its V8 code cache for hx agent (dist/.cache/, written by the first run)",
      value: cache === undefined ? "none" : `${(cache / 1024).toFixed(0)} KB`,
      target: "written",
      ok: cache !== undefined,
    },
  ];
}
