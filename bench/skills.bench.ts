// Skills: discovery + parsing cost, catalog overhead per skill, catalog size by skill count.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  buildSkillCatalog,
  resolveCatalogBudget,
  UNKNOWN_WINDOW_CATALOG_BUDGET,
} from "../src/skills/catalog.js";
import { loadSkillsFromRoots } from "../src/skills/discover.js";
import { announcementText, LiveSkills } from "../src/skills/live-skills.js";
import { createLoadSkillTool } from "../src/skills/load-skill-tool.js";
import { LoadedSkills } from "../src/skills/loaded-skills.js";
import { defaultSkillFields } from "../src/skills/skill-fields.js";
import type { Skill } from "../src/skills/types.js";
import { SkillWatcher, WATCH_DEBOUNCE_MS } from "../src/skills/watch.js";
import { ToolRegistry } from "../src/tools/registry.js";
import type { Tool } from "../src/tools/tool.js";
import { startFakeModelServer } from "../test/support/fake-model-server.js";
import { HX_BIN, hxEnv } from "../test/support/run-hx.js";
import { median } from "./measure.js";
import { writeSkills } from "./skill-files.js";
import type { BenchRow } from "./types.js";

const RUNS = 7;

export async function run(): Promise<BenchRow[]> {
  const root = mkdtempSync(path.join(os.tmpdir(), "hx-skills-bench-"));
  try {
    writeSkills(root, 1000);
    const times: number[] = [];
    let found = loadSkillsFromRoots([{ dir: root, source: "project" }]).skills.length; // warm-up
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      found = loadSkillsFromRoots([{ dir: root, source: "project" }]).skills.length;
      times.push(performance.now() - start);
    }
    const median = times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
    const rows: BenchRow[] = [
      {
        area: "skills",
        metric: `discover+parse ${found} skills (median of ${RUNS} after a warm-up)`,
        value: `${median.toFixed(1)} ms`,
        target: "< 100 ms",
        ok: found === 1000 && median < 100,
      },
    ];
    rows.push(catalogOverheadRow(), ...(await catalogPerSkillRows()));
    for (const count of [0, 100, 1000]) {
      const text = buildSkillCatalog(fakeSkills(count)).text;
      rows.push({
        area: "skills",
        metric: `catalog size, ${count} skills (no budget)`,
        value: `${text.length} chars (~${Math.ceil(text.length / 4)} tokens)`,
        target: "",
      });
    }
    const budget = Math.floor(128_000 * 0.02 * 4);
    const budgeted = buildSkillCatalog(fakeSkills(1000), { budget });
    rows.push({
      area: "skills",
      metric: "catalog, 1000 skills, 128K window (2% budget)",
      value: `${budgeted.text.length}/${budget} chars, ${budgeted.shortened.length} shortened, ${budgeted.nameOnly.length} name-only${budgeted.overBudget ? " (names alone exceed it)" : ""}`,
      target: "",
    });
    rows.push(...(await watchRows(root)));
    rows.push(...(await firstRequestRows()));
    rows.push(await idleSessionRow());
    rows.push(announcementRow());
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * What watching skill roots costs: CPU while nothing changes (one watcher per root and per
 * skill folder, no polling), and how soon an edit is noticed (debounce included).
 */
async function watchRows(root: string): Promise<BenchRow[]> {
  const skills = loadSkillsFromRoots([{ dir: root, source: "project" }]).skills;
  let notify: () => void = () => {};
  const watcher = new SkillWatcher({
    roots: [root],
    skillDirs: skills.map((s) => s.dir),
    stopAt: () => root,
    onChange: () => notify(),
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the watchers' set-up settles
    const idleMs = 5000;
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const used = process.cpuUsage(before);
    const cpuMs = (used.user + used.system) / 1000;
    const noticed = new Promise<void>((resolve) => {
      notify = resolve;
    });
    const start = performance.now();
    writeFileSync(
      path.join(skills[0].dir, "SKILL.md"),
      "---\nname: skill-0000\ndescription: edited\n---\nBody\n",
    );
    // The watcher and its timer never hold the process open; this timer does, for the wait.
    let guard: NodeJS.Timeout | undefined;
    await Promise.race([noticed, new Promise((resolve) => (guard = setTimeout(resolve, 5000)))]);
    clearTimeout(guard);
    const latency = performance.now() - start;
    return [
      {
        area: "skills",
        // The bench's whole process (tsx's loader thread and the benches' heap included): for
        // scale; the verdict is the real interactive hx's row below.
        metric: `idle CPU of the bench's process watching ${watcher.size} folders (${skills.length} skills) for ${idleMs / 1000} s`,
        value: `${cpuMs.toFixed(1)} ms (${((cpuMs / idleMs) * 100).toFixed(2)}% of a core)`,
        target: "",
      },
      {
        area: "skills",
        metric: `an edited SKILL.md noticed (debounce ${WATCH_DEBOUNCE_MS} ms included)`,
        value: `${latency.toFixed(0)} ms`,
        target: "< 1000 ms",
        ok: latency < 1000,
      },
    ];
  } finally {
    watcher.close();
  }
}

/**
 * The same through the real binary: an interactive `hx` (line mode, stdin open, nothing typed)
 * in a project of 1,000 skills, watching them; the CPU the process uses (from /proc) while it
 * waits for the user. Linux only (elsewhere the row says so).
 */
async function idleSessionRow(): Promise<BenchRow> {
  const metric = "idle CPU of an interactive hx watching 1000 skills, 6 s (real process)";
  if (process.platform !== "linux")
    return { area: "skills", metric, value: "skipped: needs /proc", target: "< 1% of a core" };
  const project = mkdtempSync(path.join(os.tmpdir(), "hx-skills-idle-"));
  mkdirSync(path.join(project, ".git"));
  writeSkills(path.join(project, ".agents", "skills"), 1000);
  const script = path.join(project, "script.json");
  writeFileSync(script, JSON.stringify({ replies: [] }));
  const child = spawn(
    process.execPath,
    [HX_BIN, "--provider", "scripted", "--script", script, "-C", project],
    {
      cwd: project,
      env: hxEnv(),
      stdio: ["pipe", "pipe", "ignore"],
    },
  );
  try {
    // Ready once the prompt is printed (the session, its skills and watchers are set up).
    await new Promise<void>((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("hx >> ")) resolve();
      });
      child.once("exit", () => reject(new Error("hx exited before its prompt")));
    });
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the start-up's last work settles
    const ticks = () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
      return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (1/100 s)
    };
    // Six seconds: the clock-tick resolution (10 ms) is then 0.17% of a core.
    const idleMs = 6000;
    const before = ticks();
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const cpuMs = (ticks() - before) * 10;
    const watches = inotifyWatches(child.pid ?? 0);
    return {
      area: "skills",
      metric,
      value: `${cpuMs} ms (${((cpuMs / idleMs) * 100).toFixed(2)}% of a core, 10 ms resolution; ${watches} inotify watches)`,
      target: "< 1% of a core",
      ok: cpuMs / idleMs < 0.01,
    };
  } finally {
    child.kill();
    rmSync(project, { recursive: true, force: true });
  }
}

const FIRST_REQUEST_ROUNDS = Number(process.env.HX_BENCH_ROUNDS ?? 15);

/**
 * What 1,000 skills add to the first model request of `hx agent "hi"` (spawn → request at the
 * fake server), against the same run in a project without skills, in interleaved rounds (the
 * median of the per-round differences): with the model's window known (`--context-window`,
 * as for every model in hx's table), and for a model nobody knows, where hx first asks the
 * server's `GET /models` for the window the catalog's budget is a share of.
 */
async function firstRequestRows(): Promise<BenchRow[]> {
  const base = mkdtempSync(path.join(os.tmpdir(), "hx-skills-first-"));
  const server = await startFakeModelServer();
  server.replyWith((_request, reply) => reply.text("ok"));
  const empty = path.join(base, "empty");
  const many = path.join(base, "many");
  for (const project of [empty, many]) mkdirSync(path.join(project, ".git"), { recursive: true });
  writeSkills(path.join(many, ".agents", "skills"), 1000);
  const env = hxEnv({ HOME: path.join(base, "home"), OPENAI_API_KEY: "sk-bench" });
  const firstRequest = async (project: string, extra: string[], home?: string) => {
    const before = server.requests.length;
    const start = performance.now();
    const args = [HX_BIN, "agent", "hi", "--provider", "openai", "--base-url", `${server.url}/v1`];
    const child = spawn(process.execPath, [...args, "--model", "bench", "-C", project, ...extra], {
      env: home === undefined ? env : { ...env, HOME: home },
      stdio: "ignore",
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    const post = server.requests.slice(before).find((r) => r.method === "POST");
    if (code !== 0 || !post) throw new Error(`bench: hx agent exited ${code}`);
    return post.receivedAt - start;
  };
  const known = ["--context-window", "128000"];
  const sides = {
    none: [] as number[],
    many: [] as number[],
    noneUnknown: [] as number[],
    manyUnknown: [] as number[],
    manyFirstRun: [] as number[],
  };
  // A home of its own each time: nothing kept from an earlier run (src/skills/discovery-cache.ts).
  const freshHome = () => mkdtempSync(path.join(base, "home-"));
  try {
    for (let round = 0; round < FIRST_REQUEST_ROUNDS; round++) {
      const jobs: Array<() => Promise<void>> = [
        async () => void sides.none.push(await firstRequest(empty, known)),
        async () => void sides.many.push(await firstRequest(many, known)),
        async () => void sides.noneUnknown.push(await firstRequest(empty, [])),
        async () => void sides.manyUnknown.push(await firstRequest(many, [])),
        async () => void sides.manyFirstRun.push(await firstRequest(many, known, freshHome())),
      ];
      for (let j = 0; j < jobs.length; j++) await jobs[(round + j) % jobs.length]();
    }
  } finally {
    await server.close();
    rmSync(base, { recursive: true, force: true });
  }
  const added = median(sides.many.map((t, i) => t - sides.none[i]));
  const addedUnknown = median(sides.manyUnknown.map((t, i) => t - sides.noneUnknown[i]));
  const addedFirstRun = median(sides.manyFirstRun.map((t, i) => t - sides.none[i]));
  const load = os.loadavg()[0].toFixed(1);
  return [
    {
      area: "skills",
      metric: `1,000 skills: added time to the first request, window known (discovery cache kept; median of ${FIRST_REQUEST_ROUNDS} interleaved rounds; without skills ${median(sides.none).toFixed(0)} ms; load ${load})`,
      value: `+${added.toFixed(0)} ms`,
      target: "≤ +100 ms",
      ok: added <= 100,
    },
    {
      area: "skills",
      metric: "  the same for a model nobody knows (GET /models first, for the catalog's budget)",
      value: `+${addedUnknown.toFixed(0)} ms`,
      target: "",
    },
    {
      area: "skills",
      metric: "  the same in a project's first run (nothing in ~/.hx/cache: every SKILL.md read and parsed)",
      value: `+${addedFirstRun.toFixed(0)} ms`,
      target: "",
    },
  ];
}

/** How many paths the process watches: the `inotify wd:` lines of its descriptors' fdinfo. */
function inotifyWatches(pid: number): number {
  let count = 0;
  for (const fd of readdirSync(`/proc/${pid}/fdinfo`)) {
    try {
      count += (readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8").match(/^inotify wd:/gm) ?? []).length;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}

/** Bytes one hot-reload announcement adds to the conversation (the system prompt does not change). */
function announcementRow(): BenchRow {
  const before = fakeSkills(100);
  const after = [
    ...before
      .slice(1)
      .map((s, i) => (i === 0 ? { ...s, description: `${s.description} Now also for topic X.` } : s)),
    {
      ...before[0],
      name: "skill-new",
      description: "Deploys the site. Use when the user asks for a release.",
    },
  ];
  const live = new LiveSkills(before, () => ({ skills: after, diagnostics: [] }));
  live.rescan();
  const text = announcementText(live.takeAnnouncement(new LoadedSkills()));
  const catalog = buildSkillCatalog(after).text;
  return {
    area: "skills",
    metric:
      "hot reload of 100 skills, 1 added + 1 removed + 1 changed: bytes appended (vs resending the catalog)",
    value: `${Buffer.byteLength(text)} B (catalog: ${Buffer.byteLength(catalog)} B; system prompt unchanged)`,
    target: "< 1 KB",
    ok: Buffer.byteLength(text) < 1024,
  };
}

/**
 * The catalog at N=10 typical skills (~100-character descriptions): its characters per skill,
 * every description whole; and, for information, with load_skill's schema, which is sent
 * exactly when a catalog is. Then the budget for a model nobody knows the window of: 100
 * such skills must keep every description.
 */
async function catalogPerSkillRows(): Promise<BenchRow[]> {
  const ten = fakeSkills(10);
  const catalog = buildSkillCatalog(ten);
  const whole = ten.every((s) => catalog.text.includes(`- ${s.name}: ${s.description}`));
  const perSkill = catalog.text.length / 10;
  const registry = new ToolRegistry([
    createLoadSkillTool({ skills: ten, loaded: new LoadedSkills() }) as unknown as Tool,
  ]);
  await registry.ready();
  const schema = JSON.stringify(registry.schemas()).length;
  const hundred = fakeSkills(100);
  const unknown = buildSkillCatalog(hundred, { budget: resolveCatalogBudget(32_768, undefined, false) });
  const unknownWhole = unknown.shortened.length === 0 && unknown.nameOnly.length === 0;
  return [
    {
      area: "skills",
      metric: "catalog chars per skill at N=10, every description whole",
      value: `${perSkill.toFixed(1)} (${catalog.text.length} chars${whole ? "" : ", descriptions cut"}; with load_skill's schema ${((catalog.text.length + schema) / 10).toFixed(1)})`,
      target: "≤ 105",
      ok: whole && perSkill <= 105,
    },
    {
      area: "skills",
      metric: "catalog budget, unknown model, no window reported: 100 typical skills",
      value: `${unknown.text.length}/${UNKNOWN_WINDOW_CATALOG_BUDGET} chars, ${unknown.shortened.length} shortened, ${unknown.nameOnly.length} name-only`,
      target: "none cut",
      ok: unknownWhole,
    },
  ];
}

/** Chars per skill beyond its own name and description, from the slope between 100 and 200 skills. */
function catalogOverheadRow(): BenchRow {
  const size = (skills: Skill[]) => buildSkillCatalog(skills).text.length;
  const own = (skills: Skill[]) => skills.reduce((sum, s) => sum + s.name.length + s.description.length, 0);
  const small = fakeSkills(100);
  const large = fakeSkills(200);
  const overhead = (size(large) - own(large) - (size(small) - own(small))) / 100;
  return {
    area: "skills",
    metric: "catalog overhead per skill beyond name+description",
    value: `${overhead.toFixed(1)} chars`,
    target: "<= 10 chars",
    ok: overhead <= 10,
  };
}

function fakeSkills(count: number): Skill[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `skill-${String(i).padStart(4, "0")}`;
    return {
      name,
      description: `Does task number ${i} for the project. Use when the user asks about topic ${i} or its files.`,
      body: "",
      dir: `/skills/${name}`,
      file: `/skills/${name}/SKILL.md`,
      source: "project",
      frontmatter: {},
      warnings: [],
      disableModelInvocation: false,
      ...defaultSkillFields(),
    };
  });
}
