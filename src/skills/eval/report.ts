import type { SkillEvalResult, SplitFigures } from "./metrics.js";

export interface EvalTotals {
  skills: number;
  queries: number;
  runs: number;
  failedRuns: number;
  inputTokens: number;
  outputTokens: number;
  /** Wall-clock time of the whole evaluation (runs overlap with -j). */
  ms: number;
}

export interface EvalReport {
  runsPerQuery: number;
  threshold: number;
  skills: SkillEvalResult[];
  totals: EvalTotals;
}

export function totalsOf(skills: readonly SkillEvalResult[], ms: number): EvalTotals {
  const add = (pick: (s: SkillEvalResult) => number) => skills.reduce((sum, s) => sum + pick(s), 0);
  return {
    skills: skills.length,
    queries: add((s) => s.queries),
    runs: add((s) => s.queryResults.reduce((n, q) => n + q.runs, 0)),
    failedRuns: add((s) => s.failedRuns),
    inputTokens: add((s) => s.inputTokens),
    outputTokens: add((s) => s.outputTokens),
    ms,
  };
}

/** The report as a table: one row per query, then each skill's figures, then the totals. */
export function formatEvalTable(report: EvalReport): string {
  const lines: string[] = [];
  for (const skill of report.skills) {
    lines.push(
      `${skill.skill}  (pass at a trigger rate >= ${report.threshold}, ${report.runsPerQuery} runs per query)`,
    );
    lines.push("  rate  result  expect   split  query");
    for (const q of skill.queryResults) {
      const rate = q.triggerRate === null ? " err" : `${q.triggers}/${q.runs - q.errors.length}`.padStart(4);
      const result =
        q.triggerRate === null ? "ERROR " : q.passed ? "ok    " : q.shouldTrigger ? "MISS  " : "FALSE ";
      const expect = q.shouldTrigger ? "load   " : "no load";
      const instead = Object.entries(q.otherSkills)
        .map(([name, n]) => `${name} x${n}`)
        .join(", ");
      const note = instead ? `  (loaded ${instead})` : q.errors.length > 0 ? `  (${q.errors[0]})` : "";
      lines.push(
        `  ${rate}  ${result}  ${expect}  ${q.split === "train" ? "train" : "valid"}  ${oneLine(q.query)}${note}`,
      );
    }
    lines.push(`  ${figuresLine(skill)}`);
    lines.push(`  train: ${figuresLine(skill.train)}   validation: ${figuresLine(skill.validation)}`);
    const instead = Object.entries(skill.loadedInstead);
    if (instead.length > 0) {
      lines.push(
        `  loaded instead on misses: ${instead.map(([name, n]) => `${name} (${n} runs)`).join(", ")}`,
      );
    }
    lines.push("");
  }
  const t = report.totals;
  lines.push(
    `total: ${t.skills} skill(s), ${t.queries} queries, ${t.runs} runs (${t.failedRuns} failed); tokens in=${t.inputTokens} out=${t.outputTokens}; ${(t.ms / 1000).toFixed(1)} s`,
  );
  return `${lines.join("\n")}\n`;
}

function figuresLine(f: SplitFigures): string {
  return `recall ${ratio(f.recall)}  precision ${ratio(f.precision)}  false triggers ${f.falseTriggers}  passed ${f.passed}/${f.queries}`;
}

function ratio(value: number | null): string {
  return value === null ? "-" : value.toFixed(2);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 70 ? `${line.slice(0, 69)}…` : line;
}
