// What both front ends (the line mode and the full screen) say after a run and at the end of
// a session. Light on purpose: the full screen imports it before its first draw.
import type { AgentSession, SessionRunResult } from "../session/agent-session.js";
import { formatStatsLine } from "./trace-format.js";

/** A line a front end shows after a run, with how loud it is. */
export interface OutcomeLine {
  level: "warn" | "error" | "info";
  text: string;
}

/** What went wrong in a run, for the user: a refusal, a cancel, or an error and its hint. */
export function runOutcomeLines(result: SessionRunResult): OutcomeLine[] {
  if (result.refused) return [{ level: "warn", text: `refused: ${result.refused}` }];
  if (result.stop === "aborted") return [{ level: "warn", text: "cancelled." }];
  if (result.stop === "done" || !result.error) return [];
  const lines: OutcomeLine[] = [{ level: "error", text: `error: ${result.error.message}` }];
  if (result.error.hint) lines.push({ level: "info", text: result.error.hint });
  return lines;
}

/** The last lines of a session: its totals and how to continue it. */
export function sessionEndLines(session: AgentSession): string[] {
  return [
    `session: ${formatStatsLine(session.total)}`,
    `continue it later with: hx --resume ${session.transcript.id}`,
  ];
}
