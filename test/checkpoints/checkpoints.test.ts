import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CheckpointRecord } from "../../src/checkpoints/checkpoint-log.js";
import { openCheckpoints } from "../../src/checkpoints/index.js";
import { gapsSince, planFromGaps } from "../../src/checkpoints/rewind-plan.js";
import { tempDir } from "../support/temp-dir.js";

const at = "";
const rec = (phase: CheckpointRecord["phase"], commit: string, callId = "", turn = 1): CheckpointRecord => ({
  turn,
  phase,
  commit,
  callId,
  at,
});

describe("gapsSince", () => {
  it("counts a gap as hx's while any call of a parallel batch runs, not between calls", () => {
    const records = [
      { turn: 1, phase: "turn" as const, at },
      rec("before", "A", "x"),
      rec("before", "A", "y"),
      rec("after", "B", "x"),
      rec("after", "C", "y"),
      rec("before", "D", "z"),
      rec("after", "E", "z"),
    ];
    const { checkpoint, gaps } = gapsSince(records, 1, "F");
    expect(checkpoint).toBe("A");
    expect(gaps.map((g) => [g.from, g.to, g.byHx])).toEqual([
      ["A", "A", true],
      ["A", "B", true],
      ["B", "C", true],
      ["C", "D", false],
      ["D", "E", true],
      ["E", "F", false],
    ]);
  });

  it("starts a redone turn at its latest start", () => {
    const records = [
      { turn: 1, phase: "turn" as const, at },
      rec("before", "OLD"),
      rec("after", "OLD2"),
      { turn: 1, phase: "turn" as const, at },
      rec("before", "NEW"),
      rec("after", "NEW2"),
    ];
    expect(gapsSince(records, 1, "NOW").checkpoint).toBe("NEW");
  });

  it("plans to restore hx's files and names the ones changed outside", () => {
    const plan = planFromGaps("A", [
      { byHx: true, files: ["a", "b"] },
      { byHx: false, files: ["b", "c"] },
    ]);
    expect(plan).toEqual({
      checkpoint: "A",
      restore: ["a", "b"],
      alsoChangedOutside: ["b"],
      untouched: ["c"],
    });
  });
});

describe("Checkpoints", () => {
  it("leaves a file over 10 MB out of snapshots, says so, and never deletes it on rewind", async () => {
    const base = tempDir("hx-checkpoints-");
    const project = path.join(base, "project");
    mkdirSync(project);
    writeFileSync(path.join(project, "small.txt"), "before\n");
    const checkpoints = openCheckpoints(path.join(base, "home"), project, "s1");
    checkpoints.currentTurn([{ role: "user", content: "go" }]);
    await checkpoints.snapshot({ turn: 1, phase: "before", tool: "bash", callId: "c1" });
    writeFileSync(path.join(project, "small.txt"), "after\n");
    writeFileSync(path.join(project, "big.bin"), Buffer.alloc(11 * 1024 * 1024, 1));
    await checkpoints.snapshot({ turn: 1, phase: "after", tool: "bash", callId: "c1" });
    const skipped = checkpoints.log.read().flatMap((r) => r.skipped ?? []);
    expect(skipped).toEqual(["big.bin"]);

    const outcome = await checkpoints.rewindFiles(1);

    expect(outcome.restore).toEqual(["small.txt"]);
    expect(readFileSync(path.join(project, "small.txt"), "utf8")).toBe("before\n");
    expect(existsSync(path.join(project, "big.bin"))).toBe(true);
  });

  it("does not touch the project's own .git or hx's .hx folder", async () => {
    const base = tempDir("hx-checkpoints-");
    const project = path.join(base, "project");
    mkdirSync(path.join(project, ".git"), { recursive: true });
    mkdirSync(path.join(project, ".hx"), { recursive: true });
    writeFileSync(path.join(project, ".git", "HEAD"), "ref: refs/heads/main\n");
    const checkpoints = openCheckpoints(path.join(base, "home"), project, "s2");
    checkpoints.currentTurn([{ role: "user", content: "go" }]);
    await checkpoints.snapshot({ turn: 1, phase: "before", tool: "bash", callId: "c1" });
    writeFileSync(path.join(project, ".hx", "tasks.json"), "{}");
    writeFileSync(path.join(project, ".git", "HEAD"), "ref: refs/heads/other\n");
    writeFileSync(path.join(project, "new.txt"), "x");
    await checkpoints.snapshot({ turn: 1, phase: "after", tool: "bash", callId: "c1" });

    const outcome = await checkpoints.rewindFiles(1);

    expect(outcome.restore).toEqual(["new.txt"]);
    expect(readFileSync(path.join(project, ".git", "HEAD"), "utf8")).toBe("ref: refs/heads/other\n");
    expect(existsSync(path.join(project, ".hx", "tasks.json"))).toBe(true);
    expect(existsSync(path.join(project, "new.txt"))).toBe(false);
  });
});
