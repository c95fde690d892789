// `hx skills eval NAME --improve`: the description optimiser (skill-creator's loop, any
// provider). Loaded only when it runs.
import { copyFileSync, readFileSync } from "node:fs";
import { userMessage } from "../core/messages.js";
import { writeFileAtomic } from "../fs/atomic-write.js";
import type { SkillEvalResult, SplitFigures, TriggerQuery } from "../skills/eval/index.js";
import {
  type Attempt,
  beats,
  improvementRequest,
  parseProposal,
  passRate,
  replaceDescription,
} from "../skills/eval/index.js";
import type { Skill } from "../skills/index.js";
import type { PreparedRun } from "./prepare-run.js";
import { type RunFlags, UsageError } from "./run-config.js";
import type { Io } from "./skills-actions.js";

const DEFAULT_IMPROVE_ITERATIONS = 5;

/** One skill and its labelled queries. */
export interface ImprovePlan {
  skill: Skill;
  queries: readonly TriggerQuery[];
}

type Evaluate<O> = (plan: ImprovePlan, options: O) => Promise<SkillEvalResult>;

type ImproveFlags = Pick<RunFlags, never> & {
  description?: string;
  iterations?: string;
  write?: boolean;
  json?: boolean;
};

/** What `--improve --json` prints. */
interface ImproveReport {
  skill: string;
  file: string;
  iterations: number;
  /** Every description tried, in order; 0 is the one the loop started from. */
  attempts: Array<{ iteration: number; description: string; train: SplitFigures; validation: SplitFigures }>;
  before: { description: string; train: SplitFigures; validation: SplitFigures };
  best: { iteration: number; description: string; train: SplitFigures; validation: SplitFigures };
  improved: boolean;
  /** Why the loop stopped early, or a proposal was skipped. */
  notes: string[];
  written?: { file: string; backup: string };
}

/**
 * Evaluates the description (the file's, or --description), then up to N times: asks the
 * session's model for a better one from the train failures alone, evaluates it, and keeps the
 * best by validation score (train breaks a tie). Prints before/after and the proposal;
 * `--write` puts the best into SKILL.md, the old file kept as SKILL.md.bak.
 */
export async function runImprove<O extends { descriptions?: Readonly<Record<string, string>> }>(
  prepared: PreparedRun,
  plan: ImprovePlan,
  flags: ImproveFlags,
  options: O,
  io: Io,
  evaluate: Evaluate<O>,
): Promise<number> {
  const iterations = iterationsOf(flags.iterations);
  const { skill } = plan;
  if (!plan.queries.some((q) => q.split === "validation") || !plan.queries.some((q) => q.split === "train")) {
    io.err(
      `hx: ${skill.name}: --improve needs train and validation queries (give "split" in evals/triggers.json, or at least two queries of each label)\n`,
    );
    return 2;
  }
  const { attempts, best, notes } = await improveLoop(prepared, plan, flags, iterations, io, (description) =>
    evaluate(plan, { ...options, descriptions: { [skill.name]: description } }),
  );
  const before = attempts[0]!;
  const improved = best !== before;
  const report: ImproveReport = {
    skill: skill.name,
    file: skill.file,
    iterations: attempts.length - 1,
    attempts: attempts.map(summary),
    before: summary(before),
    best: summary(best),
    improved,
    notes,
  };
  if (flags.write && improved) report.written = await writeBest(skill, best.description, io);
  if (flags.json) io.out(`${JSON.stringify(report, null, 2)}\n`);
  else printReport(report, before, best, io);
  return 0;
}

/** The attempts in order (0 is the starting description), the best one, and why it stopped. */
async function improveLoop(
  prepared: PreparedRun,
  plan: ImprovePlan,
  flags: ImproveFlags,
  iterations: number,
  io: Io,
  evaluateDescription: (description: string) => Promise<SkillEvalResult>,
): Promise<{ attempts: Attempt[]; best: Attempt; notes: string[] }> {
  const { skill } = plan;
  const notes: string[] = [];
  const say = (line: string) => {
    notes.push(line);
    if (!flags.json) io.err(`${line}\n`);
  };
  const attempts: Attempt[] = [];
  const tryDescription = async (iteration: number, description: string) => {
    const result = await evaluateDescription(description);
    const attempt = { iteration, description, result };
    attempts.push(attempt);
    if (!flags.json)
      io.err(
        `iteration ${iteration}: train ${figure(result.train)}  validation ${figure(result.validation)}  ${JSON.stringify(description)}\n`,
      );
    return attempt;
  };
  let best = await tryDescription(0, flags.description?.trim() ?? skill.description);
  for (let iteration = 1; iteration <= iterations; iteration += 1) {
    const current = attempts[attempts.length - 1]!;
    if (current.result.train.passed === current.result.train.queries) {
      say(`iteration ${iteration}: every train query passes; stopping`);
      break;
    }
    const proposal = await propose(prepared, skill, attempts);
    if ("failed" in proposal) {
      say(`iteration ${iteration}: the model could not be asked (${proposal.failed}); stopping`);
      break;
    }
    if ("error" in proposal) {
      say(`iteration ${iteration}: ${proposal.error}; skipped`);
      continue;
    }
    if (attempts.some((a) => a.description === proposal.description)) {
      say(`iteration ${iteration}: the model proposed a description already tried; stopping`);
      break;
    }
    const attempt = await tryDescription(iteration, proposal.description);
    if (beats(attempt.result, best.result)) best = attempt;
  }
  return { attempts, best, notes };
}

/** Asks the model for a better description from the attempts so far. */
async function propose(
  prepared: PreparedRun,
  skill: Skill,
  attempts: readonly Attempt[],
): Promise<ReturnType<typeof parseProposal> | { failed: string }> {
  const request = improvementRequest(skill, attempts);
  try {
    const response = await prepared.provider.complete({
      system: request.system,
      messages: [userMessage(request.user)],
      tools: [],
    });
    return parseProposal(response.message.content);
  } catch (error) {
    return { failed: (error as Error).message };
  }
}

/** Puts the best description into SKILL.md, the old file kept as SKILL.md.bak. */
async function writeBest(skill: Skill, description: string, io: Io): Promise<ImproveReport["written"]> {
  const content = readFileSync(skill.file, "utf8");
  const updated = replaceDescription(content, description);
  if (updated === undefined) {
    io.err(`hx: ${skill.file}: its frontmatter could not be rewritten; the proposal is above\n`);
    return undefined;
  }
  const backup = `${skill.file}.bak`;
  copyFileSync(skill.file, backup);
  await writeFileAtomic(skill.file, updated, { allowed: () => true });
  return { file: skill.file, backup };
}

function printReport(report: ImproveReport, before: Attempt, best: Attempt, io: Io): void {
  io.out(
    `${report.skill}: description ${report.improved ? "improved" : "not improved"} (best of ${report.attempts.length})\n`,
  );
  io.out(`  before: train ${figure(before.result.train)}  validation ${figure(before.result.validation)}\n`);
  io.out(`  after:  train ${figure(best.result.train)}  validation ${figure(best.result.validation)}\n`);
  io.out(`  proposed description:\n    ${best.description}\n`);
  if (report.written) io.out(`Written to ${report.written.file} (the old file: ${report.written.backup})\n`);
  else if (report.improved) io.out(`Put it into SKILL.md with --write (a backup is kept).\n`);
}

function summary(attempt: Attempt) {
  return {
    iteration: attempt.iteration,
    description: attempt.description,
    train: splitOf(attempt.result.train),
    validation: splitOf(attempt.result.validation),
  };
}

function splitOf(f: SplitFigures): SplitFigures {
  return {
    queries: f.queries,
    passed: f.passed,
    recall: f.recall,
    precision: f.precision,
    falseTriggers: f.falseTriggers,
  };
}

function figure(f: SplitFigures): string {
  return `${f.passed}/${f.queries} (${(passRate(f) * 100).toFixed(0)}%)`;
}

function iterationsOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_IMPROVE_ITERATIONS;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 50)
    throw new UsageError("--iterations: give a whole number from 1 to 50");
  return value;
}
