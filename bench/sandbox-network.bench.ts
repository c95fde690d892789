// The network allow-list's cost: what hx's proxy (bridge in the sandbox's network namespace,
// Unix socket, the host check, the upstream connection) adds to one HTTP request, and what
// starting it costs once per session. Requests go to a local server on 127.0.0.1 only.
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { findBackend, probeBackend } from "../src/sandbox/detect.js";
import { createSandbox, resolveSandboxOptions } from "../src/sandbox/index.js";
import { createBashTool } from "../src/tools/bash.js";
import { Workspace } from "../src/tools/workspace.js";
import type { BenchRow } from "./types.js";

const REQUESTS = 30;
const CALLS = 15;

export async function run(): Promise<BenchRow[]> {
  const probe = await probeBackend(findBackend());
  const skip = (why: string): BenchRow[] => [
    {
      area: "sandbox",
      metric: "what the network proxy adds to a request",
      value: `not measured: ${why}`,
      target: "",
    },
  ];
  if (!probe.ok || probe.backend !== "bubblewrap") return skip(probe.ok ? "Linux only" : probe.reason);
  try {
    execFileSync("curl", ["--version"], { stdio: "ignore" });
  } catch {
    return skip("curl is not installed");
  }
  const server = http.createServer((_req, res) => res.end("ok\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hx-bench-net-")));
  const workspace = new Workspace(root);
  const sandbox = createSandbox({
    ...resolveSandboxOptions({ workspaceRoot: root }).options,
    allowList: { allowedDomains: ["127.0.0.1"], deniedDomains: [] },
  });
  const plain = createSandbox({ ...resolveSandboxOptions({ workspaceRoot: root }).options });
  const bash = (tool: ReturnType<typeof createBashTool>, command: string) =>
    tool.execute(
      { command },
      { workspace, signal: new AbortController().signal, callId: "bench", emit: () => {} },
    );
  const listed = createBashTool({ sandbox });
  const closed = createBashTool({ sandbox: plain });
  await bash(closed, "true");
  // The first call starts the proxy and the bridge; the second is an ordinary one.
  const first = await timed(() => bash(listed, "true"));
  // Then ordinary calls, alternated with calls without the allow-list (a busy machine slows both).
  const laters: number[] = [];
  const ordinaries: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    laters.push(await timed(() => bash(listed, "true")));
    ordinaries.push(await timed(() => bash(closed, "true")));
  }
  const later = median(laters);
  const ordinary = median(ordinaries);
  // curl's own clock, per request: through the proxy inside the sandbox, and direct on the host.
  const loop = (flags: string) =>
    `for i in $(seq ${REQUESTS}); do curl -s -o /dev/null -w '%{time_total}\\n' ${flags} http://127.0.0.1:${port}/; done`;
  const proxied = medianOf(((await bash(listed, loop("--noproxy ''"))) as { content: string }).content);
  // Unsandboxed, the same shell loop (asynchronously: the server answers from this process).
  const direct = medianOf(
    ((await bash(createBashTool(), loop("--noproxy '*'"))) as { content: string }).content,
  );
  sandbox.dispose();
  plain.dispose();
  server.close();
  return [
    {
      area: "sandbox",
      metric: `an HTTP request on 127.0.0.1, direct from the host (median of ${REQUESTS})`,
      value: ms(direct),
      target: "",
    },
    {
      area: "sandbox",
      metric: `the same through the allow-list's proxy, from a sandboxed command (median of ${REQUESTS})`,
      value: ms(proxied),
      target: "",
    },
    {
      area: "sandbox",
      metric: "what the network proxy adds to a request",
      value: ms(proxied - direct),
      target: "≤ 5 ms",
      ok: proxied - direct <= 5,
    },
    {
      area: "sandbox",
      metric: "starting the allow-list (proxy + bridge), once per session",
      value: ms(first - later),
      target: "",
    },
    {
      area: "sandbox",
      metric: `what the allow-list adds to a bash call after that (median of ${CALLS})`,
      value: ms(later - ordinary),
      target: "≤ 10 ms",
      ok: later - ordinary <= 10,
    },
  ];
}

/** The median of the seconds curl printed, one per line, in ms. */
function medianOf(output: string): number {
  const text = typeof output === "string" ? output : String(output);
  const values = text
    .split("\n")
    .map((line) => Number.parseFloat(line))
    .filter((value) => Number.isFinite(value))
    .sort((a, b) => a - b);
  return (values[Math.floor(values.length / 2)] ?? Number.NaN) * 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}
