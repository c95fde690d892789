// Permissions: what the bash parser costs (its first load, then each command line), and that
// decisions stay fast with very long rule lists.
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createBashParserLoader } from "../src/permissions/bash-parser.js";
import { PermissionChecker } from "../src/permissions/checker.js";
import { readOnlyVerdict } from "../src/permissions/read-only-commands.js";
import { MAX_ALLOW_RULES, parseRules } from "../src/permissions/rules.js";
import { HX_BIN, hxEnv } from "../test/support/run-hx.js";
import { median } from "./measure.js";
import type { BenchRow } from "./types.js";

const LINES = [
  "git status",
  "git diff --stat HEAD~1",
  "npm test -- --run",
  "ls -la src && wc -l src/*.ts",
  "rg -n 'TODO' src | head -20",
  "cd packages/core && npm run build 2>&1 | tail -5",
  "git status; touch /tmp/marker",
  "git status $'\\'' && touch m && echo '#'",
  "timeout 5 curl http://127.0.0.1:9/x",
  "bash -c 'cd x && make test'",
  "find . -name '*.log' -mtime +7 -delete",
  "echo $(date) >> build.log",
  "python3 -c 'import os; os.system(\"ls\")'",
  'for f in *.md; do wc -w "$f"; done',
  "cat <<EOF > notes.txt\nhello\nEOF",
  'docker run --rm -v "$PWD":/src -w /src node:20 npm ci',
];

const RUNS = 9;

export async function run(): Promise<BenchRow[]> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hx-bench-perm-")));
  // First load, through the built binary: checking a command loads the parser, checking a
  // file path does the same work without it.
  const check = (args: string[]) =>
    median(
      times(RUNS, () =>
        spawnSync(process.execPath, [HX_BIN, "permissions", "check", ...args], { cwd: root, env: hxEnv() }),
      ),
    );
  const withParser = check(["--", "git status"]);
  const withoutParser = check(["write_file", "a.txt"]);
  const firstLoad = withParser - withoutParser;
  const loader = createBashParserLoader();
  await loader();

  const { rules } = parseRules({ allow: ["bash(git status*)", "bash(npm test*)"], deny: ["bash(curl *)"] });
  const checker = new PermissionChecker({ mode: "default", rules, root, loadParser: loader });
  const decide = (subject: string) => checker.check({ tool: "bash", effect: "execute", subject });
  for (const line of LINES) await decide(line); // warm up
  const perLine = await medianPerLine((line) => decide(line));

  const rows: BenchRow[] = [
    {
      area: "permissions",
      metric: `bash parser first load, in hx permissions check (median of ${RUNS}, vs. a file check)`,
      value: ms(firstLoad),
      target: "< 100 ms",
      ok: firstLoad < 100,
    },
    {
      area: "permissions",
      metric: `decision per command line after the first (parse + rules; median of ${LINES.length} lines × 50)`,
      value: `${perLine.toFixed(3)} ms`,
      target: "≤ 2 ms",
      ok: perLine <= 2,
    },
  ];

  // The option tables: reading one call's options (the largest table is git log's).
  const calls = [
    "git log --oneline --graph --decorate --all -n 20 --since=2.weeks --author=me -- src",
    "git diff --stat --cached --name-only -U5 HEAD~1",
    "sort -S 1 --compress-prog=sh a.txt",
    "grep -rn --include=*.ts -A3 -B 2 -i foo src",
    "find . -maxdepth 3 -type f -name '*.ts' -not -path './node_modules/*' -print",
    "ls -lah --color=never src",
  ].map((line) => line.split(" "));
  const optionSamples: number[] = [];
  for (let round = 0; round < 200; round += 1) {
    for (const words of calls) {
      const start = performance.now();
      readOnlyVerdict(words);
      optionSamples.push(performance.now() - start);
    }
  }
  const perCall = median(optionSamples);
  rows.push({
    area: "permissions",
    metric: `read-only option check per command (option tables; median of ${calls.length} calls × 200)`,
    value: `${perCall.toFixed(4)} ms`,
    target: "≤ 0.2 ms",
    ok: perCall <= 0.2,
  });

  // 100,000 allow rules (the cap): building the index and deciding stay cheap.
  const many = Array.from({ length: MAX_ALLOW_RULES }, (_, i) => `bash(tool${i % 5000} sub${i} *)`);
  const manyStart = performance.now();
  const parsed = parseRules({ allow: many, deny: many.slice(0, 50_000) });
  const big = new PermissionChecker({ mode: "default", rules: parsed.rules, root, loadParser: loader });
  await big.check({ tool: "bash", effect: "execute", subject: "tool7 sub7 x" });
  const setup = performance.now() - manyStart;
  const bigPerLine = await medianPerLine(
    (line) => big.check({ tool: "bash", effect: "execute", subject: line }),
    ["tool42 sub5042 --flag"],
  );
  rows.push({
    area: "permissions",
    metric: "100,000 allow + 50,000 deny rules: parse, index, first decision",
    value: ms(setup),
    target: "< 3000 ms (once per session)",
    ok: setup < 3000,
  });
  rows.push({
    area: "permissions",
    metric: "100,000 allow + 50,000 deny rules: decision per command line (median)",
    value: `${bigPerLine.toFixed(3)} ms`,
    target: "≤ 5 ms",
    ok: bigPerLine <= 5,
  });

  // 2,000,000 allow rules: refused above the cap (every call asked), at once.
  const huge = new Array(2_000_000).fill("bash(ls *)");
  const hugeStart = performance.now();
  const refused = parseRules({ allow: huge });
  const hugeChecker = new PermissionChecker({
    mode: "default",
    rules: refused.rules,
    root,
    loadParser: loader,
  });
  await hugeChecker.check({ tool: "bash", effect: "execute", subject: "make" });
  const hugeTime = performance.now() - hugeStart;
  rows.push({
    area: "permissions",
    metric: "2,000,000 allow rules: refused with a warning, then a decision",
    value: ms(hugeTime),
    target: "< 100 ms",
    ok: hugeTime < 100 && refused.warnings.length > 0,
  });
  return rows;
}

/** The median time of one decision over every line, 50 rounds (GC pauses of a big heap aside). */
async function medianPerLine(
  decide: (line: string) => Promise<unknown>,
  extra: string[] = [],
): Promise<number> {
  const samples: number[] = [];
  for (let round = 0; round < 50; round += 1) {
    for (const line of [...LINES, ...extra]) {
      const start = performance.now();
      await decide(line);
      samples.push(performance.now() - start);
    }
  }
  return median(samples);
}

function times(n: number, run: () => unknown): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const start = performance.now();
    run();
    out.push(performance.now() - start);
  }
  return out;
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}
