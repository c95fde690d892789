// `hx skills eval`: the agentskills.io "optimizing descriptions" protocol for any provider.
// Loaded only when the command runs.
import path from "node:path";
import type { Capability } from "../agent/capability.js";
import type { AgentEvent } from "../core/events.js";
import type { ToolCall } from "../core/messages.js";
import { createSession } from "../session/create-session.js";
import {
  type EvalReport,
  formatEvalTable,
  parseProposal,
  type RunOutcome,
  readTriggerFile,
  type SkillEvalResult,
  scoreSkill,
  skillsReadBy,
  TRIGGERS_FILE,
  type TriggerQuery,
  totalsOf,
} from "../skills/eval/index.js";
import type { Skill } from "../skills/index.js";
import { discoverSkillsView, findSkillByName, LOAD_SKILL_TOOL_NAME } from "../skills/index.js";
import { type PreparedRun, prepareRun } from "./prepare-run.js";
import { type RunFlags, UsageError } from "./run-config.js";
import type { Io } from "./skills-actions.js";

export interface EvalFlags extends RunFlags {
  runs?: string;
  threshold?: string;
  jobs?: string;
  json?: boolean;
  queries?: string;
  split?: string;
  /** A candidate description, used instead of the file's (one skill). */
  description?: string;
  improve?: boolean;
  iterations?: string;
  write?: boolean;
  /** Seconds one query's run may take before it counts as failed. */
  queryTimeout?: string;
}

const DEFAULT_QUERY_TIMEOUT_SECONDS = 120;

interface EvalOptions {
  runs: number;
  jobs: number;
  threshold: number;
  timeoutMs: number;
  descriptions?: Readonly<Record<string, string>>;
  note: (line: string) => void;
  progress?: (done: number, total: number) => void;
}

const DEFAULT_EVAL_RUNS = 3;
const DEFAULT_EVAL_THRESHOLD = 0.5;

interface Plan {
  skill: Skill;
  queries: readonly TriggerQuery[];
}

/**
 * Runs every query of every chosen skill `--runs` times, each as a fresh headless session
 * (same system prompt, tools, settings and hooks as `hx agent`, no transcript) that stops at
 * the model's first tool call or answer, and scores the trigger rates. Exit 0 when every query
 * passed, 1 when one did not, 2 for bad input.
 */
export async function runSkillsEval(names: string[], flags: EvalFlags, io: Io): Promise<number> {
  const runs = positiveInteger(flags.runs, DEFAULT_EVAL_RUNS, "--runs");
  const jobs = positiveInteger(flags.jobs, 1, "-j/--jobs");
  const threshold = flags.threshold === undefined ? DEFAULT_EVAL_THRESHOLD : Number(flags.threshold);
  if (!(threshold > 0 && threshold <= 1))
    throw new UsageError("--threshold: give a number above 0 and at most 1, e.g. 0.5");
  if (flags.split !== undefined && flags.split !== "train" && flags.split !== "validation")
    throw new UsageError("--split: train or validation (leave it out for both)");

  const timeoutSeconds = positiveInteger(
    flags.queryTimeout,
    DEFAULT_QUERY_TIMEOUT_SECONDS,
    "--query-timeout",
  );
  if ((flags.description !== undefined || flags.improve) && names.length !== 1)
    throw new UsageError(
      `${flags.improve ? "--improve" : "--description"} works on one skill: hx skills eval NAME ${flags.improve ? "--improve" : '--description "..."'}`,
    );
  if (flags.write && !flags.improve) throw new UsageError("--write goes with --improve");
  if (flags.iterations !== undefined && !flags.improve)
    throw new UsageError("--iterations goes with --improve");
  if (flags.description !== undefined) {
    const problem = parseProposal(flags.description);
    if ("error" in problem)
      throw new UsageError(`--description: ${problem.error.replace("the model proposed", "give")}`);
  }

  const prepared = await prepareRun({ ...flags, maxTurns: "1" });
  const { discovery } = discoverSkillsView({
    cwd: prepared.cwd,
    settings: prepared.settings.merged,
    contextWindow: prepared.contextWindow,
  });
  const plans = planEvaluation(names, discovery.skills, flags).map((plan) => ({
    ...plan,
    queries: flags.split ? plan.queries.filter((q) => q.split === flags.split) : plan.queries,
  }));

  const notes = new Set<string>();
  // A fresh session does not list a conditional skill: its figures would measure it unseen.
  for (const { skill } of plans)
    if (skill.paths.length > 0)
      notes.add(
        `note: ${skill.name} is conditional (paths: ${skill.paths.join(", ")}): a session lists it only after a tool touches a matching file, so a fresh session's first reply rarely loads it. To measure its description, evaluate a copy without paths:.`,
      );
  // A progress counter redrawn in place is for a person at a terminal, not for a CI log.
  const progress = !flags.json && process.stderr.isTTY === true;
  const options: EvalOptions = {
    runs,
    jobs,
    threshold,
    timeoutMs: timeoutSeconds * 1000,
    descriptions:
      flags.description !== undefined ? { [plans[0]!.skill.name]: flags.description.trim() } : undefined,
    note: (line) => notes.add(line),
    progress: progress ? (done, total) => io.err(`\r${done}/${total} runs`) : undefined,
  };
  if (flags.improve) {
    const { runImprove } = await import("./skills-improve.js");
    return runImprove(prepared, plans[0]!, flags, options, io, (plan, opts) =>
      evaluateSkills(prepared, [plan], discovery.skills, opts).then((r) => r.results[0]!),
    );
  }
  const { results, ms } = await evaluateSkills(prepared, plans, discovery.skills, options);
  if (progress) io.err("\n");
  for (const note of notes) io.err(`${note}\n`);
  const report: EvalReport = {
    runsPerQuery: runs,
    threshold,
    skills: results.map((result, i) =>
      options.descriptions ? { ...result, description: options.descriptions[plans[i]!.skill.name] } : result,
    ),
    totals: totalsOf(results, ms),
  };
  if (options.descriptions && !flags.json)
    io.out(`(with the candidate description, not the file's: ${flags.description?.trim()})\n`);
  io.out(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatEvalTable(report));
  return results.every((r) => r.passed === r.queries) ? 0 : 1;
}

/** Every query of every plan, `runs` times each, `jobs` at a time; scored per skill. */
async function evaluateSkills(
  prepared: PreparedRun,
  plans: readonly Plan[],
  skills: readonly Skill[],
  options: EvalOptions,
): Promise<{ results: SkillEvalResult[]; ms: number }> {
  const started = Date.now();
  const tasks = plans.flatMap((plan, p) =>
    plan.queries.flatMap((q, qi) => Array.from({ length: options.runs }, () => ({ p, qi, query: q.query }))),
  );
  const outcomes = plans.map((plan) => plan.queries.map((): RunOutcome[] => []));
  let done = 0;
  await pool(tasks, options.jobs, async (task) => {
    const outcome = await runOnce(prepared, task.query, skills, options);
    outcomes[task.p][task.qi].push(outcome);
    done += 1;
    options.progress?.(done, tasks.length);
  });
  const results = plans.map((plan, p) =>
    scoreSkill(plan.skill.name, plan.queries, outcomes[p], options.threshold),
  );
  return { results, ms: Date.now() - started };
}

/** Which skills to evaluate and their queries: the named ones, or every skill with evals/triggers.json. */
function planEvaluation(names: string[], skills: readonly Skill[], flags: EvalFlags): Plan[] {
  const chosen = names.map((name) => {
    const skill = findSkillByName(skills, name);
    if (!skill)
      throw new UsageError(`no skill named '${name}' here (hx skills list shows the skills hx finds)`);
    return skill;
  });
  if (flags.queries !== undefined) {
    const file = readTriggerFile(path.resolve(flags.cwd ?? process.cwd(), flags.queries));
    if (!file.ok) throw new UsageError(file.error);
    const named = new Set(file.queries.flatMap((q) => (q.skill ? [q.skill] : [])));
    const targets = chosen.length > 0 ? chosen : [...named].map((name) => findSkill(skills, name));
    const unlabelled = file.queries.filter((q) => !q.skill);
    if (unlabelled.length > 0 && targets.length !== 1) {
      throw new UsageError(
        `--queries: entries without a "skill" field need exactly one skill name (hx skills eval NAME --queries ${flags.queries})`,
      );
    }
    return targets.map((skill) => ({
      skill: loadable(skill),
      queries: file.queries.filter((q) => (q.skill ? q.skill === skill.name : true)),
    }));
  }
  const targets =
    chosen.length > 0 ? chosen : skills.filter((s) => readTriggerFile(path.join(s.dir, TRIGGERS_FILE)).ok);
  if (targets.length === 0) {
    throw new UsageError(
      `no skill here has ${TRIGGERS_FILE}; write one in a skill's folder ([{"query": "...", "should_trigger": true}, ...]) or pass --queries FILE`,
    );
  }
  return targets.map((skill) => {
    const file = readTriggerFile(path.join(skill.dir, TRIGGERS_FILE));
    if (!file.ok) throw new UsageError(`${skill.name}: ${file.error}. Write it, or pass --queries FILE.`);
    return { skill: loadable(skill), queries: file.queries };
  });
}

function findSkill(skills: readonly Skill[], name: string): Skill {
  const skill = findSkillByName(skills, name);
  if (!skill) throw new UsageError(`--queries names the skill '${name}', which hx does not find here`);
  return skill;
}

function loadable(skill: Skill): Skill {
  if (skill.disableModelInvocation) {
    throw new UsageError(
      `${skill.name} cannot be triggered by the model (disable-model-invocation); nothing to measure`,
    );
  }
  return skill;
}

/**
 * One fresh session for one query: the probe sees the first model reply and cancels the run
 * before any tool executes, so nothing is changed and no transcript is written.
 */
async function runOnce(
  prepared: PreparedRun,
  query: string,
  skills: readonly Skill[],
  options: Pick<EvalOptions, "descriptions" | "note" | "timeoutMs">,
): Promise<RunOutcome> {
  const started = Date.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  let calls: ToolCall[] | undefined;
  const usage = { input: 0, output: 0 };
  const probe: Capability = {
    name: "eval-probe",
    observers: [
      (event: AgentEvent) => {
        if (event.type !== "assistant_message") return;
        usage.input += event.usage.inputTokens;
        usage.output += event.usage.outputTokens;
        calls = event.message.toolCalls;
        controller.abort();
      },
    ],
  };
  const session = await createSession({
    cwd: prepared.cwd,
    provider: prepared.provider,
    settings: prepared.settings,
    maxTurns: 1,
    verbose: false,
    contextWindow: prepared.contextWindow,
    persist: false,
    log: options.note,
    extraCapabilities: () => [probe],
    skillDescriptions: options.descriptions,
  });
  const outcome = (fields: Pick<RunOutcome, "loaded" | "first" | "error">): RunOutcome => ({
    ...fields,
    inputTokens: usage.input,
    outputTokens: usage.output,
    ms: Date.now() - started,
  });
  try {
    const result = await session.run(query, { emit: () => {}, signal: controller.signal });
    if (timedOut && calls === undefined)
      return outcome({ loaded: [], first: "error", error: `timed out after ${options.timeoutMs / 1000} s` });
    if (result.refused) return outcome({ loaded: [], first: "error", error: `refused: ${result.refused}` });
    if (calls === undefined)
      return outcome({ loaded: [], first: "error", error: result.error?.message ?? "no reply" });
    if (calls.length === 0) return outcome({ loaded: [], first: "answer" });
    // load_skill, or reading the skill's SKILL.md (skill-creator counts both as a trigger).
    const loaded = calls.flatMap((c) =>
      c.name === LOAD_SKILL_TOOL_NAME ? [loadedName(c, skills)] : skillsReadBy(c, skills, prepared.cwd),
    );
    return outcome({ loaded, first: loaded.length > 0 ? "load_skill" : "tool" });
  } finally {
    clearTimeout(timer);
    await session.close();
  }
}

/** The skill a load_skill call names, resolved as load_skill resolves it (or as written). */
function loadedName(call: ToolCall, skills: readonly Skill[]): string {
  let name = "";
  try {
    const args = JSON.parse(call.arguments) as { name?: unknown };
    if (typeof args.name === "string") name = args.name.trim();
  } catch {
    // arguments that are not JSON name no skill
  }
  return findSkillByName(skills, name)?.name ?? (name || "(no name)");
}

async function pool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

function positiveInteger(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`${flag}: give a whole number of at least 1`);
  return value;
}
