// Tool results through the real `hx` binary with hx's fixture server (--client-tools):
// structuredContent checked against the tool's outputSchema, sent once when the text already
// holds it; a result over the message cap fails at once; task-only tools are left out.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_SERVER, nodeServer, writeMcpConfig } from "../support/mcp.js";
import { runHx } from "../support/run-hx.js";
import { BYPASS } from "../support/wire.js";
import { toolNamesOf, toolResultsOf, useHarness, writeSettings } from "./harness-support.js";

const h = useHarness();

function fixture(): string[] {
  return [
    "--mcp-config",
    writeMcpConfig(path.join(h.work, "mcp.json"), { fx: nodeServer(FIXTURE_SERVER, ["--client-tools"]) }),
  ];
}

describe("MCP tool results", () => {
  it("checks structuredContent against the outputSchema and tells the model when it does not match", async () => {
    h.server.reply().tool("mcp__fx__weather", {});
    h.server.reply().tool("mcp__fx__weather", { bad: true });
    h.server.reply().text("done");
    const run = await h.agent("x", [...fixture(), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    const [good, bad] = toolResultsOf(h.server.requests[2]);
    expect(good).toContain("Sunny.");
    expect(good).toContain('"temperature": 21');
    expect(bad).toMatch(
      /^Error: MCP server 'fx' returned a result for weather that does not match the tool's outputSchema \(temperature: .*number.*; conditions: /,
    );
  });

  it("leaves out a tool that can only run as a task, with a warning", async () => {
    // The first request's tools are read: the server must be up by then, even on a busy machine.
    writeSettings(h.work, { mcp: { startupWait: 30_000 } });
    h.server.reply().text("done");
    const run = await h.agent("x", [...fixture(), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolNamesOf(h.server.requests[0])).not.toContain("mcp__fx__task-only");
    expect(toolNamesOf(h.server.requests[0])).toContain("mcp__fx__weather");
    expect(run.stderr).toContain(
      "task-only: it can only run as a task (execution.taskSupport: required), which hx does not support yet",
    );
  });

  it("sends structured content once when a text block already holds it", async () => {
    h.server.reply().tool("mcp__fx__weather-text", {});
    h.server.reply().text("done");
    const run = await h.agent("x", [...fixture(), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])).toEqual(['{"temperature":21}']);
  });

  it("fails a 12 MB result at once with the cap it broke, and takes it under a raised mcp.maxMessageBytes", async () => {
    h.server.reply().tool("mcp__fx__big", { mb: 12 });
    h.server.reply().tool("mcp__fx__echo", { text: "still here" });
    h.server.reply().text("done");
    // A call that waited for its timeout (300 s) would outlive the run's 20 s limit.
    const run = await h.agent("x", [...fixture(), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    const results = toolResultsOf(h.server.requests[2]);
    expect(results[0]).toBe(
      "Error: MCP server 'fx' answered the call of big with 12.0 MB, more than hx's limit of 10.0 MB for one message (mcp.maxMessageBytes); the answer was dropped. Ask for less (a smaller page, a filter), or tell the user to raise mcp.maxMessageBytes.",
    );
    expect(results[1]).toBe("echo: still here"); // the lines after it are read as before

    writeSettings(h.work, { mcp: { maxMessageBytes: 20 * 1024 * 1024 } });
    h.server.reply().tool("mcp__fx__big", { mb: 12 });
    h.server.reply().text("done");
    const raised = await h.agent("x", [...fixture(), ...BYPASS]);
    expect(raised.code, raised.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[4])[0]).toMatch(/^x{1000}/);
  });

  it("sends an image to Anthropic's models as an image block in the tool result", async () => {
    h.server.reply().tool("mcp__fx__picture", {});
    h.server.reply().text("a tiny PNG");
    const run = await runHx(
      [
        "agent",
        "x",
        ...fixture(),
        ...BYPASS,
        "--provider",
        "anthropic",
        "--base-url",
        h.server.url,
        "--model",
        "claude-sonnet-4-6",
        "-C",
        h.work,
      ],
      { env: { ANTHROPIC_API_KEY: "sk-ant-test" } },
    );
    expect(run.code, run.stderr).toBe(0);
    // biome-ignore lint/suspicious/noExplicitAny: wire JSON.
    const blocks = h.server.requests[1].body.messages.flatMap((m: any) =>
      Array.isArray(m.content) ? m.content : [],
    );
    // biome-ignore lint/suspicious/noExplicitAny: wire JSON.
    const result = blocks.find((b: any) => b.type === "tool_result");
    expect(result.content).toEqual([
      { type: "text", text: "[image: image/png, 8 B; attached for models that take images]" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
    ]);
  });
});
