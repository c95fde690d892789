// What a checkpoint costs: the snapshots taken around a call that may change files, on a
// 1,000-file project (the target: ≤ 50 ms per modifying call), and the first one,
// which copies the whole project into the shadow repository.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openCheckpoints } from "../src/checkpoints/index.js";
import { median, ms } from "./measure.js";
import type { BenchRow } from "./types.js";

const FILES = 1000;
const CALLS = 15;

export async function run(): Promise<BenchRow[]> {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hx-bench-checkpoints-")));
  const project = path.join(base, "project");
  const home = path.join(base, "home");
  try {
    for (let i = 0; i < FILES; i++) {
      const folder = path.join(project, `src/m${i % 25}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(20));
    }
    const checkpoints = openCheckpoints(home, project, "bench");
    const started = performance.now();
    await checkpoints.snapshot({ turn: 1, phase: "before", tool: "bash", callId: "first" });
    const first = performance.now() - started;
    const perCall: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      await checkpoints.snapshot({ turn: 1, phase: "before", tool: "edit_file", callId: `c${i}` });
      writeFileSync(path.join(project, "src/m1/f1.ts"), `changed ${i}\n`);
      await checkpoints.snapshot({ turn: 1, phase: "after", tool: "edit_file", callId: `c${i}` });
      perCall.push(performance.now() - t0);
    }
    const cost = median(perCall);
    return [
      {
        area: "checkpoints",
        metric: `snapshots around one modifying call, ${FILES}-file project (before + after, median of ${CALLS})`,
        value: ms(cost),
        target: "≤ 50 ms",
        ok: cost <= 50,
      },
      {
        area: "checkpoints",
        metric: `first snapshot of a session on that project (copies it into the shadow repository)`,
        value: ms(first),
        target: "",
      },
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
