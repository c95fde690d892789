// The MCP SDK is loaded only when a server is configured.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_SERVER, nodeServer, writeMcpConfig } from "../support/mcp.js";
import { REPO_ROOT, runHx } from "../support/run-hx.js";
import { useHarness } from "./harness-support.js";

const h = useHarness();
const PRELOAD = path.join(REPO_ROOT, "test/fixtures/import-trace.mjs");
const SDK_CHUNK = /\/chunks\/(client|stdio|sse|streamableHttp)-[A-Z0-9]+\.js$/;

function traced(file: string) {
  return { NODE_OPTIONS: `--import=${PRELOAD}`, HX_TRACE_IMPORTS: file };
}

const loaded = (file: string) =>
  existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];

describe("loading the MCP SDK", () => {
  it("hx --version and a run without servers do not load it; a run with a server does", async () => {
    const version = path.join(h.work, "version.txt");
    expect((await runHx(["--version"], { env: traced(version) })).code).toBe(0);
    expect(loaded(version).filter((url) => SDK_CHUNK.test(url))).toEqual([]);

    const plain = path.join(h.work, "plain.txt");
    h.server.reply().text("done");
    expect((await h.agent("x", [], { env: traced(plain) })).code).toBe(0);
    expect(loaded(plain).some((url) => url.includes("/chunks/agent-command-"))).toBe(true);
    expect(loaded(plain).filter((url) => SDK_CHUNK.test(url))).toEqual([]);

    const withServer = path.join(h.work, "with-server.txt");
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), { fx: nodeServer(FIXTURE_SERVER) });
    h.server.reply().text("done");
    expect((await h.agent("x", ["--mcp-config", config], { env: traced(withServer) })).code).toBe(0);
    expect(loaded(withServer).filter((url) => SDK_CHUNK.test(url)).length).toBeGreaterThan(0);
  });
});
