// MCP OAuth: what authorization adds to connecting to a remote server, in process (an
// McpConnection to hx's HTTP fixture on 127.0.0.1, test/fixtures/mcp/http-server.mjs), against
// the same server without OAuth. First connection: the 401, protected-resource and
// authorization-server discovery, dynamic registration, the browser step (a fetch that follows
// the fixture's immediate redirect to hx's 127.0.0.1 callback) and the token request. Later
// connection: the stored token is sent with the first request, so nothing is discovered.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { McpConnection } from "../src/mcp/connection.js";
import type { Authorizer } from "../src/mcp/oauth-provider.js";
import { AuthStore } from "../src/mcp/oauth-store.js";
import { HTTP_FIXTURE } from "../test/support/mcp.js";
import { median, ms } from "./measure.js";
import type { BenchRow } from "./types.js";

const RUNS = 9;

/** The "browser": follows the authorization server's redirect back to hx's callback. */
const follow: Authorizer = {
  canAuthorize: true,
  async open(url) {
    let next = url;
    for (let hop = 0; hop < 5; hop++) {
      const response = await fetch(next, { redirect: "manual" });
      const location = response.headers.get("location");
      await response.body?.cancel();
      if (!location) return;
      next = new URL(location, next).toString();
    }
  },
};

async function startFixture(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [HTTP_FIXTURE, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve) => {
    let text = "";
    child.stdout?.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\n")) resolve(text.trim());
    });
  });
  return { url, child };
}

/** Milliseconds from start() to ready. */
async function connect(url: string, store: AuthStore | undefined): Promise<number> {
  const connection = new McpConnection(
    "web",
    { type: "http", url, headers: {} },
    {
      cwd: process.cwd(),
      clientVersion: "bench",
      startupTimeoutMs: 10_000,
      ...(store ? { auth: { store, authorizer: follow } } : {}),
    },
  );
  const started = performance.now();
  await connection.start();
  const elapsed = performance.now() - started;
  if (connection.status !== "ready") throw new Error(`bench: not ready: ${connection.error}`);
  await connection.close();
  return elapsed;
}

export async function run(): Promise<BenchRow[]> {
  const plain = await startFixture([]);
  const oauth = await startFixture(["--oauth"]);
  const base = mkdtempSync(path.join(os.tmpdir(), "hx-bench-oauth-"));
  const none: number[] = [];
  const first: number[] = [];
  const later: number[] = [];
  try {
    await connect(plain.url, undefined); // warm up: the SDK's modules load once
    await connect(oauth.url, new AuthStore(path.join(base, "warm.json")));
    for (let i = 0; i < RUNS; i++) {
      const store = new AuthStore(path.join(base, `run-${i}.json`));
      none.push(await connect(plain.url, undefined));
      first.push(await connect(oauth.url, store));
      later.push(await connect(oauth.url, store));
    }
  } finally {
    plain.child.kill("SIGKILL");
    oauth.child.kill("SIGKILL");
    rmSync(base, { recursive: true, force: true });
  }
  const without = median(none);
  const added = (values: number[]) => median(values) - without;
  return [
    {
      area: "mcp-oauth",
      metric: "connect without OAuth (initialize + lists)",
      value: ms(without),
      target: "",
    },
    {
      area: "mcp-oauth",
      metric: "first connection: discovery, registration, browser step, token",
      value: `+${ms(added(first))}`,
      target: "≤ +150 ms",
      ok: added(first) <= 150,
    },
    {
      area: "mcp-oauth",
      metric: "later connection (stored token)",
      value: `+${ms(Math.max(0, added(later)))}`,
      target: "≤ +30 ms",
      ok: added(later) <= 30,
    },
  ];
}
