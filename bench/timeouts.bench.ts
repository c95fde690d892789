// How soon a command or hook that hangs gives control back: after its timeout, after a cancel,
// and when a background job still holds its output. The tests check that these end and what
// they say; how fast is measured here, against targets, on a quiet machine.
import { mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HookPayload } from "../src/hooks/events.js";
import { runCommandHook } from "../src/hooks/runner.js";
import { createBashTool } from "../src/tools/bash.js";
import { Workspace } from "../src/tools/workspace.js";
import { median, ms } from "./measure.js";
import type { BenchRow } from "./types.js";

const RUNS = 3;
/** What a kill may take past the moment it is due (process-group kill, pipes closing). */
const SLACK_MS = 250;

export async function run(): Promise<BenchRow[]> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hx-bench-timeouts-")));
  const workspace = new Workspace(root);
  const bash = createBashTool();
  const call = (args: { command: string; timeout?: number }, signal = new AbortController().signal) =>
    bash.execute(args, { workspace, signal, callId: "bench", emit: () => {} });
  const payload: HookPayload = {
    hook_event_name: "PreToolUse",
    session_id: "bench",
    transcript_path: path.join(root, "t.jsonl"),
    cwd: root,
    permission_mode: "default",
  };

  const timedOut = await timed(() => call({ command: "sleep 30 & sleep 30", timeout: 0.5 }));
  const cancelled = await timed(async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    // A cancelled call throws (the registry turns it into the result the model reads).
    await call({ command: "sleep 30 & sleep 30" }, controller.signal).catch(() => undefined);
  });
  const background = await timed(() => call({ command: "sleep 30 & echo done", timeout: 10 }));
  const noStdin = await timed(() => call({ command: "cat; echo read", timeout: 10 }));
  const hook = await timed(() => runCommandHook("sleep 30", payload, { cwd: root, timeoutMs: 300 }));
  return [
    row("bash with timeout 0.5 s: back after", timedOut, 500 + SLACK_MS),
    row("bash cancelled at 0.3 s: back after", cancelled, 300 + SLACK_MS),
    row("bash leaving a background job: back after", background, SLACK_MS),
    row("bash reading stdin (none given): back after", noStdin, SLACK_MS),
    row("hook with timeout 0.3 s: back after", hook, 300 + SLACK_MS),
  ];
}

function row(metric: string, value: number, targetMs: number): BenchRow {
  return {
    area: "timeouts",
    metric: `${metric} (median of ${RUNS})`,
    value: ms(value),
    target: `≤ ${targetMs} ms`,
    ok: value <= targetMs,
  };
}

/** The median wall time of RUNS calls. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}
