// The peers beside hx, where they are installed (none is a dependency): Codex (`codex`, the
// npm package @openai/codex), Claude Code (`claude`, @anthropic-ai/claude-code) and pi (`pi`,
// @mariozechner/pi-coding-agent), each pointed at the same fake model server in the wire it
// speaks (Responses, Anthropic Messages, Chat Completions), in the same interleaved rounds as
// hx and `node -e 0`. These are the README's "best peer" figures, measured here rather than
// copied. Nothing leaves 127.0.0.1: each peer's update checks, telemetry and plugin sync are
// turned off (checked with strace: its only connection is to the fake server).
import { spawnSync } from "node:child_process";
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
import { median, ms, pairedRatio, timedSpawn, times, usageOnce } from "./measure.js";
import { HX_TASK_TOOLS, PI_TASK_TOOLS, runTask, type TaskTools, writeTaskProject } from "./peers-tasks.js";
import { writeSkills } from "./skill-files.js";
import type { BenchRow } from "./types.js";

const ROUNDS = Number(process.env.HX_BENCH_PEER_ROUNDS ?? 7);
/** Runs under GNU time per harness, for peak RSS and CPU. */
const USAGE_RUNS = 3;
const MB = 1024 * 1024;

interface Runner {
  name: string;
  version: string;
  /** The one-turn run in a project folder (it is also the run's working folder). */
  turn(project: string): { command: string; args: string[]; env: NodeJS.ProcessEnv };
  versionArgs: string[];
  /** Reads a project's `.claude/skills` (the 1,000-skills row). */
  readsClaudeSkills?: boolean;
  /** The system prompt and tool schemas of its main request, in characters. */
  requestChars(request: RecordedRequest): number;
  /** Its tool names for the scripted skill tasks (Chat Completions harnesses: hx and pi). */
  task?: TaskTools;
}

function installed(command: string): string | undefined {
  const probe = spawnSync(command, ["--version"], { encoding: "utf8" });
  // pi prints its version on stderr.
  const text = `${probe.stdout}${probe.stderr}`.trim().split("\n")[0];
  return probe.error || probe.status !== 0 || !text ? undefined : text;
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

function runners(server: FakeModelServer, base: string): Runner[] {
  const home = (name: string) => {
    const dir = path.join(base, `home-${name}`);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const hxHome = home("hx");
  const openai = ["--provider", "openai", "--base-url", `${server.url}/v1`, "--model", "bench"];
  const found: Runner[] = [
    {
      name: "hx",
      version: "this build",
      turn: (project) => ({
        command: process.execPath,
        args: [HX_BIN, "agent", "hi", ...openai, "-C", project],
        env: hxEnv({ HOME: hxHome, OPENAI_API_KEY: "sk-bench" }),
      }),
      versionArgs: [HX_BIN, "--version"],
      readsClaudeSkills: true,
      requestChars: (r) => textOf(r.body?.messages?.[0]?.content) + toolsOf(r.body),
      task: HX_TASK_TOOLS,
    },
  ];
  const codex = installed("codex");
  if (codex) {
    const codexHome = home("codex");
    found.push({
      name: "Codex",
      version: codex,
      turn: (project) => ({
        command: "codex",
        args: codexExecArgs(server, project),
        env: { ...process.env, HOME: codexHome, OPENAI_API_KEY: "sk-bench" },
      }),
      versionArgs: ["--version"],
      requestChars: (r) => textOf(r.body?.instructions) + toolsOf(r.body),
    });
  }
  const claude = installed("claude");
  if (claude) {
    const claudeHome = home("claude");
    found.push({
      name: "Claude Code",
      version: claude,
      turn: () => ({
        command: "claude",
        args: ["-p", "hi", "--model", "bench"],
        env: {
          ...process.env,
          HOME: claudeHome,
          ANTHROPIC_BASE_URL: server.url,
          ANTHROPIC_API_KEY: "sk-ant-bench",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_AUTOUPDATER: "1",
          DISABLE_TELEMETRY: "1",
          DISABLE_ERROR_REPORTING: "1",
        },
      }),
      versionArgs: ["--version"],
      readsClaudeSkills: true,
      requestChars: (r) => textOf(r.body?.system) + toolsOf(r.body),
    });
  }
  const pi = installed("pi");
  if (pi) {
    const piHome = home("pi");
    mkdirSync(path.join(piHome, ".pi", "agent"), { recursive: true });
    const provider = {
      baseUrl: `${server.url}/v1`,
      api: "openai-completions",
      apiKey: "sk-bench",
      models: [{ id: "bench" }],
    };
    writeFileSync(
      path.join(piHome, ".pi", "agent", "models.json"),
      JSON.stringify({ providers: { hxbench: provider } }),
    );
    found.push({
      name: "pi",
      version: pi,
      turn: () => ({
        command: "pi",
        args: ["-p", "--provider", "hxbench", "--model", "bench", "hi"],
        env: { ...process.env, HOME: piHome },
      }),
      versionArgs: ["--version"],
      requestChars: (r) => textOf(r.body?.messages?.[0]?.content) + toolsOf(r.body),
      task: PI_TASK_TOOLS,
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
  /** With 1,000 skills, minus the same round without. */
  skillsFirst: number[];
}

/** One one-turn run: wall, spawn → its main request, last byte → exit, and that request's size. */
async function turn(server: FakeModelServer, runner: Runner, project: string) {
  const { command, args, env } = runner.turn(project);
  const before = server.requests.length;
  const start = performance.now();
  const result = await timedSpawn(command, args, { env, cwd: project });
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

export async function run(): Promise<BenchRow[]> {
  const base = mkdtempSync(path.join(os.tmpdir(), "hx-bench-peers-"));
  const work = path.join(base, "work");
  const many = path.join(base, "many");
  for (const project of [work, many]) mkdirSync(path.join(project, ".git"), { recursive: true });
  writeSkills(path.join(many, ".claude", "skills"), 1000, { flat: true });
  const server = await startFakeModelServer();
  server.replyWith((_request, reply) => reply.text("ok"));
  try {
    const all = runners(server, base);
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
      all.map((r) => [r, { wall: [], version: [], first: [], linger: [], chars: [], skillsFirst: [] }]),
    );
    const failed = new Set<Runner>();
    for (const runner of all) await turn(server, runner, work); // first runs: caches, config files
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push((await timedSpawn(process.execPath, ["-e", "0"])).ms);
      for (const runner of all) {
        const s = samples.get(runner)!;
        const { command, env } = runner.turn(work);
        s.version.push((await timedSpawn(command, runner.versionArgs, { env })).ms);
        const one = failed.has(runner) ? undefined : await turn(server, runner, work);
        if (!one) {
          failed.add(runner);
          continue;
        }
        s.wall.push(one.wall);
        s.first.push(one.first);
        s.linger.push(one.linger);
        s.chars.push(one.chars);
        const skills = runner.readsClaudeSkills ? await turn(server, runner, many) : undefined;
        if (skills) s.skillsFirst.push(skills.first - one.first);
      }
    }
    const rows: BenchRow[] = [];
    for (const runner of all) {
      const { command, args, env } = runner.turn(work);
      const usage = failed.has(runner) ? undefined : await medianUsage(command, args, { env, cwd: work });
      rows.push(...runnerRows(runner, samples.get(runner)!, baseline, failed.has(runner), usage));
    }
    const project = path.join(base, "task");
    writeTaskProject(project);
    const tasks = new Map<Runner, TaskResult | undefined>();
    for (const runner of all) if (runner.task) tasks.set(runner, await taskFigures(server, runner, project));
    return [...rows, ...taskRows(tasks)];
  } finally {
    await server.close();
    rmSync(base, { recursive: true, force: true });
  }
}

function runnerRows(
  runner: Runner,
  s: Samples,
  baseline: number[],
  failed: boolean,
  usage: { rssBytes: number; cpuMs: number } | undefined,
): BenchRow[] {
  const label = `${runner.name} (${runner.version})`;
  if (failed)
    return [
      { area: "peers", metric: label, value: "n/a (its run against the fake server failed)", target: "" },
    ];
  const rows: BenchRow[] = [
    {
      area: "peers",
      metric: `${label}: --version; one-turn run vs node -e 0 (medians of ${ROUNDS} interleaved rounds)`,
      value: `${times(pairedRatio(s.version, baseline))}; ${ms(median(s.wall))} = ${times(pairedRatio(s.wall, baseline))}`,
      target: "",
    },
    {
      area: "peers",
      metric: `  spawn → first request; last byte → exit; peak RSS and CPU (user + system, median of ${USAGE_RUNS}); system prompt + tools of its request`,
      value: `${ms(median(s.first))}; ${ms(median(s.linger))}; ${usage === undefined ? "n/a" : `${(usage.rssBytes / MB).toFixed(0)} MB, ${ms(usage.cpuMs)} CPU`}; ${median(s.chars).toLocaleString("en-US")} chars`,
      target: "",
    },
  ];
  if (s.skillsFirst.length > 0)
    rows.push({
      area: "peers",
      metric: "  1,000 skills in the project's .claude/skills: added time to the first request",
      value: `+${ms(median(s.skillsFirst))}`,
      target: "",
    });
  return rows;
}

/** One harness's figures for the skill tasks (peers-tasks.ts). */
interface TaskResult {
  firstChars: number;
  loadBytes: number;
  tokens: number;
}

/** The skill tasks (peers-tasks.ts): the first request, the skill-load task, 20 requests. */
async function taskFigures(
  server: FakeModelServer,
  runner: Runner,
  project: string,
): Promise<TaskResult | undefined> {
  const tools = runner.task as TaskTools;
  const command = runner.turn(project);
  const before = server.requests.length;
  const load = await runTask(server, command, project, tools, 0);
  const first = server.requests.slice(before).find((r) => r.method === "POST");
  const long = await runTask(server, command, project, tools, 18);
  server.replyWith((_request, reply) => reply.text("ok"));
  if (!load?.skillLoaded || !long?.skillLoaded || !first || long.requests !== 20) return undefined;
  return { firstChars: runner.requestChars(first), loadBytes: load.chars, tokens: long.tokens };
}

const TASK_METRIC =
  "10 skills in .agents/skills: first request (system + tools); skill-load task (2 requests), bytes sent; 20 requests, estimated input tokens";

function taskRows(results: Map<Runner, TaskResult | undefined>): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const [runner, result] of results)
    rows.push({
      area: "peers",
      metric: `${runner.name}, ${TASK_METRIC}`,
      value: result
        ? `${num(result.firstChars)} chars; ${num(result.loadBytes)} B; ${num(result.tokens)}`
        : "n/a (the scripted task failed)",
      target: "",
    });
  const [hx, peer] = [...results.entries()];
  if (hx?.[1] && peer?.[1]) {
    const [ours, theirs] = [hx[1], peer[1]];
    const ratios = [
      ours.firstChars / theirs.firstChars,
      ours.loadBytes / theirs.loadBytes,
      ours.tokens / theirs.tokens,
    ];
    rows.push({
      area: "peers",
      metric: `  hx over ${peer[0].name}: first request; skill-load bytes; tokens over 20 requests`,
      value: ratios.map(times).join("; "),
      target: "first ≤ 0.8×; the others < 1×",
      ok: ratios[0] <= 0.8 && ratios[1] < 1 && ratios[2] < 1,
    });
  }
  return rows;
}

const num = (value: number) => value.toLocaleString("en-US");

/** The median peak RSS and CPU of a few one-turn runs; undefined when one failed. */
async function medianUsage(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string },
) {
  const runs: Array<{ rssBytes: number; cpuMs: number }> = [];
  for (let i = 0; i < USAGE_RUNS; i++) {
    const usage = await usageOnce(command, args, options);
    if (!usage) return undefined;
    runs.push(usage);
  }
  return { rssBytes: median(runs.map((r) => r.rssBytes)), cpuMs: median(runs.map((r) => r.cpuMs)) };
}
