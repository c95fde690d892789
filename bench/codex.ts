// Codex beside hx, where a `codex` binary is on PATH (`npm install -g @openai/codex` takes it
// from the npm registry): pointed at the same fake model server over the Responses API, the
// only wire Codex speaks now, never at the network. Its figures fill the "best peer" column
// from a run on this machine instead of a number copied from elsewhere.
import { spawnSync } from "node:child_process";
import type { FakeModelServer } from "../test/support/fake-model-server.js";
import { timedSpawn } from "./measure.js";

/** A stdio MCP server as Codex's config takes it. */
export interface CodexMcpServer {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The installed Codex's version, or undefined when there is none. */
export function codexVersion(): string | undefined {
  const probe = spawnSync("codex", ["--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) return undefined;
  return probe.stdout.trim();
}

const toml = (value: unknown) => JSON.stringify(value);

/**
 * Codex's settings for a bench run: no update check, analytics or plugin sync (nothing leaves
 * 127.0.0.1, checked with strace), and the model provider at `baseUrl` over the Responses API.
 */
export function codexConfigArgs(baseUrl: string): string[] {
  const provider = `model_providers.hxbench={name="hxbench",base_url=${toml(baseUrl)},wire_api="responses",env_key="OPENAI_API_KEY"}`;
  return [
    "-c",
    "check_for_update_on_startup=false",
    "-c",
    "analytics.enabled=false",
    "-c",
    "features.plugins=false",
    "-c",
    'model_provider="hxbench"',
    "-c",
    provider,
  ];
}

/** `codex exec "hi"` in `work` against `server`, with these MCP servers. */
export function codexExecArgs(
  server: FakeModelServer,
  work: string,
  mcp: Record<string, CodexMcpServer> = {},
): string[] {
  const servers = Object.entries(mcp).flatMap(([name, entry]) => {
    const env = Object.entries(entry.env ?? {}).map(([key, value]) => `${key}=${toml(value)}`);
    const fields = [`command=${toml(entry.command)}`, `args=[${entry.args.map(toml).join(",")}]`];
    if (env.length > 0) fields.push(`env={${env.join(",")}}`);
    return ["-c", `mcp_servers.${name}={${fields.join(",")}}`];
  });
  return [
    "exec",
    "--skip-git-repo-check",
    "-C",
    work,
    ...codexConfigArgs(`${server.url}/v1`),
    ...servers,
    "-m",
    "bench",
    "hi",
  ];
}

/**
 * Runs Codex once, with `home` as its HOME: wall time, the time from spawn to its first model
 * request at the server, and from the last response byte to its exit.
 */
export async function runCodex(server: FakeModelServer, args: string[], home: string) {
  const before = server.requests.length;
  const start = performance.now();
  const result = await timedSpawn("codex", args, {
    env: { ...process.env, HOME: home, OPENAI_API_KEY: "sk-bench" },
  });
  const request = server.requests.slice(before).find((r) => r.method === "POST");
  if (result.code !== 0 || !request) return undefined;
  return {
    ms: result.ms,
    first: request.receivedAt - start,
    linger: request.respondedAt === undefined ? Number.NaN : result.exitAt - request.respondedAt,
  };
}
