// Two-layer loading of MCP tools through the real `hx`: 200 tools cost their catalog lines
// until the model loads the few it needs; servers that are late join without holding back
// the first request.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_SERVER, loggedMessages, nodeServer, writeMcpConfig } from "../support/mcp.js";
import { tempDir } from "../support/temp-dir.js";
import { BYPASS } from "../support/wire.js";
import { messagesOf, toolNamesOf, toolResultsOf, useHarness, writeSettings } from "./harness-support.js";

const h = useHarness();

/** These tests read the first request's tools: the server must be up by then, even on a busy machine. */
const WAIT_FOR_SERVERS = { startupWait: 30_000 };

describe("200 MCP tools", () => {
  it("are listed in a catalog; the model loads schemas and calls through call_mcp_tool", async () => {
    writeSettings(h.work, { mcp: WAIT_FOR_SERVERS });
    const log = path.join(h.work, "log.jsonl");
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      big: nodeServer(FIXTURE_SERVER, ["--tools", "200", "--log", log]),
    });
    h.server.reply().tool("load_mcp_tools", { names: ["mcp__big__t042"] });
    h.server.reply().tool("call_mcp_tool", { name: "mcp__big__t042", arguments: { id: "r-42" } });
    h.server.reply().tool("call_mcp_tool", { name: "mcp__big__t007", arguments: { id: "never loaded" } });
    h.server.reply().text("done");
    const run = await h.agent("look up record 42", ["--mcp-config", config, ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);

    const requests = h.server.requests;
    const names = toolNamesOf(requests[0]);
    expect(names).toContain("load_mcp_tools");
    expect(names).toContain("call_mcp_tool");
    expect(names.filter((n) => n.startsWith("mcp__"))).toEqual([]);
    const system = messagesOf(requests[0])[0].content as string;
    expect(system).toContain("# MCP tools");
    expect(system).toContain("- mcp__big__t001: Generated tool number 001.");
    expect(system).toContain("- mcp__big__t200: Generated tool number 200.");
    expect(system).not.toContain('"limit"');

    const [loaded] = toolResultsOf(requests[1]);
    expect(loaded).toContain('<mcp-tool name="mcp__big__t042">');
    expect(loaded).toContain('"required":["id"]');
    expect(toolResultsOf(requests[2])[1]).toBe('t042 got {"id":"r-42"}');
    expect(toolResultsOf(requests[3])[2]).toBe('t007 got {"id":"never loaded"}');

    // The tools array and the system prompt are the same bytes in every request.
    for (const request of requests) {
      expect(JSON.stringify(request.body.tools)).toBe(JSON.stringify(requests[0].body.tools));
      expect(messagesOf(request)[0].content).toBe(system);
    }
    const calls = loggedMessages(log).filter((m) => m.method === "tools/call");
    expect(calls.map((m) => m.params)).toEqual([
      { name: "t042", arguments: { id: "r-42" }, _meta: expect.anything() },
      { name: "t007", arguments: { id: "never loaded" }, _meta: expect.anything() },
    ]);
    // The trace names the tool that ran (permission rules do too, see the next test).
    expect(run.stderr).toContain("> mcp__big__t042 id=r-42");
  });

  it("routed calls are permitted by the MCP tool's own name", async () => {
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      big: nodeServer(FIXTURE_SERVER, ["--tools", "200"]),
    });
    writeSettings(h.work, { permissions: { allow: ["mcp__big__t042"] }, mcp: WAIT_FOR_SERVERS });
    h.server.reply().tool("call_mcp_tool", { name: "mcp__big__t042", arguments: { id: "ok" } });
    h.server.reply().tool("call_mcp_tool", { name: "mcp__big__t043", arguments: { id: "no" } });
    h.server.reply().text("done");
    const run = await h.agent("x", ["--mcp-config", config]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])[0]).toBe('t042 got {"id":"ok"}');
    expect(toolResultsOf(h.server.requests[2])[1]).toContain(
      "Permission denied: mcp__big__t043 runs a command",
    );
  });

  it("with loadedTools: tools, loaded tools join the tools array", async () => {
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      big: nodeServer(FIXTURE_SERVER, ["--tools", "200"]),
    });
    writeSettings(h.work, { mcp: { loadedTools: "tools", ...WAIT_FOR_SERVERS } });
    h.server.reply().tool("load_mcp_tools", { names: ["mcp__big__t042"] });
    h.server.reply().tool("mcp__big__t042", { id: "direct" });
    h.server.reply().text("done");
    const run = await h.agent("x", ["--mcp-config", config, ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolNamesOf(h.server.requests[0])).not.toContain("call_mcp_tool");
    expect(toolNamesOf(h.server.requests[0])).not.toContain("mcp__big__t042");
    expect(toolNamesOf(h.server.requests[1]).at(-1)).toBe("mcp__big__t042");
    expect(toolResultsOf(h.server.requests[2])[1]).toBe('t042 got {"id":"direct"}');
  });

  it("a few tools under the budget are sent as tools", async () => {
    writeSettings(h.work, { mcp: WAIT_FOR_SERVERS });
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), { small: nodeServer(FIXTURE_SERVER) });
    h.server.reply().text("done");
    const run = await h.agent("x", ["--mcp-config", config]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolNamesOf(h.server.requests[0])).toEqual(
      expect.arrayContaining(["mcp__small__echo", "mcp__small__slow"]),
    );
    expect(toolNamesOf(h.server.requests[0])).not.toContain("load_mcp_tools");
  });
});

describe("a server that is still starting", () => {
  it("does not hold the first request back; its tools join through the catalog when it is ready", async () => {
    const log = path.join(h.work, "log.jsonl");
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      late: nodeServer(FIXTURE_SERVER, ["--slow-start", "1500", "--log", log]),
    });
    writeSettings(h.work, { mcp: { startupWait: 100 } });
    // Until the server's tools are announced, the model waits a little with a harmless command.
    h.server.replyWith((request, reply) => {
      const announced = messagesOf(request).some(
        (m) => m.role === "user" && String(m.content).includes("- mcp__late__echo: Echoes the text back."),
      );
      if (toolResultsOf(request).some((r) => r.startsWith("echo: "))) reply.text("done");
      else if (announced)
        reply.tool("call_mcp_tool", { name: "mcp__late__echo", arguments: { text: "finally" } });
      else reply.tool("bash", { command: "sleep 0.3" });
    });
    const run = await h.agent("x", ["--mcp-config", config, ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    const requests = h.server.requests;
    expect(toolNamesOf(requests[0])).toEqual(expect.arrayContaining(["load_mcp_tools", "call_mcp_tool"]));
    expect(toolNamesOf(requests[0]).filter((n) => n.startsWith("mcp__"))).toEqual([]);
    for (const request of requests) expect(request.body.tools).toEqual(requests[0].body.tools);
    const note = messagesOf(requests.at(-1)!).find((m) => String(m.content).startsWith("<mcp-update>"));
    expect(note.content).toContain("MCP server late finished starting.");
    expect(toolResultsOf(requests.at(-1)!).at(-1)).toBe("echo: finally");
    expect(loggedMessages(log).some((m) => m.method === "tools/call" && m.params.name === "echo")).toBe(true);
  });
});

describe("a task that needs a server still starting", () => {
  it("finds the server named in the system prompt; loading mcp__<server>__* waits for it", async () => {
    const log = path.join(h.work, "log.jsonl");
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      late: nodeServer(FIXTURE_SERVER, ["--slow-start", "1500", "--log", log]),
    });
    h.server.reply().tool("load_mcp_tools", { names: ["mcp__late__*"] });
    h.server.reply().tool("call_mcp_tool", { name: "mcp__late__echo", arguments: { text: "first turn" } });
    h.server.reply().text("done");
    const started = performance.now();
    // The default mcp.startupWait: the first request does not wait for a server this slow.
    const run = await h.agent("echo with the late server", ["--mcp-config", config, ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    const requests = h.server.requests;
    expect(requests[0].receivedAt - started).toBeLessThan(1500);
    const system = messagesOf(requests[0])[0].content as string;
    expect(system).toContain("# MCP servers still starting\nlate: their tools are announced");
    expect(toolNamesOf(requests[0]).filter((n) => n.startsWith("mcp__"))).toEqual([]);
    // The load waited for the server and returned all of its tools' schemas.
    const loaded = toolResultsOf(requests[1]).at(-1) ?? "";
    expect(loaded).toMatch(/^Loaded \d+ MCP tools\./);
    expect(loaded).toContain('<mcp-tool name="mcp__late__echo">');
    expect(toolResultsOf(requests[2]).at(-1)).toBe("echo: first turn");
    expect(loggedMessages(log).some((m) => m.method === "tools/call" && m.params.name === "echo")).toBe(true);
  });

  it("runs a tool of a server still starting that is called by name, once the server is ready", async () => {
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      late: nodeServer(FIXTURE_SERVER, ["--slow-start", "1000"]),
    });
    h.server.reply().tool("mcp__late__echo", { text: "called early" });
    h.server.reply().tool("mcp__late__nope", {});
    h.server.reply().text("done");
    const run = await h.agent("echo", ["--mcp-config", config, ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolNamesOf(h.server.requests[0]).filter((n) => n.startsWith("mcp__"))).toEqual([]);
    expect(toolResultsOf(h.server.requests[1]).at(-1)).toBe("echo: called early");
    // A name the server does not have is still an unknown tool.
    expect(toolResultsOf(h.server.requests[2]).at(-1)).toMatch(/^Error: Unknown tool 'mcp__late__nope'/);
  });

  it("a call by name that waits for a server still starting ends with the run when it is cancelled", async () => {
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      late: nodeServer(FIXTURE_SERVER, ["--slow-start", "20000"]),
    });
    h.server.reply().tool("mcp__late__echo", { text: "called early" });
    h.server.reply().text("never asked");
    const { child, done } = h.start("echo", ["--mcp-config", config, ...BYPASS]);
    await expect.poll(() => h.server.requests.length, { timeout: 10_000 }).toBe(1);
    // The call now waits for the server; give it a moment to be waiting, then Ctrl-C.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancelled = performance.now();
    child.kill("SIGINT");
    expect(await done).toBe(130);
    // Not the server's 20 s start, nor the 30 s start-up limit.
    expect(performance.now() - cancelled).toBeLessThan(5000);
    expect(h.server.requests).toHaveLength(1);
  });

  it("does not hold the first request for a server that took longer than startupWait last time", async () => {
    writeSettings(h.work, { mcp: { startupWait: 1000 } });
    const home = tempDir("hx-home-");
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      late: nodeServer(FIXTURE_SERVER, ["--slow-start", "2500"]),
    });
    const firstRequestAfter = async () => {
      h.server.reply().text("done");
      const before = h.server.requests.length;
      const started = performance.now();
      const run = await h.agent("hi", ["--mcp-config", config, ...BYPASS], { env: { HOME: home } });
      expect(run.code, run.stderr).toBe(0);
      return h.server.requests[before].receivedAt - started;
    };
    // First run: nothing known, the request waits the whole second for the server.
    expect(await firstRequestAfter()).toBeGreaterThanOrEqual(1000);
    const times = JSON.parse(readFileSync(path.join(home, ".hx", "cache", "mcp-start-times.json"), "utf8"));
    expect(Object.values(times)).toEqual([expect.any(Number)]);
    expect(Object.values(times)[0]).toBeGreaterThanOrEqual(1000);
    // Next run: it is known not to make it, so the request goes at once; it stays announced as starting.
    expect(await firstRequestAfter()).toBeLessThan(800);
    expect(messagesOf(h.server.requests.at(-1)!)[0].content).toContain("# MCP servers still starting\nlate:");
  });

  it("says why when the server it waits for fails to start", async () => {
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      // Answers nothing and exits after 0.6 s: still starting when the first request goes out.
      broken: { command: "sh", args: ["-c", "sleep 0.6; exit 3"] },
    });
    h.server.reply().tool("load_mcp_tools", { names: ["mcp__broken__*"] });
    h.server.reply().text("done");
    const run = await h.agent("use the broken server", ["--mcp-config", config, ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1]).at(-1)).toMatch(
      /^Error: MCP server 'broken' is not running \(/,
    );
  });
});
