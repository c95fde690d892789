import { describe, expect, it } from "vitest";
import { scoreSkill } from "../../src/skills/eval/metrics.js";
import { parseTriggerQueries } from "../../src/skills/eval/triggers.js";

describe("trigger queries", () => {
  it("splits each label 60/40 into train and validation, the same way every time", () => {
    const list = Array.from({ length: 20 }, (_, i) => ({ query: `q${i}`, should_trigger: i < 10 }));
    const first = parseTriggerQueries(list, "f");
    const again = parseTriggerQueries([...list].reverse(), "f");
    if (!first.ok || !again.ok) throw new Error("parse failed");
    for (const label of [true, false]) {
      const train = first.queries.filter((q) => q.shouldTrigger === label && q.split === "train");
      expect(train).toHaveLength(6);
    }
    const splitOf = (qs: typeof first.queries) => Object.fromEntries(qs.map((q) => [q.query, q.split]));
    expect(splitOf(again.queries)).toEqual(splitOf(first.queries));
  });

  it("keeps a split the file gives and rejects malformed entries with their position", () => {
    const read = parseTriggerQueries(
      { queries: [{ query: "a", should_trigger: true, split: "validation" }] },
      "f",
    );
    expect(read.ok && read.queries[0].split).toBe("validation");
    expect(parseTriggerQueries([{ query: "a", should_trigger: "yes" }], "f")).toEqual({
      ok: false,
      error: 'f: entry 1: "should_trigger" must be true or false',
    });
  });
});

describe("scoring", () => {
  const run = (loaded: string[]) => ({
    loaded,
    first: "load_skill" as const,
    inputTokens: 1,
    outputTokens: 1,
    ms: 1,
  });
  const answer = { loaded: [], first: "answer" as const, inputTokens: 1, outputTokens: 1, ms: 1 };
  const failed = {
    loaded: [],
    first: "error" as const,
    error: "boom",
    inputTokens: 0,
    outputTokens: 0,
    ms: 1,
  };

  it("leaves failed runs out of the rate and counts them", () => {
    const result = scoreSkill(
      "s",
      [{ query: "q", shouldTrigger: true, split: "train" }],
      [[run(["s"]), failed, answer]],
      0.5,
    );
    expect(result.queryResults[0]).toMatchObject({ triggerRate: 0.5, passed: true, errors: ["boom"] });
    expect(result).toMatchObject({ recall: 1, precision: 1, failedRuns: 1 });
  });

  it("a query whose every run failed fails, but is left out of recall and precision", () => {
    const result = scoreSkill(
      "s",
      [
        { query: "ok", shouldTrigger: true, split: "train" },
        { query: "down", shouldTrigger: true, split: "train" },
      ],
      [[run(["s"])], [failed, failed]],
      0.5,
    );
    expect(result.queryResults[1]).toMatchObject({
      triggerRate: null,
      passed: false,
      errors: ["boom", "boom"],
    });
    expect(result).toMatchObject({ queries: 2, passed: 1, recall: 1, precision: 1, failedRuns: 2 });
  });
});
