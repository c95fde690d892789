// The peers beside hx, where they are installed (none is a dependency): Codex (`codex`, the
// npm package @openai/codex), Claude Code (`claude`, @anthropic-ai/claude-code) and pi (`pi`,
// @mariozechner/pi-coding-agent), each pointed at the same fake model server in the wire it
// speaks (Responses, Anthropic Messages, Chat Completions), in the same interleaved rounds as
// hx and `node -e 0`. These are the README's "best peer" figures, measured here rather than
// copied. Nothing leaves 127.0.0.1: each peer's update checks, telemetry and plugin sync are
// turned off (checked with strace: its only connection is to the fake server).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type FakeModelServer,
  type RecordedRequest,
  startFakeModelServer,
} from "../test/support/fake-model-server.js";
import { HX_BIN, hxEnv } from "../test/support/run-hx.js";
import { codexExecArgs } from "./codex.js";
import { median, ms, pairedRatio, timedSpawn, times } from "./measure.js";
import type { BenchRow } from "./types.js";

const ROUNDS = Number(process.env.HX_BENCH_PEER_ROUNDS ?? 7);
const MB = 1024 * 1024;

interface Runner {
  name: string;
  version: string;
  /** The one-turn run: command, arguments, environment. */
  turn: { command: string; args: string[]; env: NodeJS.ProcessEnv };
  versionArgs: string[];
  /** Where it runs (Claude Code and pi work in the current folder). */
  cwd: string;
  /** The system prompt and tool schemas of its main request, in characters. */
  requestChars(request: RecordedRequest): number;
}

function installed(command: string): string | undefined {
  const probe = spawnSync(command, ["--version"], { encoding: "utf8" });
  return probe.error || probe.status !== 0 ? undefined : probe.stdout.trim().split("\n")[0];
}

// biome-ignore lint/suspicious/noExplicitAny: wire JSON.
type Any = any;
const textOf = (value: Any): number =>
  typeof value === "string"
    ? value.length
    : Array.isArray(value)
      ? value.reduce((n, b) => n + (b.text?.length ?? 0), 0)
      : 0;
const toolsOf = (body: Any) => JSON.stringify(body?.tools ?? []).length;

function runners(server: FakeModelServer, base: string, work: string): Runner[] {
  const found: Runner[] = [];
  const home = (name: string) => {
    const dir = path.join(base, `home-${name}`);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const hxHome = home("hx");
  found.push({
    name: "hx",
    version: "this build",
    turn: {
      command: process.execPath,
      args: [
        HX_BIN,
        "agent",
        "hi",
        "--provider",
        "openai",
        "--base-url",
        `${server.url}/v1`,
        "--model",
        "bench",
        "-C",
        work,
      ],
      env: hxEnv({ HOME: hxHome, OPENAI_API_KEY: "sk-bench" }),
    },
    versionArgs: [HX_BIN, "--version"],
    cwd: work,
    requestChars: (r) => textOf(r.body?.messages?.[0]?.content) + toolsOf(r.body),
  });
  const codex = installed("codex");
  if (codex) {
    found.push({
      name: "Codex",
      version: codex,
      turn: {
        command: "codex",
        args: codexExecArgs(server, work),
        env: { ...process.env, HOME: home("codex"), OPENAI_API_KEY: "sk-bench" },
      },
      versionArgs: ["--version"],
      cwd: work,
      requestChars: (r) => textOf(r.body?.instructions) + toolsOf(r.body),
    });
  }
  const claude = installed("claude");
  if (claude) {
    found.push({
      name: "Claude Code",
      version: claude,
      turn: {
        command: "claude",
        args: ["-p", "hi", "--model", "bench"],
        env: {
          ...process.env,
          HOME: home("claude"),
          ANTHROPIC_BASE_URL: server.url,
          ANTHROPIC_API_KEY: "sk-ant-bench",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_AUTOUPDATER: "1",
          DISABLE_TELEMETRY: "1",
          DISABLE_ERROR_REPORTING: "1",
        },
      },
      versionArgs: ["--version"],
      cwd: work,
      requestChars: (r) => textOf(r.body?.system) + toolsOf(r.body),
    });
  }
  const pi = installed("pi");
  if (pi) {
    const piHome = home("pi");
    mkdirSync(path.join(piHome, ".pi", "agent"), { recursive: true });
    writeFileSync(
      path.join(piHome, ".pi", "agent", "models.json"),
      JSON.stringify({
        providers: {
          hxbench: {
            baseUrl: `${server.url}/v1`,
            api: "openai-completions",
            apiKey: "sk-bench",
            models: [{ id: "bench" }],
          },
        },
      }),
    );
    found.push({
      name: "pi",
      version: pi,
      turn: {
        command: "pi",
        args: ["-p", "--provider", "hxbench", "--model", "bench", "hi"],
        env: { ...process.env, HOME: piHome },
      },
      versionArgs: ["--version"],
      cwd: work,
      requestChars: (r) => textOf(r.body?.messages?.[0]?.content) + toolsOf(r.body),
    });
  }
  return found;
}

interface Samples {
  wall: number[];
  version: number[];
  first: number[];
  linger: number[];
  chars: number[];
}

/** One one-turn run: wall, spawn → its main request, last byte → exit, and that request's size. */
async function turn(server: FakeModelServer, runner: Runner) {
  const before = server.requests.length;
  const start = performance.now();
  const result = await timedSpawn(runner.turn.command, runner.turn.args, {
    env: runner.turn.env,
    cwd: runner.cwd,
  });
  const posts = server.requests.slice(before).filter((r) => r.method === "POST");
  // The request with the most tool schemas is the agent's own (not a title or quota call).
  const main = [...posts].sort((a, b) => toolsOf(b.body) - toolsOf(a.body))[0];
  const last = posts.at(-1);
  if (result.code !== 0 || !main || last?.respondedAt === undefined) return undefined;
  return {
    wall: result.ms,
    first: posts[0].receivedAt - start,
    linger: result.exitAt - last.respondedAt,
    chars: runner.requestChars(main),
  };
}

/** Peak RSS (GNU time) of one one-turn run, in bytes. */
async function peakRss(runner: Runner): Promise<number | undefined> {
  const child = spawn("/usr/bin/time", ["-f", "%M", runner.turn.command, ...runner.turn.args], {
    env: runner.turn.env,
    cwd: runner.cwd,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise((resolve) => child.on("close", resolve));
  const kb = Number(stderr.trim().split("\n").at(-1));
  return code === 0 && Number.isFinite(kb) ? kb * 1024 : undefined;
}

export async function run(): Promise<BenchRow[]> {
  const base = mkdtempSync(path.join(os.tmpdir(), "hx-bench-peers-"));
  const work = path.join(base, "work");
  mkdirSync(work);
  const server = await startFakeModelServer();
  server.replyWith((_request, reply) => reply.text("ok"));
  try {
    const all = runners(server, base, work);
    if (all.length === 1)
      return [
        {
          area: "peers",
          metric: "Codex, Claude Code, pi beside hx",
          value: "n/a (none installed)",
          target: "",
        },
      ];
    const baseline: number[] = [];
    const samples = new Map<Runner, Samples>(
      all.map((r) => [r, { wall: [], version: [], first: [], linger: [], chars: [] }]),
    );
    const failed = new Set<Runner>();
    for (const runner of all) await turn(server, runner); // first runs: caches, config files
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push((await timedSpawn(process.execPath, ["-e", "0"])).ms);
      for (const runner of all) {
        const s = samples.get(runner)!;
        s.version.push(
          (await timedSpawn(runner.turn.command, runner.versionArgs, { env: runner.turn.env })).ms,
        );
        const one = failed.has(runner) ? undefined : await turn(server, runner);
        if (!one) failed.add(runner);
        else {
          s.wall.push(one.wall);
          s.first.push(one.first);
          s.linger.push(one.linger);
          s.chars.push(one.chars);
        }
      }
    }
    const rows: BenchRow[] = [];
    for (const runner of all) {
      const s = samples.get(runner)!;
      const label = `${runner.name} (${runner.version})`;
      if (failed.has(runner)) {
        rows.push({
          area: "peers",
          metric: label,
          value: "n/a (its run against the fake server failed)",
          target: "",
        });
        continue;
      }
      const rss = await peakRss(runner);
      rows.push({
        area: "peers",
        metric: `${label}: --version; one-turn run vs node -e 0 (medians of ${ROUNDS} interleaved rounds)`,
        value: `${times(pairedRatio(s.version, baseline))}; ${ms(median(s.wall))} = ${times(pairedRatio(s.wall, baseline))}`,
        target: "",
      });
      rows.push({
        area: "peers",
        metric: `  spawn → first request; last byte → exit; peak RSS; system prompt + tools of its request`,
        value: `${ms(median(s.first))}; ${ms(median(s.linger))}; ${rss === undefined ? "n/a" : `${(rss / MB).toFixed(0)} MB`}; ${median(s.chars).toLocaleString("en-US")} chars`,
        target: "",
      });
    }
    return rows;
  } finally {
    await server.close();
    rmSync(base, { recursive: true, force: true });
  }
}
