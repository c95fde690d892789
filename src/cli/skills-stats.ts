// `hx skills stats`: skill usage from this project's saved sessions. Loaded only when it runs.
import { realpathSync } from "node:fs";
import type { Skill } from "../skills/index.js";
import { type SessionEvents, type SkillUsageReport, skillUsage } from "../skills/index.js";
import { readTranscriptLines } from "../transcript/reader.js";
import { listSessions } from "../transcript/sessions.js";
import type { Io } from "./skills-actions.js";

export function runSkillsStats(cwd: string, skills: readonly Skill[], json: boolean, io: Io): number {
  const root = realpathSync(cwd);
  const sessions: SessionEvents[] = [];
  for (const info of listSessions(root)) {
    try {
      sessions.push({ id: info.id, lines: readTranscriptLines(info.file) });
    } catch (error) {
      io.err(
        `warning: session ${info.id}: ${error instanceof Error ? error.message : String(error)}; skipped\n`,
      );
    }
  }
  const report = skillUsage(
    sessions,
    skills.map((s) => s.name),
  );
  io.out(json ? `${JSON.stringify(report, null, 2)}\n` : formatUsage(report));
  return 0;
}

function formatUsage(report: SkillUsageReport): string {
  const lines = [`${report.sessions} session(s), ${report.inputTokens} input tokens`];
  if (report.skills.length > 0) {
    const width = Math.max(5, ...report.skills.map((s) => s.name.length));
    lines.push(
      `${"skill".padEnd(width)}  model  user  sessions  body tokens  input share  last used`,
      ...report.skills.map(
        (s) =>
          `${s.name.padEnd(width)}  ${String(s.loadsByModel).padStart(5)}  ${String(s.loadsByUser).padStart(4)}  ${String(s.sessions).padStart(8)}  ${String(s.bodyTokens).padStart(11)}  ${`${(s.inputShare * 100).toFixed(1)}%`.padStart(11)}  ${s.lastUsed.slice(0, 16).replace("T", " ")}`,
      ),
    );
  } else {
    lines.push("No skill was loaded in these sessions.");
  }
  if (report.neverLoaded.length > 0) lines.push(`never loaded: ${report.neverLoaded.join(", ")}`);
  return `${lines.join("\n")}\n`;
}
