// MCP skills and prompts: what a server offering skills (the Skills extension) adds to the
// first model request (the skills/list round trip at start-up) and to the system prompt (its
// catalog lines), with the real binary, hx's fixture server and the fake model server.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakeModelServer } from "../test/support/fake-model-server.js";
import { FIXTURE_SERVER, nodeServer, writeMcpConfig } from "../test/support/mcp.js";
import { HX_BIN, hxEnv } from "../test/support/run-hx.js";
import { median, timedSpawn } from "./measure.js";
import type { BenchRow } from "./types.js";

const RUNS = 9;

export async function run(): Promise<BenchRow[]> {
  const base = mkdtempSync(path.join(os.tmpdir(), "hx-bench-mcp-skills-"));
  const plain = writeMcpConfig(path.join(base, "plain.json"), { fx: nodeServer(FIXTURE_SERVER) });
  const skills = writeMcpConfig(path.join(base, "skills.json"), {
    fx: nodeServer(FIXTURE_SERVER, ["--skills"]),
  });
  const server = await startFakeModelServer();
  server.replyWith((_request, reply) => reply.text("ok"));
  const env = hxEnv({ HOME: path.join(base, "home"), OPENAI_API_KEY: "sk-bench" });
  const agent = async (config: string) => {
    const start = performance.now();
    const before = server.requests.length;
    const args = [HX_BIN, "agent", "hi", "--provider", "openai", "--base-url", `${server.url}/v1`];
    const result = await timedSpawn(
      process.execPath,
      [...args, "--model", "bench", "-C", base, "--mcp-config", config],
      { env },
    );
    const request = server.requests[before];
    if (result.code !== 0 || !request) throw new Error(`bench: hx agent exited ${result.code}`);
    const system = String(request.body.messages?.[0]?.content ?? "");
    return { ms: request.receivedAt - start, systemChars: system.length };
  };
  const without: number[] = [];
  const withSkills: number[] = [];
  let chars = { without: 0, with: 0 };
  try {
    // Interleaved, so a change in the machine's load hits both sides alike.
    for (let i = 0; i < RUNS; i++) {
      const a = await agent(plain);
      const b = await agent(skills);
      without.push(a.ms);
      withSkills.push(b.ms);
      chars = { without: a.systemChars, with: b.systemChars };
    }
  } finally {
    await server.close();
    rmSync(base, { recursive: true, force: true });
  }
  const added = median(withSkills.map((t, i) => t - (without[i] ?? t)));
  return [
    {
      area: "mcp",
      metric: `added time to the first model request when the server serves skills (skills/list; median of ${RUNS} pairs)`,
      value: `${added >= 0 ? "+" : ""}${Math.round(added)} ms`,
      target: "≤ +50 ms",
      ok: added <= 50,
    },
    {
      area: "mcp",
      metric: "system prompt chars added by the server's 2 skills (catalog lines with their origin)",
      value: `+${chars.with - chars.without}`,
      target: "",
    },
  ];
}
