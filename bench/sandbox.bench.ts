// The second wall's cost: what the OS sandbox adds to one bash call, and what the sweep for
// processes that left their group costs an unsandboxed call. Runs the bash tool in-process.
import { mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findBackend, probeBackend } from "../src/sandbox/detect.js";
import { createSandbox, resolveSandboxOptions } from "../src/sandbox/index.js";
import { createBashTool } from "../src/tools/bash.js";
import { Workspace } from "../src/tools/workspace.js";
import type { BenchRow } from "./types.js";

const RUNS = Number(process.env.HX_BENCH_SANDBOX_RUNS ?? 41);

export async function run(): Promise<BenchRow[]> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hx-bench-sbx-")));
  const workspace = new Workspace(root);
  const call = (tool: ReturnType<typeof createBashTool>) => async () => {
    await tool.execute(
      { command: "true" },
      { workspace, signal: new AbortController().signal, callId: "bench", emit: () => {} },
    );
  };
  const probe = await probeBackend(findBackend());
  if (!probe.ok) {
    const plain = await median(RUNS, call(createBashTool()));
    return [
      {
        area: "sandbox",
        metric: `bash "true", no sandbox (median of ${RUNS})`,
        value: ms(plain),
        target: "",
      },
      {
        area: "sandbox",
        metric: "bash in the OS sandbox",
        value: `not measured: ${probe.reason}`,
        target: "",
      },
    ];
  }
  const sandbox = createSandbox(resolveSandboxOptions({ workspaceRoot: root }).options);
  await sandbox.check();
  // As root, bwrap also runs without a user namespace: what the namespace itself costs.
  const root0 = process.getuid?.() === 0 && probe.backend === "bubblewrap";
  const noUserNs = root0
    ? createSandbox({
        ...resolveSandboxOptions({ workspaceRoot: root }).options,
        probe: async (found) => ({ ...(found as typeof probe), userNamespace: false }),
      })
    : undefined;
  await noUserNs?.check();
  // Alternated, order rotating each round, so a busy machine slows all alike; the verdicts are
  // medians of the per-round differences, steadier than a difference of medians.
  const [plainTimes, boxedTimes, withoutNsTimes] = await rounds(RUNS, [
    call(createBashTool()),
    call(createBashTool({ sandbox })),
    ...(noUserNs ? [call(createBashTool({ sandbox: noUserNs }))] : []),
  ]);
  sandbox.dispose();
  noUserNs?.dispose();
  const plain = middle(plainTimes);
  const boxed = middle(boxedTimes);
  const added = middle(boxedTimes.map((t, i) => t - plainTimes[i]));
  const nsAdded = withoutNsTimes && middle(boxedTimes.map((t, i) => t - withoutNsTimes[i]));
  const load = os.loadavg()[0].toFixed(1);
  const userNsRow: BenchRow =
    nsAdded === undefined
      ? {
          area: "sandbox",
          metric: "what the user namespace adds to a sandboxed call",
          value: "not measured: needs root (bwrap runs without one only as root)",
          target: "",
        }
      : {
          area: "sandbox",
          metric: `what the user namespace adds to a sandboxed call (median of ${RUNS})`,
          value: ms(nsAdded),
          // Within noise on a busy machine (a shell loop of 40 alternated runs: 15.5 vs 16.1 ms).
          target: "≤ 10 ms",
          ok: nsAdded <= 10,
        };
  return [
    { area: "sandbox", metric: `bash "true", no sandbox (median of ${RUNS})`, value: ms(plain), target: "" },
    {
      area: "sandbox",
      metric: `bash "true" in ${probe.backend} (median of ${RUNS})`,
      value: ms(boxed),
      target: "",
    },
    {
      area: "sandbox",
      metric: `what the sandbox adds to a bash call (median of the ${RUNS} per-round differences; load ${load})`,
      value: ms(added),
      target: "≤ 10 ms",
      ok: added <= 10,
    },
    userNsRow,
  ];
}

/** Each function's times, run in rounds whose order rotates (after one warm-up each). */
async function rounds(runs: number, fns: Array<() => Promise<void>>): Promise<number[][]> {
  const times = fns.map(() => [] as number[]);
  for (const fn of fns) await fn();
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < fns.length; j++) {
      const index = (i + j) % fns.length;
      const start = performance.now();
      await fns[index]();
      times[index].push(performance.now() - start);
    }
  }
  return times;
}

function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function median(runs: number, fn: () => Promise<void>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}
