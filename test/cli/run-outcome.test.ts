import { describe, expect, it } from "vitest";
import { runOutcomeLines } from "../../src/cli/run-outcome.js";
import { RunError } from "../../src/core/errors.js";
import { emptyStats } from "../../src/core/stats.js";
import type { SessionRunResult } from "../../src/session/agent-session.js";

const result = (fields: Partial<SessionRunResult>): SessionRunResult => ({
  text: "",
  stop: "done",
  stats: emptyStats(),
  subagentStats: emptyStats(),
  ...fields,
});

describe("what both front ends say after a run", () => {
  it("says nothing after an answer", () => {
    expect(runOutcomeLines(result({ text: "ok" }))).toEqual([]);
  });

  it("names a refusal and a cancel as warnings", () => {
    expect(runOutcomeLines(result({ refused: "a hook said no" }))).toEqual([
      { level: "warn", text: "refused: a hook said no" },
    ]);
    expect(runOutcomeLines(result({ stop: "aborted" }))).toEqual([{ level: "warn", text: "cancelled." }]);
  });

  it("gives an error with its way forward", () => {
    const error = new RunError("max_turns", "Stopped after 2 turns.", "Raise the limit with --max-turns N.");
    expect(runOutcomeLines(result({ stop: "max_turns", error }))).toEqual([
      { level: "error", text: "error: Stopped after 2 turns." },
      { level: "info", text: "Raise the limit with --max-turns N." },
    ]);
  });
});
