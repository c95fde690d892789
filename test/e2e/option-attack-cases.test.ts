// hx's own option cases (test/fixtures/attacks/option-cases.json): abbreviated options,
// writing and program-running options, operands a program writes, wrappers under allow
// rules and the block list through xargs/parallel, decided by the real binary and run by a
// headless `hx agent` (see attack-support.ts).
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { attackCaseSuites, check } from "./attack-support.js";
import { toolResultsOf, useHarness } from "./harness-support.js";

const CASES = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "fixtures",
  "attacks",
  "option-cases.json",
);

attackCaseSuites(CASES, "option cases");

const h = useHarness();

describe("sort --compress-prog=sh through a headless hx agent run", () => {
  it("is refused with the option named, and the program never runs", async () => {
    writeFileSync(path.join(h.work, "a.txt"), "b\na\n");
    const marker = path.join(h.work, "pwned");
    const command = `printf 'touch ${marker}\\n%01200d\\n' 0 | sort -S 1 --compress-prog=sh`;
    h.server.reply().tool("bash", { command });
    h.server.reply().text("done");

    const run = await h.agent("sort it", ["--permission-mode", "default"]);

    expect(run.code, run.stderr).toBe(0);
    const [result] = toolResultsOf(h.server.requests[1]);
    expect(result).toMatch(/^Permission denied/);
    expect(result).toContain("--compress-prog=sh");
    expect(result).toContain("--compress-program");
    expect(existsSync(marker)).toBe(false);
  });

  it("hx permissions check --json names the word and the command", async () => {
    const [result] = await check(h.work, "default", ["sort -S 1 --compress-prog=sh a.txt"], false);
    expect(result).toMatchObject({
      decision: "ask",
      notReadOnly: {
        command: "sort -S 1 --compress-prog=sh a.txt",
        word: "--compress-prog=sh",
        reason: "`--compress-prog=sh` (--compress-program) runs a program",
      },
    });
  });

  it("hx permissions check says which word made the line not read-only", async () => {
    const run = await runHx(["permissions", "check", "-C", h.work, "--", "git log --ext-d -p"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("ask: bash(git log --ext-d -p)");
    expect(run.stdout).toContain(
      "not read-only: `--ext-d` in `git log --ext-d -p`: `--ext-d` (--ext-diff) runs the external diff program",
    );
  });
});
