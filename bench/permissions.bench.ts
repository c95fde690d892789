// Permissions: what the bash parser costs (its first load, then each command line), and that
// decisions stay fast with very long rule lists.
import { mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createBashParserLoader } from "../src/permissions/bash-parser.js";
import { PermissionChecker } from "../src/permissions/checker.js";
import { MAX_ALLOW_RULES, parseRules } from "../src/permissions/rules.js";
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

export async function run(): Promise<BenchRow[]> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hx-bench-perm-")));
  const loader = createBashParserLoader();
  const loadStart = performance.now();
  await loader();
  const firstLoad = performance.now() - loadStart;

  const { rules } = parseRules({ allow: ["bash(git status*)", "bash(npm test*)"], deny: ["bash(curl *)"] });
  const checker = new PermissionChecker({ mode: "default", rules, root, loadParser: loader });
  const check = (subject: string) => checker.check({ tool: "bash", effect: "execute", subject });
  for (const line of LINES) await check(line); // warm up
  const rounds = 50;
  const start = performance.now();
  for (let i = 0; i < rounds; i += 1) for (const line of LINES) await check(line);
  const perLine = (performance.now() - start) / (rounds * LINES.length);

  const rows: BenchRow[] = [
    {
      area: "permissions",
      metric: "bash parser first load (web-tree-sitter + tree-sitter-bash .wasm)",
      value: ms(firstLoad),
      target: "< 100 ms",
      ok: firstLoad < 100,
    },
    {
      area: "permissions",
      metric: `decision per command line after the first (parse + rules, ${LINES.length} lines)`,
      value: `${perLine.toFixed(3)} ms`,
      target: "≤ 2 ms",
      ok: perLine <= 2,
    },
  ];

  // 100,000 allow rules (the cap): building the index and deciding stay cheap.
  const many = Array.from({ length: MAX_ALLOW_RULES }, (_, i) => `bash(tool${i % 5000} sub${i} *)`);
  const manyStart = performance.now();
  const parsed = parseRules({ allow: many, deny: many.slice(0, 50_000) });
  const big = new PermissionChecker({ mode: "default", rules: parsed.rules, root, loadParser: loader });
  await big.check({ tool: "bash", effect: "execute", subject: "tool7 sub7 x" });
  const setup = performance.now() - manyStart;
  const bigStart = performance.now();
  for (const line of LINES) await big.check({ tool: "bash", effect: "execute", subject: line });
  await big.check({ tool: "bash", effect: "execute", subject: "tool42 sub5042 --flag" });
  const bigPerLine = (performance.now() - bigStart) / (LINES.length + 1);
  rows.push({
    area: "permissions",
    metric: "100,000 allow + 50,000 deny rules: parse, index, first decision",
    value: ms(setup),
    target: "< 3000 ms (once per session)",
    ok: setup < 3000,
  });
  rows.push({
    area: "permissions",
    metric: "100,000 allow + 50,000 deny rules: decision per command line",
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

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}
