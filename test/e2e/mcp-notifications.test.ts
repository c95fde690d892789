// What servers send on their own and ask of hx, through the real `hx` binary with hx's fixture
// server (--client-tools): list_changed re-lists tools (schemas sent: the tools array grows;
// deferred: an appended <mcp-update> message, the tools array and system prompt unchanged).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_SERVER, nodeServer, writeMcpConfig } from "../support/mcp.js";
import { BYPASS } from "../support/wire.js";
import { messagesOf, toolNamesOf, toolResultsOf, useHarness, writeSettings } from "./harness-support.js";

const h = useHarness();

function fixture(extra: string[] = []): string[] {
  return [
    "--mcp-config",
    writeMcpConfig(path.join(h.work, "mcp.json"), {
      fx: nodeServer(FIXTURE_SERVER, ["--client-tools", ...extra]),
    }),
  ];
}

describe("notifications/tools/list_changed", () => {
  it("offers a tool the server adds during the session (schemas sent)", async () => {
    h.server.reply().tool("mcp__fx__add-tool", { name: "fresh" });
    h.server.reply().tool("mcp__fx__fresh", {});
    h.server.reply().text("done");
    const run = await h.agent("x", [...fixture(), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    const [first, second, third] = h.server.requests;
    expect(toolNamesOf(first)).not.toContain("mcp__fx__fresh");
    expect(toolNamesOf(second)).toContain("mcp__fx__fresh");
    expect(toolResultsOf(third).at(-1)).toBe("fresh ran");
  });

  it("announces it in an appended message when tools are deferred, keeping the cached prefix", async () => {
    writeSettings(h.work, { mcp: { deferTools: "always" } });
    h.server.reply().tool("call_mcp_tool", { name: "mcp__fx__add-tool", arguments: { name: "fresh" } });
    h.server.reply().tool("call_mcp_tool", { name: "mcp__fx__fresh", arguments: {} });
    h.server.reply().text("done");
    const run = await h.agent("x", [...fixture(), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    const [first, second, third] = h.server.requests;
    expect(second.body.tools).toEqual(first.body.tools);
    expect(messagesOf(second)[0]).toEqual(messagesOf(first)[0]); // the system prompt
    const update = messagesOf(second).at(-1);
    expect(update.role).toBe("user");
    expect(update.content).toContain("<mcp-update>");
    expect(update.content).toContain("MCP server fx changed its tools.");
    expect(update.content).toContain("mcp__fx__fresh");
    expect(toolResultsOf(third).at(-1)).toBe("fresh ran");
  });
});
