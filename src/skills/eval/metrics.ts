import type { EvalSplit, TriggerQuery } from "./triggers.js";

/** What one fresh session did with a query, up to its first tool call or answer. */
export interface RunOutcome {
  /** Skills its first tool calls loaded (load_skill names, resolved). */
  loaded: string[];
  /** `load_skill` (first calls include one), `tool` (other tools first), `answer`, or `error`. */
  first: "load_skill" | "tool" | "answer" | "error";
  error?: string;
  inputTokens: number;
  outputTokens: number;
  ms: number;
}

interface QueryResult {
  query: string;
  shouldTrigger: boolean;
  split: EvalSplit;
  runs: number;
  /** Runs that loaded the skill. */
  triggers: number;
  /** triggers / runs that did not fail; null when every run failed. */
  triggerRate: number | null;
  /** The rate reached the threshold. */
  triggered: boolean;
  passed: boolean;
  /** Other skills the runs loaded (name → runs). */
  otherSkills: Record<string, number>;
  errors: string[];
}

export interface SplitFigures {
  queries: number;
  passed: number;
  /** Should-trigger queries that triggered / should-trigger queries; null without any. */
  recall: number | null;
  /** Should-trigger queries that triggered / queries that triggered; null when none triggered. */
  precision: number | null;
  falseTriggers: number;
}

export interface SkillEvalResult extends SplitFigures {
  skill: string;
  threshold: number;
  /** Should-not-trigger queries that triggered anyway. */
  falseTriggerQueries: string[];
  /** Skills loaded instead, over the should-trigger queries that missed (name → runs). */
  loadedInstead: Record<string, number>;
  train: SplitFigures;
  validation: SplitFigures;
  queryResults: QueryResult[];
  inputTokens: number;
  outputTokens: number;
  ms: number;
  failedRuns: number;
}

/** Per-query trigger rates and per-skill recall and precision, as the agentskills.io guide counts them. */
export function scoreSkill(
  skill: string,
  queries: readonly TriggerQuery[],
  outcomes: readonly (readonly RunOutcome[])[],
  threshold: number,
): SkillEvalResult {
  const queryResults = queries.map((q, i) => scoreQuery(skill, q, outcomes[i] ?? [], threshold));
  const all = outcomes.flat();
  const loadedInstead: Record<string, number> = {};
  for (const result of queryResults) {
    if (!result.shouldTrigger || result.passed) continue;
    for (const [name, count] of Object.entries(result.otherSkills))
      loadedInstead[name] = (loadedInstead[name] ?? 0) + count;
  }
  return {
    skill,
    threshold,
    ...figures(queryResults),
    falseTriggerQueries: queryResults.filter((r) => !r.shouldTrigger && !r.passed).map((r) => r.query),
    loadedInstead,
    train: figures(queryResults.filter((r) => r.split === "train")),
    validation: figures(queryResults.filter((r) => r.split === "validation")),
    queryResults,
    inputTokens: sum(all.map((o) => o.inputTokens)),
    outputTokens: sum(all.map((o) => o.outputTokens)),
    ms: sum(all.map((o) => o.ms)),
    failedRuns: all.filter((o) => o.first === "error").length,
  };
}

function scoreQuery(
  skill: string,
  q: TriggerQuery,
  runs: readonly RunOutcome[],
  threshold: number,
): QueryResult {
  const done = runs.filter((r) => r.first !== "error");
  const triggers = done.filter((r) => r.loaded.includes(skill)).length;
  const triggerRate = done.length === 0 ? null : triggers / done.length;
  const otherSkills: Record<string, number> = {};
  for (const run of done) {
    if (run.loaded.includes(skill)) continue;
    for (const name of run.loaded) otherSkills[name] = (otherSkills[name] ?? 0) + 1;
  }
  const triggered = triggerRate !== null && triggerRate >= threshold;
  return {
    query: q.query,
    shouldTrigger: q.shouldTrigger,
    split: q.split,
    runs: runs.length,
    triggers,
    triggerRate,
    triggered,
    passed: triggerRate !== null && triggered === q.shouldTrigger,
    otherSkills,
    errors: runs.flatMap((r) => (r.error ? [r.error] : [])),
  };
}

function figures(results: readonly QueryResult[]): SplitFigures {
  const triggered = (r: QueryResult) => r.triggered;
  // A query whose every run failed has no rate: it fails, but it is no evidence of a miss, so
  // recall and precision leave it out (a provider outage is not a recall of 0).
  const measured = results.filter((r) => r.triggerRate !== null);
  const positives = measured.filter((r) => r.shouldTrigger);
  const truePositives = positives.filter(triggered).length;
  const allTriggered = measured.filter(triggered).length;
  return {
    queries: results.length,
    passed: results.filter((r) => r.passed).length,
    recall: positives.length === 0 ? null : truePositives / positives.length,
    precision: allTriggered === 0 ? null : truePositives / allTriggered,
    falseTriggers: results.filter((r) => !r.shouldTrigger && triggered(r)).length,
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
