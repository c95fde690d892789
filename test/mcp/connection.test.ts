import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { McpTransportConfig } from "../../src/mcp/config.js";
import { type ConnectionEvent, McpCallError, McpConnection } from "../../src/mcp/connection.js";
import { toToolOutput } from "../../src/mcp/results.js";
import { ServerProcess } from "../../src/mcp/server-process.js";
import {
  EVERYTHING,
  FIXTURE_SERVER,
  type HttpServer,
  loggedMessages,
  startEverythingHttp,
} from "../support/mcp.js";
import { tempDir } from "../support/temp-dir.js";

const open: McpConnection[] = [];
const servers: HttpServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function connect(config: McpTransportConfig, events: ConnectionEvent[] = []) {
  const connection = new McpConnection("srv", config, {
    cwd: os.tmpdir(),
    clientVersion: "test",
    startupTimeoutMs: 15_000,
    onEvent: (event) => events.push(event),
  });
  open.push(connection);
  return connection;
}

const stdio = (
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): McpTransportConfig => ({
  type: "stdio",
  command: process.execPath,
  args: [script, ...args],
  env,
});
const signal = () => new AbortController().signal;

describe("McpConnection against server-everything (stdio)", () => {
  it("lists tools and prompts and calls a tool", async () => {
    const c = connect(stdio(EVERYTHING, ["stdio"]));
    await c.start();
    expect(c.status).toBe("ready");
    expect(c.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["echo", "get-sum", "get-structured-content"]),
    );
    expect(c.tools.find((t) => t.name === "echo")?.inputSchema).toMatchObject({
      type: "object",
      properties: { message: { type: "string" } },
    });
    expect(c.prompts.map((p) => p.name)).toContain("args-prompt");
    const result = await c.callTool("echo", { message: "hi" }, { signal: signal(), timeoutMs: 10_000 });
    expect(toToolOutput(result)).toEqual({ content: "Echo: hi" });
  });

  it("passes structured content and isError results through", async () => {
    const c = connect(stdio(EVERYTHING, ["stdio"]));
    await c.start();
    const structured = await c.callTool(
      "get-structured-content",
      { location: "Chicago" },
      { signal: signal(), timeoutMs: 10_000 },
    );
    expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    const invalid = toToolOutput(
      await c.callTool("get-sum", { a: "x" }, { signal: signal(), timeoutMs: 10_000 }),
    );
    expect(invalid.isError).toBe(true);
    expect(invalid.content).toMatch(/^Error: .*expected number/);
  });

  it("keeps API keys out of the server's environment", async () => {
    process.env.HX_TEST_SECRET_KEY = "sk-secret";
    try {
      const c = connect(stdio(FIXTURE_SERVER, [], { GIVEN: "1" }));
      await c.start();
      const ask = async (name: string) =>
        toToolOutput(await c.callTool("env", { name }, { signal: signal(), timeoutMs: 5000 })).content;
      expect(await ask("HX_TEST_SECRET_KEY")).toBe("unset");
      expect(await ask("GIVEN")).toBe("set");
      expect(await ask("PATH")).toBe("set");
    } finally {
      delete process.env.HX_TEST_SECRET_KEY;
    }
  });
});

describe("McpConnection over HTTP (server-everything on 127.0.0.1)", () => {
  it("speaks Streamable HTTP", async () => {
    const server = await startEverythingHttp("streamableHttp");
    servers.push(server);
    const c = connect({ type: "http", url: server.url, headers: { "X-Test": "1" } });
    await c.start();
    expect(c.status, c.error).toBe("ready");
    const result = await c.callTool(
      "echo",
      { message: "over http" },
      { signal: signal(), timeoutMs: 10_000 },
    );
    expect(toToolOutput(result).content).toBe("Echo: over http");
  });

  it("falls back to SSE when the URL is an SSE endpoint, and speaks SSE when told to", async () => {
    const server = await startEverythingHttp("sse");
    servers.push(server);
    for (const type of ["http", "sse"] as const) {
      const c = connect({ type, url: server.url, headers: {} });
      await c.start();
      expect(c.status, c.error).toBe("ready");
      const result = await c.callTool("echo", { message: type }, { signal: signal(), timeoutMs: 10_000 });
      expect(toToolOutput(result).content).toBe(`Echo: ${type}`);
    }
  });

  it("reports an unreachable server as failed, with the reason", async () => {
    const c = connect({ type: "http", url: "http://127.0.0.1:9/mcp", headers: {} });
    await c.start();
    expect(c.status).toBe("failed");
    expect(c.error).toBeTruthy();
  });
});

describe("McpConnection with hx's fixture server", () => {
  it("pages through 200 tools and leaves out malformed schemas with a reason", async () => {
    const c = connect(stdio(FIXTURE_SERVER, ["--tools", "200", "--malformed"]));
    await c.start();
    expect(c.tools.filter((t) => /^t\d{3}$/.test(t.name))).toHaveLength(200);
    expect(c.skipped.map((s) => s.tool)).toEqual(["broken", "not-object"]);
    expect(c.skipped[0].reason).toContain("properties");
  });

  it("times a hanging call out and tells the server it was cancelled", async () => {
    const log = path.join(tempDir("hx-mcp-"), "log.jsonl");
    const c = connect(stdio(FIXTURE_SERVER, ["--log", log]));
    await c.start();
    const error = await c.callTool("hang", {}, { signal: signal(), timeoutMs: 300 }).catch((e) => e);
    expect(error).toBeInstanceOf(McpCallError);
    expect(error.message).toContain("did not answer");
    const call = loggedMessages(log).find((m) => m.method === "tools/call");
    await expect
      .poll(() =>
        loggedMessages(log).some(
          (m) => m.method === "notifications/cancelled" && m.params.requestId === call.id,
        ),
      )
      .toBe(true);
  });

  it("cancels a call when the run is cancelled", async () => {
    const c = connect(stdio(FIXTURE_SERVER));
    await c.start();
    const controller = new AbortController();
    const pending = c.callTool("hang", {}, { signal: controller.signal, timeoutMs: 60_000 }).catch((e) => e);
    controller.abort();
    expect((await pending).message).toContain("cancelled by the user");
  });

  it("restarts a server that dies once, then reports it", async () => {
    const events: ConnectionEvent[] = [];
    const c = connect(stdio(FIXTURE_SERVER), events);
    await c.start();
    const first = await c.callTool("crash", {}, { signal: signal(), timeoutMs: 5000 }).catch((e) => e);
    expect(first).toBeInstanceOf(McpCallError);
    expect(first.connectionLost).toBe(true);
    await expect.poll(() => events.some((e) => e.type === "restarted")).toBe(true);
    const echo = await c.callTool("echo", { text: "back" }, { signal: signal(), timeoutMs: 5000 });
    expect(toToolOutput(echo).content).toBe("echo: back");
    await c.callTool("crash", {}, { signal: signal(), timeoutMs: 5000 }).catch(() => {});
    await expect.poll(() => c.status).toBe("failed");
    expect(events.at(-1)).toMatchObject({ type: "failed", crashed: true });
    const after = await c
      .callTool("echo", { text: "x" }, { signal: signal(), timeoutMs: 5000 })
      .catch((e) => e);
    expect(after.message).toContain("is not running");
  });

  it("reports a server that cannot start, with its stderr", async () => {
    const c = connect(stdio(FIXTURE_SERVER, ["--exit-on-start"]));
    await c.start();
    expect(c.status).toBe("failed");
    expect(c.error).toContain("refusing to start");
  });

  it("reports a command that does not exist", async () => {
    const c = connect({ type: "stdio", command: "hx-no-such-command-xyz", args: [], env: {} });
    await c.start();
    expect(c.status).toBe("failed");
    expect(c.error).toContain("command not found");
  });

  it("stops a server that ignores stdin closing and SIGTERM", async () => {
    const c = connect(stdio(FIXTURE_SERVER, ["--stubborn"]));
    await c.start();
    const pid = c.pid;
    expect(pid).toBeTypeOf("number");
    await c.close();
    await expect.poll(() => isAlive(pid as number)).toBe(false);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("McpConnection closed while it starts", () => {
  it("stops the server a launcher still at work starts after the close (hx would wait for its start-up timeout)", async () => {
    let started: ServerProcess | undefined;
    const config = stdio(FIXTURE_SERVER, ["--slow-start", "5000"]);
    const c = new McpConnection("slow", config, {
      cwd: os.tmpdir(),
      clientVersion: "test",
      startupTimeoutMs: 15_000,
      // A launcher that waits (the sandbox's probe on a busy machine) before it spawns.
      launch: async ({ config: entry, cwd, onStderr }) => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        started = new ServerProcess(entry.command, entry.args ?? [], {
          env: { PATH: process.env.PATH ?? "" },
          cwd,
          onStderr,
        });
        return started;
      },
    });
    const ready = c.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await c.close();
    await ready;
    expect(c.status).toBe("closed");
    await expect.poll(() => started !== undefined && !started.running, { timeout: 3000 }).toBe(true);
  });
});
