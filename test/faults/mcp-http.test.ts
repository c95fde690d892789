// A remote (Streamable HTTP) MCP server that goes away, through the real `hx` binary and the
// HTTP fixture (test/fixtures/mcp/http-server.mjs): killed mid-call, the call fails within
// seconds, not at its 300 s timeout (the run's 20 s limit would cut a call that waited), and
// says the server stopped during it; gone between calls, the next call is told it was not made.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolResultsOf, useHarness } from "../e2e/harness-support.js";
import { useHttpFixture, writeMcpConfig } from "../support/mcp.js";
import { BYPASS } from "../support/wire.js";

const h = useHarness();
const startServer = useHttpFixture();

async function web(args: string[] = []): Promise<string[]> {
  const server = await startServer(args);
  return [
    "--mcp-config",
    writeMcpConfig(path.join(h.work, "mcp.json"), { web: { type: "http", url: server.url } }),
  ];
}

describe("an HTTP MCP server that goes away", () => {
  for (const mode of ["an SSE response stream", "a JSON response"]) {
    it(`fails the call in flight at once when the server dies mid-call (${mode})`, async () => {
      const config = await web(mode.includes("SSE") ? ["--sse"] : []);
      h.server.reply().tool("mcp__web__die", {});
      h.server.reply().text("done");
      const run = await h.agent("x", [...config, ...BYPASS]);
      expect(run.code, run.stderr).toBe(0);
      expect(toolResultsOf(h.server.requests[1])[0]).toMatch(
        /^Error: MCP server 'web' stopped during the call of die.*The call may or may not have taken effect/,
      );
    });
  }

  it("tells the next call it was not made when the server is gone, instead of blaming it", async () => {
    const config = await web(["--sse"]);
    h.server.reply().tool("mcp__web__quit", {});
    h.server.reply().tool("mcp__web__echo", { text: "anyone?" });
    h.server.reply().text("done");
    const run = await h.agent("x", [...config, ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    const [quit, echo] = toolResultsOf(h.server.requests[2]);
    expect(quit).toBe("bye");
    expect(echo).not.toContain("stopped during");
    expect(echo).toMatch(
      /MCP server 'web' (could not be reached .*the call of echo was not made|is not running)/,
    );
  });

  it("keeps a server whose stream fails but which answers (even a ping it does not know)", async () => {
    const config = await web(["--sse", "--no-ping", "--get-500"]);
    h.server.reply().tool("mcp__web__echo", { text: "one" });
    h.server.reply().tool("mcp__web__echo", { text: "two" });
    h.server.reply().text("done");
    const run = await h.agent("x", [...config, ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[2])).toEqual(["echo: one", "echo: two"]);
    expect(run.stderr).not.toContain("restarted");
  });
});
