// `npm run bench`: runs every bench/*.bench.ts and prints one table. Exits 1 when a row
// misses its target.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Bench, BenchRow } from "./types.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts") && (!only || f.includes(only)))
  .sort();

const rows: BenchRow[] = [];
for (const file of files) {
  const mod = (await import(pathToFileURL(path.join(here, file)).href)) as { run: Bench };
  rows.push(...(await mod.run()));
}

const header: BenchRow = { area: "area", metric: "metric", value: "value", target: "target" };
const cells = (r: BenchRow) => [
  r.area,
  r.metric,
  r.value,
  r.target,
  r.ok === undefined ? "" : r.ok ? "ok" : "MISS",
];
const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...[header, ...rows].map((r) => cells(r)[i].length)));
const line = (r: BenchRow) =>
  cells(r)
    .map((c, i) => c.padEnd(widths[i]))
    .join(" | ")
    .trimEnd();
console.log(line(header));
console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
for (const row of rows) console.log(line(row));
const missed = rows.filter((r) => r.ok === false);
if (missed.length > 0) {
  console.log(`\n${missed.length} target(s) missed`);
  process.exit(1);
}
