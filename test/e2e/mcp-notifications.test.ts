// What servers send on their own and ask of hx, through the real `hx` binary with hx's fixture
// server (--client-tools): list_changed re-lists tools (schemas sent: the tools array grows;
// deferred: an appended <mcp-update> message, the tools array and system prompt unchanged);
// elicitation, roots and sampling requests as a headless run answers them.
import path from "node:path";
import { pathToFileURL } from "node:url";
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

describe("what servers ask hx (headless)", () => {
  it("declines a form and a URL, saying what was asked", async () => {
    h.server.reply().tool("mcp__fx__ask", { message: "Which account?" });
    h.server.reply().tool("mcp__fx__ask-url", { url: "https://example.com/connect" });
    h.server.reply().text("done");
    const run = await h.agent("x", [...fixture(), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    const [form, url] = toolResultsOf(h.server.requests[2]);
    expect(JSON.parse(form)).toEqual({ action: "decline" });
    expect(JSON.parse(url)).toEqual({ action: "decline" });
    expect(run.stderr).toContain(
      "MCP server 'fx' asked: Which account?; declined: no one to ask in a headless run.",
    );
    expect(run.stderr).toContain("asked you to open https://example.com/connect");
  });

  it("answers a form with its defaults only when every required field has one (mcp.elicitation: defaults)", async () => {
    writeSettings(h.work, { mcp: { elicitation: "defaults" } });
    h.server.reply().tool("mcp__fx__ask", {});
    h.server.reply().text("done");
    await h.agent("x", [...fixture(), ...BYPASS]);
    // The fixture's form requires "name", which has no default.
    expect(JSON.parse(toolResultsOf(h.server.requests[1])[0])).toEqual({ action: "decline" });
  });

  it("lists the workspace as the root", async () => {
    h.server.reply().tool("mcp__fx__roots", {});
    h.server.reply().text("done");
    const run = await h.agent("x", [...fixture(), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(toolResultsOf(h.server.requests[1])[0])).toEqual({
      roots: [{ uri: pathToFileURL(h.work).href, name: path.basename(h.work) }],
    });
  });

  it("refuses sampling headless, and runs it through the session's model when mcp.sampling allows", async () => {
    h.server.reply().tool("mcp__fx__sample", { prompt: "Name a colour" });
    h.server.reply().text("done");
    const refused = await h.agent("x", [...fixture(), ...BYPASS]);
    expect(refused.code, refused.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])[0]).toContain("the user did not approve sampling");
    expect(refused.stderr).toContain("asked hx's model to answer a prompt; refused");
    expect(h.server.requests).toHaveLength(2); // the model was not asked

    writeSettings(h.work, { mcp: { sampling: "allow" } });
    h.server.reply().tool("mcp__fx__sample", { prompt: "Name a colour" });
    h.server.reply().text("teal");
    h.server.reply().text("done");
    const allowed = await h.agent("x", [...fixture(), ...BYPASS]);
    expect(allowed.code, allowed.stderr).toBe(0);
    const sampling = h.server.requests[3];
    expect(messagesOf(sampling).at(-1)).toMatchObject({ role: "user", content: "Name a colour" });
    expect(JSON.parse(toolResultsOf(h.server.requests[4])[0])).toMatchObject({
      role: "assistant",
      content: { type: "text", text: "teal" },
    });
  });
});
