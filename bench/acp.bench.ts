// `hx acp` as an editor meets it: from spawning the agent to its `initialize` answer, and to the
// first `agent_message_chunk` of a prompt (initialize, session/new and session/prompt sent one
// after another, as Zed does). Raw NDJSON frames, against the fake model server; rounds
// interleaved with `node -e 0` so the ratio to that baseline holds under load.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakeModelServer } from "../test/support/fake-model-server.js";
import { HX_BIN, hxEnv } from "../test/support/run-hx.js";
import { median, ms, pairedRatio, timedSpawn, times } from "./measure.js";
import type { BenchRow } from "./types.js";

const ROUNDS = Number(process.env.HX_BENCH_ROUNDS ?? 10);

export async function run(): Promise<BenchRow[]> {
  const server = await startFakeModelServer();
  server.replyWith((_request, reply) => reply.text("hello from hx", { chunks: 3 }));
  const home = mkdtempSync(path.join(os.tmpdir(), "hx-bench-acp-home-"));
  const work = mkdtempSync(path.join(os.tmpdir(), "hx-bench-acp-work-"));
  const env = hxEnv({ HOME: home, OPENAI_API_KEY: "sk-bench" });
  const args = [HX_BIN, "acp", "--provider", "openai", "--base-url", `${server.url}/v1`, "--model", "bench"];
  const baseline: number[] = [];
  const initialize: number[] = [];
  const firstChunk: number[] = [];
  try {
    await editorsFirstSession(args, env);
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push((await timedSpawn(process.execPath, ["-e", "0"])).ms);
      const times = await oneSession(args, env, work);
      initialize.push(times.initialize);
      firstChunk.push(times.firstChunk);
    }
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
  const initRatio = pairedRatio(initialize, baseline);
  const chunkRatio = pairedRatio(firstChunk, baseline);
  return [
    {
      area: "acp",
      metric: `hx acp: spawn → initialize answer (vs node -e 0; medians of ${ROUNDS})`,
      value: `${ms(median(initialize))} = ${times(initRatio)}`,
      target: "≤ 3×",
      ok: initRatio <= 3,
    },
    {
      area: "acp",
      metric: "hx acp: spawn → first agent_message_chunk (initialize, session/new, session/prompt)",
      value: `${ms(median(firstChunk))} = ${times(chunkRatio)}`,
      target: "≤ 6×",
      ok: chunkRatio <= 6,
    },
  ];
}

/**
 * The editor's first session with this hx, which lasts (the rounds below each end at the
 * first chunk): it writes the `acp` code cache 3 s in, as any real session does (bin/hx.cjs).
 */
async function editorsFirstSession(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(process.execPath, args, { env, stdio: ["pipe", "ignore", "ignore"] });
  await new Promise((resolve) => setTimeout(resolve, 3500));
  child.kill("SIGKILL");
  await new Promise((resolve) => child.once("close", resolve));
}

/** One agent process: the times from spawn to the initialize answer and to the first chunk. */
function oneSession(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ initialize: number; firstChunk: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ["pipe", "pipe", "ignore"] });
    const send = (frame: unknown) => child.stdin.write(`${JSON.stringify(frame)}\n`);
    let initialize: number | undefined;
    let buffer = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("bench: hx acp did not answer within 20 s"));
    }, 20_000);
    child.on("error", reject);
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
        const frame = JSON.parse(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        if (frame.id === 1) {
          initialize = performance.now() - start;
          send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd, mcpServers: [] } });
        } else if (frame.id === 2) {
          const sessionId = frame.result.sessionId;
          send({
            jsonrpc: "2.0",
            id: 3,
            method: "session/prompt",
            params: { sessionId, prompt: [{ type: "text", text: "hi" }] },
          });
        } else if (
          frame.method === "session/update" &&
          frame.params.update.sessionUpdate === "agent_message_chunk"
        ) {
          const firstChunk = performance.now() - start;
          clearTimeout(timer);
          child.stdin.end();
          child.kill();
          resolve({ initialize: initialize ?? Number.NaN, firstChunk });
          return;
        }
      }
    });
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: {} },
    });
  });
}
