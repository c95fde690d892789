// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are what these tests are about.
// MCP tools through the real `hx` binary: real servers from npm (server-everything over stdio
// and Streamable HTTP, server-memory) and hx's fixture server, driven by the fake model
// server. Each test asserts what the model was sent and what the server received.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { processesMatching } from "../sandbox/sandbox-support.js";
import {
  EVERYTHING,
  FIXTURE_SERVER,
  loggedMessages,
  MEMORY,
  nodeServer,
  useEverythingHttp,
  writeMcpConfig,
} from "../support/mcp.js";
import { runHx } from "../support/run-hx.js";
import { BYPASS } from "../support/wire.js";
import { messagesOf, toolNamesOf, toolResultsOf, useHarness, writeSettings } from "./harness-support.js";

const h = useHarness();
const startHttp = useEverythingHttp();

/** `--mcp-config <work>/mcp.json` holding these servers (the user's own: no approval). */
function mcpConfig(servers: Record<string, unknown>): string[] {
  return ["--mcp-config", writeMcpConfig(path.join(h.work, "mcp.json"), servers)];
}

// biome-ignore lint/suspicious/noExplicitAny: wire JSON.
const toolSchema = (request: { body: any }, name: string) =>
  // biome-ignore lint/suspicious/noExplicitAny: wire JSON.
  request.body.tools.find((t: any) => t.function.name === name)?.function;

describe("MCP tools from server-everything (stdio)", () => {
  it("offers the server's tools with its schemas and returns the results to the model", async () => {
    // Waits for the server: its schemas are in the first request (by default it may join later).
    writeSettings(h.work, { mcp: { startupWait: 30_000 } });
    h.server.reply().tool("mcp__everything__echo", { message: "hello" });
    h.server.reply().tool("mcp__everything__get-structured-content", { location: "New York" });
    h.server.reply().tool("mcp__everything__get-sum", { a: "one", b: 2 });
    h.server.reply().text("done");
    const run = await h.agent("use the server", [
      ...mcpConfig({ everything: nodeServer(EVERYTHING, ["stdio"]) }),
      ...BYPASS,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [first, , , last] = h.server.requests;
    expect(toolSchema(first, "mcp__everything__echo")).toEqual({
      name: "mcp__everything__echo",
      description: "Echoes back the input string",
      parameters: {
        type: "object",
        properties: { message: { type: "string", description: "Message to echo" } },
        required: ["message"],
      },
    });
    const results = toolResultsOf(last);
    expect(results[0]).toBe("Echo: hello");
    expect(JSON.parse(results[1])).toMatchObject({
      temperature: expect.any(Number),
      conditions: expect.any(String),
    });
    expect(results[2]).toMatch(/^Error: .*expected number/);
    expect(run.stderr).toContain("> mcp__everything__echo message=hello");
  });

  it("shows images as notes, lists resource links and finishes long-running calls", async () => {
    h.server.reply().tool("mcp__everything__get-tiny-image", {});
    h.server.reply().tool("mcp__everything__get-resource-links", { count: 2 });
    h.server.reply().tool("mcp__everything__trigger-long-running-operation", { duration: 1, steps: 2 });
    h.server.reply().text("done");
    const run = await h.agent("x", [
      ...mcpConfig({ everything: nodeServer(EVERYTHING, ["stdio"]) }),
      ...BYPASS,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [image, links, long] = toolResultsOf(h.server.requests[3]);
    // The fake server is a custom OpenAI-compatible endpoint: not known to take images, so the note only.
    expect(image).toMatch(/\[image: image\/png, [\d.]+ (B|KB); attached for models that take images\]/);
    expect(JSON.stringify(h.server.requests[3].body.messages)).not.toContain("image_url");
    expect(links).toMatch(
      /\[resource link: .+ <demo:\/\/resource\/[^>]+>, text\/plain: .+; read it with read_mcp_resource\]/,
    );
    expect(long).toContain("Long running operation completed");
  });
});

describe("MCP over Streamable HTTP and a second reference server", () => {
  it("calls server-everything over Streamable HTTP on 127.0.0.1", async () => {
    const server = await startHttp("streamableHttp");
    h.server.reply().tool("mcp__web__echo", { message: "via http" });
    h.server.reply().text("done");
    const run = await h.agent("x", [...mcpConfig({ web: { type: "http", url: server.url } }), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])).toEqual(["Echo: via http"]);
  });

  it("keeps state across calls in server-memory", async () => {
    const file = path.join(h.work, "memory.jsonl");
    h.server.reply().tool("mcp__memory__create_entities", {
      entities: [{ name: "hx", entityType: "project", observations: ["written in TypeScript"] }],
    });
    h.server.reply().tool("mcp__memory__read_graph", {});
    h.server.reply().text("done");
    const run = await h.agent("x", [
      ...mcpConfig({ memory: nodeServer(MEMORY, [], { MEMORY_FILE_PATH: file }) }),
      ...BYPASS,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[2])[1]).toContain("written in TypeScript");
    expect(readFileSync(file, "utf8")).toContain('"name":"hx"');
  });
});

describe("MCP tools, permissions and hooks", () => {
  const fixture = (log: string, extra: string[] = []) => ({
    fx: nodeServer(FIXTURE_SERVER, ["--log", log, ...extra]),
  });

  it("asks for MCP tools like commands: refused headless with the rule that allows it", async () => {
    const log = path.join(h.work, "log.jsonl");
    h.server.reply().tool("mcp__fx__echo", { text: "hi" });
    h.server.reply().text("done");
    const run = await h.agent("x", mcpConfig(fixture(log)));
    expect(run.code, run.stderr).toBe(0);
    const [result] = toolResultsOf(h.server.requests[1]);
    expect(result).toContain("Permission denied");
    expect(result).toContain('"mcp__fx__echo" or "mcp__fx"');
    expect(loggedMessages(log).some((m) => m.method === "tools/call")).toBe(false);
  });

  it("runs what a server-wide allow rule covers, and tells the server the arguments", async () => {
    const log = path.join(h.work, "log.jsonl");
    writeSettings(h.work, { permissions: { allow: ["mcp__fx"] } });
    h.server.reply().tool("mcp__fx__echo", { text: "allowed" });
    h.server.reply().text("done");
    const run = await h.agent("x", mcpConfig(fixture(log)));
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])).toEqual(["echo: allowed"]);
    const call = loggedMessages(log).find((m) => m.method === "tools/call");
    expect(call.params).toMatchObject({ name: "echo", arguments: { text: "allowed" } });
  });

  it("plan mode refuses MCP tools unless the server marks them read-only", async () => {
    const log = path.join(h.work, "log.jsonl");
    h.server.reply().tool("mcp__fx__echo", { text: "read" }).tool("mcp__fx__fail", {});
    h.server.reply().text("done");
    const run = await h.agent("x", [
      ...mcpConfig(fixture(log, ["--read-only-echo"])),
      "--permission-mode",
      "plan",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [echo, fail] = toolResultsOf(h.server.requests[1]);
    expect(echo).toBe("echo: read");
    expect(fail).toContain("plan mode is read-only");
  });

  it("PreToolUse and PostToolUse hooks match MCP tool names", async () => {
    const log = path.join(h.work, "log.jsonl");
    const seen = path.join(h.work, "post.json");
    writeSettings(h.work, {
      hooks: {
        PreToolUse: [
          {
            matcher: "mcp__fx__fail",
            hooks: [{ type: "command", command: "echo 'no failing today' >&2; exit 2" }],
          },
        ],
        PostToolUse: [{ matcher: "mcp__fx__.*", hooks: [{ type: "command", command: `cat > ${seen}` }] }],
      },
    });
    h.server.reply().tool("mcp__fx__fail", {}).tool("mcp__fx__echo", { text: "hooked" });
    h.server.reply().text("done");
    const run = await h.agent("x", [...mcpConfig(fixture(log)), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])).toEqual(["no failing today", "echo: hooked"]);
    expect(JSON.parse(readFileSync(seen, "utf8"))).toMatchObject({
      tool_name: "mcp__fx__echo",
      tool_input: { text: "hooked" },
      tool_output: "echo: hooked",
    });
    expect(
      loggedMessages(log)
        .filter((m) => m.method === "tools/call")
        .map((m) => m.params.name),
    ).toEqual(["echo"]);
  });
});

describe("MCP failures", () => {
  it("sends isError results as errors (Anthropic is_error)", async () => {
    h.server.reply().tool("mcp__fx__fail", {});
    h.server.reply().text("done");
    const args = ["agent", "x", ...mcpConfig({ fx: nodeServer(FIXTURE_SERVER) }), ...BYPASS];
    const run = await runHx([...args, "--provider", "anthropic", "--base-url", h.server.url, "-C", h.work], {
      env: { ANTHROPIC_API_KEY: "sk-ant-test" },
    });
    expect(run.code, run.stderr).toBe(0);
    // biome-ignore lint/suspicious/noExplicitAny: wire JSON.
    const blocks = h.server.requests[1].body.messages.flatMap((m: any) =>
      Array.isArray(m.content) ? m.content : [],
    );
    // biome-ignore lint/suspicious/noExplicitAny: wire JSON.
    const result = blocks.find((b: any) => b.type === "tool_result");
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain("the fixture failed on purpose");
  });

  it("restarts a server that died once and reports the lost call to the model", async () => {
    h.server.reply().tool("mcp__fx__crash", {});
    h.server.reply().tool("mcp__fx__echo", { text: "after restart" });
    h.server.reply().text("done");
    const run = await h.agent("x", [...mcpConfig({ fx: nodeServer(FIXTURE_SERVER) }), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])[0]).toContain(
      "MCP server 'fx' stopped during the call of crash; it is being restarted",
    );
    expect(toolResultsOf(h.server.requests[2])[1]).toBe("echo: after restart");
    expect(run.stderr).toContain("MCP server 'fx' exited and was restarted.");
  });

  it("times out a hanging call, leaves out malformed schemas, and leaves no process behind", async () => {
    const log = path.join(h.work, "log.jsonl");
    h.server.reply().tool("mcp__fx__hang", {});
    h.server.reply().text("done");
    const run = await h.agent("x", [
      ...mcpConfig({
        fx: { ...nodeServer(FIXTURE_SERVER, ["--log", log, "--malformed", "--stubborn"]), timeout: 500 },
      }),
      ...BYPASS,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])[0]).toContain("did not answer the call of hang within 1 s");
    expect(run.stderr).toMatch(
      /MCP server 'fx': 2 tool\(s\) left out \(broken: its input schema is malformed/,
    );
    const names = toolNamesOf(h.server.requests[0]);
    expect(names).toContain("mcp__fx__echo");
    expect(names).not.toContain("mcp__fx__broken");
    expect(loggedMessages(log).some((m) => m.method === "notifications/cancelled")).toBe(true);
    // The server ignores stdin closing and SIGTERM; hx must not leave it (or its sandbox) running.
    // Its own pid is of the sandbox's PID namespace: look for its command line instead.
    await expect.poll(() => processesMatching(log)).toEqual([]);
  });

  it("goes on without a server that cannot start, saying why", async () => {
    h.server.reply().text("done");
    const run = await h.agent("x", mcpConfig({ fx: nodeServer(FIXTURE_SERVER, ["--exit-on-start"]) }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /MCP server 'fx' \(.+fixture-server\.mjs --exit-on-start\) failed to start: .*refusing to start/,
    );
    expect(toolNamesOf(h.server.requests[0]).some((n) => n.startsWith("mcp__"))).toBe(false);
  });

  it("does not start a server whose ${VAR} is not set", async () => {
    h.server.reply().text("done");
    const run = await h.agent("x", mcpConfig({ fx: nodeServer(FIXTURE_SERVER, ["${HX_TEST_UNSET_VAR}"]) }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "MCP server 'fx' was not started: missing environment variable HX_TEST_UNSET_VAR",
    );
    expect(messagesOf(h.server.requests[0])[0].content).not.toContain("MCP tools");
  });
});
