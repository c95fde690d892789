// The MCP SDK runs only when a server is configured (which of the bundle's sources ran: V8's
// coverage mapped through the source map, test/support/ran-sources.ts).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_SERVER, nodeServer, writeMcpConfig } from "../support/mcp.js";
import { coverageEnv, ranPackage, ranSources } from "../support/ran-sources.js";
import { runHx } from "../support/run-hx.js";
import { useHarness } from "./harness-support.js";

const h = useHarness();
const SDK = "@modelcontextprotocol/sdk";

describe("loading the MCP SDK", () => {
  it("hx --version and a run without servers do not run it; a run with a server does", async () => {
    // --version answers in the launcher: the bundle is never compiled, so there is no coverage of it.
    const version = await runHx(["--version"], { env: coverageEnv(path.join(h.work, "version")) });
    expect(version.code).toBe(0);
    expect(() => ranSources(path.join(h.work, "version"))).toThrow(/no coverage/);

    const plain = path.join(h.work, "plain");
    h.server.reply().text("done");
    expect((await h.agent("x", [], { env: coverageEnv(plain) })).code).toBe(0);
    const ran = ranSources(plain);
    expect(ran.has("src/cli/agent-command.ts")).toBe(true);
    expect(ranPackage(ran, SDK)).toBe(false);

    const withServer = path.join(h.work, "with-server");
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), { fx: nodeServer(FIXTURE_SERVER) });
    h.server.reply().text("done");
    expect((await h.agent("x", ["--mcp-config", config], { env: coverageEnv(withServer) })).code).toBe(0);
    expect(ranPackage(ranSources(withServer), SDK)).toBe(true);
  });
});
