// Which source files of the bundle ran code in a run of the real binary: the bundle is one
// file (scripts/build.mjs), so "was zod loaded" means "did any of zod's functions run". Read
// from V8's own coverage (NODE_V8_COVERAGE, written as the process exits) and mapped back to
// the original files through the bundle's source map.
import { readdirSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "./run-hx.js";

const BUNDLE = path.join(REPO_ROOT, "dist", "hx.cjs");

/** The environment that makes a child hx write its coverage to `dir`. */
export function coverageEnv(dir: string): Record<string, string> {
  return { NODE_V8_COVERAGE: dir };
}

interface FunctionCoverage {
  functionName: string;
  ranges: Array<{ startOffset: number; endOffset: number; count: number }>;
}

/**
 * The original sources (as the source map names them: `src/cli/agent-command.ts`,
 * `node_modules/zod/v4/core/core.js`...) of which at least one function ran.
 */
export function ranSources(dir: string): Set<string> {
  const url = pathToFileURL(BUNDLE).href;
  const functions: FunctionCoverage[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const report = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as {
      result: Array<{ url: string; functions: FunctionCoverage[] }>;
    };
    for (const script of report.result) if (script.url === url) functions.push(...script.functions);
  }
  if (functions.length === 0) throw new Error(`no coverage of ${BUNDLE} in ${dir}`);
  const source = readFileSync(BUNDLE, "latin1");
  const map = new SourceMap(JSON.parse(readFileSync(`${BUNDLE}.map`, "utf8")));
  const lineStarts = [0];
  for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const ran = new Set<string>();
  for (const fn of functions) {
    const range = fn.ranges[0];
    if (range.count === 0 || range.startOffset === 0) continue; // not run, or the whole script
    const offset = range.startOffset;
    let line = lineStarts.length - 1;
    while (lineStarts[line] > offset) line--;
    const entry = map.findEntry(line, offset - lineStarts[line]);
    if ("originalSource" in entry && entry.originalSource) ran.add(relative(entry.originalSource));
  }
  return ran;
}

function relative(source: string): string {
  const file = source.startsWith("file://") ? new URL(source).pathname : source;
  return path.isAbsolute(file) ? path.relative(REPO_ROOT, file) : file.replace(/^(\.\.\/)+/, "");
}

/** Whether any source of `pkg` (a node_modules folder name) ran. */
export function ranPackage(ran: Set<string>, pkg: string): boolean {
  return [...ran].some((source) => source.startsWith(`node_modules/${pkg}/`));
}
