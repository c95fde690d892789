// The reference MCP servers from npm (pinned dev dependencies) through the real `hx` binary and
// the fake model server: what the model was sent, and — through test/fixtures/mcp/record-stdin.mjs,
// which passes a real server's stdio through — what the server received. The servers run as a
// user's `.mcp.json` would start them: in the OS sandbox where it runs.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backend, processesMatching } from "../sandbox/sandbox-support.js";
import type { RecordedRequest } from "../support/fake-model-server.js";
import {
  EVERYTHING,
  loggedMessages,
  MEMORY,
  missingPackage,
  recordedServer,
  useEverythingHttp,
  writeMcpConfig,
} from "../support/mcp.js";
import { runHx } from "../support/run-hx.js";
import { BYPASS } from "../support/wire.js";
import { toolResultsOf, useHarness } from "./harness-support.js";

const h = useHarness();
const startHttp = useEverythingHttp();

const everythingSkip = missingPackage(EVERYTHING, "@modelcontextprotocol/server-everything");
const memorySkip = missingPackage(MEMORY, "@modelcontextprotocol/server-memory");

function config(servers: Record<string, unknown>): string[] {
  return ["--mcp-config", writeMcpConfig(path.join(h.work, "mcp.json"), servers)];
}

/** `hx agent` on Anthropic's wire (where an error result is marked `is_error`). */
function anthropicAgent(args: string[], extra: Record<string, string> = {}) {
  return runHx(["agent", "x", ...args, "--provider", "anthropic", "--base-url", h.server.url, "-C", h.work], {
    env: { ANTHROPIC_API_KEY: "sk-ant-test", ...extra },
  });
}

interface WireResult {
  text: string;
  isError: boolean;
}

/** The tool_result blocks of an Anthropic request, in order. */
function anthropicResults(request: RecordedRequest): WireResult[] {
  // biome-ignore lint/suspicious/noExplicitAny: wire JSON.
  const blocks = request.body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []));
  return (
    blocks
      // biome-ignore lint/suspicious/noExplicitAny: wire JSON.
      .filter((b: any) => b.type === "tool_result")
      // biome-ignore lint/suspicious/noExplicitAny: wire JSON.
      .map((b: any) => ({
        text: typeof b.content === "string" ? b.content : JSON.stringify(b.content),
        isError: b.is_error === true,
      }))
  );
}

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC messages as logged.
const calls = (log: string) => loggedMessages(log).filter((m: any) => m.method === "tools/call");

describe(`server-everything over stdio${everythingSkip}`, () => {
  it.skipIf(everythingSkip !== "")(
    "lists its tools, prompts and resources (hx mcp list), sandboxed",
    async () => {
      const log = path.join(h.work, "log.jsonl");
      const list = await runHx([
        "mcp",
        "list",
        "--json",
        ...config({ everything: recordedServer(log, EVERYTHING, ["stdio"]) }),
        "-C",
        h.work,
      ]);
      expect(list.code, list.stderr).toBe(0);
      const [server] = JSON.parse(list.stdout).servers;
      expect(server).toMatchObject({ name: "everything", status: "ready" });
      expect(server.tools).toBeGreaterThanOrEqual(10);
      expect(server.prompts).toBe(4);
      expect(server.resources).toBeGreaterThanOrEqual(7); // the static docs at least
      if (backend.ok) expect(server.sandbox.sandboxed).toBe(true);
      // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC messages as logged.
      const methods = loggedMessages(log).map((m: any) => m.method);
      expect(methods).toEqual(
        expect.arrayContaining(["initialize", "tools/list", "prompts/list", "resources/list"]),
      );
    },
  );

  it.skipIf(everythingSkip !== "")(
    "calls tools with the model's arguments, marks isError results as errors and reads a resource",
    async () => {
      const log = path.join(h.work, "log.jsonl");
      h.server
        .reply()
        .tool("mcp__everything__get-sum", { a: 2, b: 3 })
        .tool("mcp__everything__get-sum", { a: "two", b: 3 })
        .tool("read_mcp_resource", {
          server: "everything",
          uri: "demo://resource/static/document/features.md",
        });
      h.server.reply().text("done");
      const run = await anthropicAgent([
        ...config({ everything: recordedServer(log, EVERYTHING, ["stdio"]) }),
        ...BYPASS,
      ]);
      expect(run.code, run.stderr).toBe(0);
      const [sum, bad, resource] = anthropicResults(h.server.requests[1]);
      expect(sum).toEqual({ text: expect.stringContaining("5"), isError: false });
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(/expected number/);
      const doc = readFileSync(path.join(path.dirname(EVERYTHING), "docs", "features.md"), "utf8");
      expect(resource.isError).toBe(false);
      expect(resource.text).toContain(JSON.stringify(doc.split("\n")[0]).slice(1, -1));
      // What the server received: both calls with the model's arguments, then the read.
      expect(calls(log).map((m) => m.params)).toEqual([
        expect.objectContaining({ name: "get-sum", arguments: { a: 2, b: 3 } }),
        expect.objectContaining({ name: "get-sum", arguments: { a: "two", b: 3 } }),
      ]);
      // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC messages as logged.
      expect(loggedMessages(log).find((m: any) => m.method === "resources/read")?.params).toEqual({
        uri: "demo://resource/static/document/features.md",
      });
    },
  );

  it.skipIf(everythingSkip !== "")(
    "its environment holds the entry's env, not hx's provider keys",
    async () => {
      const log = path.join(h.work, "log.jsonl");
      h.server.reply().tool("mcp__everything__get-env", {});
      h.server.reply().text("done");
      const run = await h.agent("x", [
        ...config({ everything: recordedServer(log, EVERYTHING, ["stdio"], { SERVICE_URL: "http://svc" }) }),
        ...BYPASS,
      ]);
      expect(run.code, run.stderr).toBe(0);
      const env = JSON.parse(toolResultsOf(h.server.requests[1])[0]);
      expect(env.SERVICE_URL).toBe("http://svc");
      expect(env.OPENAI_API_KEY).toBeUndefined();
      expect(Object.keys(env).filter((k) => /_API_KEY$/.test(k))).toEqual([]);
    },
  );

  it.skipIf(everythingSkip !== "")(
    "times out a long-running call and tells the server it is cancelled",
    async () => {
      const log = path.join(h.work, "log.jsonl");
      h.server.reply().tool("mcp__everything__trigger-long-running-operation", { duration: 30, steps: 2 });
      h.server.reply().text("done");
      const started = Date.now();
      const run = await h.agent("x", [
        ...config({ everything: { ...recordedServer(log, EVERYTHING, ["stdio"]), timeout: 1000 } }),
        ...BYPASS,
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(toolResultsOf(h.server.requests[1])[0]).toContain(
        "MCP server 'everything' did not answer the call of trigger-long-running-operation within 1 s; the request was cancelled",
      );
      const [call] = calls(log);
      expect(call.params.arguments).toEqual({ duration: 30, steps: 2 });
      expect(loggedMessages(log)).toContainEqual(
        expect.objectContaining({
          method: "notifications/cancelled",
          params: expect.objectContaining({ requestId: call.id }),
        }),
      );
    },
  );

  it.skipIf(everythingSkip !== "")(
    "Ctrl-C cancels a long-running call at the server; nothing is left after hx exits",
    async () => {
      const log = path.join(h.work, "log.jsonl");
      h.server.reply().tool("mcp__everything__trigger-long-running-operation", { duration: 30, steps: 2 });
      const hx = h.start("x", [
        ...config({ everything: recordedServer(log, EVERYTHING, ["stdio"]) }),
        ...BYPASS,
      ]);
      await expect.poll(() => calls(log).length, { timeout: 15_000 }).toBe(1);
      hx.child.kill("SIGINT");
      expect(await hx.done).toBe(130);
      const [call] = calls(log);
      expect(loggedMessages(log)).toContainEqual(
        expect.objectContaining({
          method: "notifications/cancelled",
          params: expect.objectContaining({ requestId: call.id }),
        }),
      );
      await expect.poll(() => processesMatching(log), { timeout: 5_000 }).toEqual([]);
    },
  );
});

describe(`server-everything over Streamable HTTP on 127.0.0.1${everythingSkip}`, () => {
  it.skipIf(everythingSkip !== "")(
    "returns structured content and times out a long-running call",
    async () => {
      const server = await startHttp("streamableHttp");
      h.server
        .reply()
        .tool("mcp__web__get-structured-content", { location: "Chicago" })
        .tool("mcp__web__trigger-long-running-operation", { duration: 30, steps: 2 });
      h.server.reply().text("done");
      const run = await h.agent("x", [
        ...config({ web: { type: "http", url: server.url, timeout: 1000 } }),
        ...BYPASS,
      ]);
      expect(run.code, run.stderr).toBe(0);
      const [structured, long] = toolResultsOf(h.server.requests[1]);
      expect(JSON.parse(structured)).toMatchObject({
        temperature: expect.any(Number),
        conditions: expect.any(String),
      });
      expect(long).toContain("did not answer the call of trigger-long-running-operation within 1 s");
      const list = await runHx(["mcp", "list", "--json", "--mcp-config", path.join(h.work, "mcp.json")]);
      const [listed] = JSON.parse(list.stdout).servers;
      expect(listed).toMatchObject({ status: "ready", prompts: 4 });
      expect(listed.sandbox).toBeUndefined(); // a remote server is no process of ours
    },
  );
});

describe(`server-memory${memorySkip}`, () => {
  it.skipIf(memorySkip !== "")(
    "keeps an entity created in one session for the next, in the workspace file its env names",
    async () => {
      const file = path.join(h.work, "memory.jsonl");
      const log = path.join(h.work, "log.jsonl");
      const servers = config({ memory: recordedServer(log, MEMORY, [], { MEMORY_FILE_PATH: file }) });
      h.server.reply().tool("mcp__memory__create_entities", {
        entities: [{ name: "hx", entityType: "project", observations: ["written in TypeScript"] }],
      });
      h.server.reply().text("created");
      const first = await h.agent("remember hx", [...servers, ...BYPASS]);
      expect(first.code, first.stderr).toBe(0);
      expect(readFileSync(file, "utf8")).toContain('"name":"hx"');

      h.server.reply().tool("mcp__memory__open_nodes", { names: ["hx"] });
      h.server.reply().text("read");
      const second = await h.agent("what is hx?", [...servers, ...BYPASS]);
      expect(second.code, second.stderr).toBe(0);
      const [read] = toolResultsOf(h.server.requests[3]);
      expect(JSON.parse(read)).toMatchObject({
        entities: [{ name: "hx", entityType: "project", observations: ["written in TypeScript"] }],
      });
      expect(calls(log).map((m) => m.params.name)).toEqual(["create_entities", "open_nodes"]);
    },
  );

  it.skipIf(memorySkip !== "" || !backend.ok)(
    "in the sandbox cannot write its default file outside the workspace: the model reads the error",
    async () => {
      const log = path.join(h.work, "log.jsonl");
      h.server.reply().tool("mcp__memory__create_entities", {
        entities: [{ name: "x", entityType: "t", observations: [] }],
      });
      h.server.reply().text("done");
      const run = await anthropicAgent([...config({ memory: recordedServer(log, MEMORY) }), ...BYPASS]);
      expect(run.code, run.stderr).toBe(0);
      const [result] = anthropicResults(h.server.requests[1]);
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/EROFS|read-only file system/i);
    },
  );
});
