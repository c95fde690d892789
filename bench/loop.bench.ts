// The loop: a turn of 4 read-only calls (grep, which runs ripgrep) with the calls running
// together, as the loop runs reads, against the same turn with the same tool declared with
// another effect, which the loop runs one call after another. Real loop, real tool, a model
// that answers at once, so the figure is the tool phase.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAgentLoop } from "../src/agent/loop.js";
import { Conversation } from "../src/core/conversation.js";
import { ScriptedProvider } from "../src/providers/scripted.js";
import { grepTool } from "../src/tools/grep.js";
import { ToolRegistry } from "../src/tools/registry.js";
import type { Tool } from "../src/tools/tool.js";
import { Workspace } from "../src/tools/workspace.js";
import { median, ms, times } from "./measure.js";
import type { BenchRow } from "./types.js";

const RUNS = 9;
const CALLS = 4;

export async function run(): Promise<BenchRow[]> {
  const root = mkdtempSync(path.join(os.tmpdir(), "hx-bench-loop-"));
  try {
    writeProject(root);
    const sequentialGrep = { ...grepTool, effect: "execute" } as Tool;
    const together: number[] = [];
    const oneByOne: number[] = [];
    await timeTurn(root, sequentialGrep); // warm the page cache and ripgrep's binary
    for (let i = 0; i < RUNS; i++) {
      // Alternate which goes first, so neither always runs on a warmer machine.
      if (i % 2 === 0) together.push(await timeTurn(root, grepTool as unknown as Tool));
      oneByOne.push(await timeTurn(root, sequentialGrep));
      if (i % 2 === 1) together.push(await timeTurn(root, grepTool as unknown as Tool));
    }
    const ratio = median(oneByOne) / median(together);
    return [
      {
        area: "loop",
        metric: `a turn of ${CALLS} grep calls: run together vs one after another (median of ${RUNS})`,
        value: `${ms(median(together))} vs ${ms(median(oneByOne))} (${times(ratio)} faster)`,
        target: "together faster",
        ok: median(together) < median(oneByOne),
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function timeTurn(root: string, tool: Tool): Promise<number> {
  const calls = Array.from({ length: CALLS }, (_, i) => ({
    name: "grep",
    arguments: { pattern: `marker${i} = [0-9]+`, path: "src" },
  }));
  const provider = new ScriptedProvider([{ toolCalls: calls }, { text: "done" }]);
  const conversation = new Conversation([{ role: "user", content: "search" }]);
  const start = performance.now();
  const result = await runAgentLoop(
    {
      provider,
      system: "bench",
      tools: new ToolRegistry([tool]),
      workspace: new Workspace(root),
      maxTurns: 3,
      extensions: [],
      emit: () => {},
    },
    conversation,
  );
  const elapsed = performance.now() - start;
  const failed = conversation.messages.some((m) => m.role === "tool" && m.isError);
  if (result.stop !== "done" || failed) throw new Error("bench: the grep turn failed");
  return elapsed;
}

function writeProject(root: string): void {
  for (let d = 0; d < 20; d++) {
    const dir = path.join(root, "src", `pkg${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 25; f++) {
      const lines = Array.from(
        { length: 200 },
        (_, n) => `export const value${n % 7}_${f}${n} = ${n % 5}; // ${d}`,
      );
      writeFileSync(path.join(dir, `file${f}.ts`), `${lines.join("\n")}\n`);
    }
  }
}
