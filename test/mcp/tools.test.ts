import { describe, expect, it } from "vitest";
import { createCallMcpToolTool } from "../../src/mcp/call-tool-tool.js";
import type { McpConnection, McpToolInfo } from "../../src/mcp/connection.js";
import { createLoadMcpToolsTool } from "../../src/mcp/load-tools-tool.js";
import { qualifiedToolName, qualifyToolNames } from "../../src/mcp/names.js";
import { toToolOutput } from "../../src/mcp/results.js";
import { checkInputSchema } from "../../src/mcp/schema-check.js";
import { createMcpTool, effectOf } from "../../src/mcp/tool-adapter.js";
import { buildToolCatalog, shortDescription } from "../../src/mcp/tool-catalog.js";
import { ToolShelf } from "../../src/mcp/tool-shelf.js";
import { parseRules } from "../../src/permissions/rules.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { Workspace } from "../../src/tools/workspace.js";
import { decide as decideCall } from "../permissions/support.js";

describe("MCP tool names", () => {
  it("are mcp__server__tool with what providers reject replaced", () => {
    expect(qualifiedToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(qualifiedToolName("fs", "read.file v2")).toBe("mcp__fs__read_file_v2");
    const long = qualifiedToolName("server", "x".repeat(80));
    expect(long.length).toBe(64);
    expect(long).not.toBe(qualifiedToolName("server", `${"x".repeat(79)}y`));
    const [a, b] = qualifyToolNames("s", ["a.b", "a_b"]);
    expect(a).toBe("mcp__s__a_b");
    expect(b).not.toBe(a);
  });
});

describe("checkInputSchema", () => {
  it("accepts object schemas and names what is wrong with the others", () => {
    expect(
      checkInputSchema({ type: "object", properties: { a: { type: "string" } }, required: ["a"] }),
    ).toBeUndefined();
    expect(checkInputSchema({ type: "object" })).toBeUndefined();
    expect(
      checkInputSchema({ type: "object", properties: { a: { anyOf: [{ type: "string" }, true] } } }),
    ).toBeUndefined();
    expect(checkInputSchema(undefined)).toBe("it is not an object");
    expect(checkInputSchema({ type: "string" })).toContain('not "object"');
    expect(checkInputSchema({ type: "object", properties: 5 })).toContain("properties is not an object");
    expect(checkInputSchema({ type: "object", properties: { a: { type: "strin" } } })).toContain(
      "properties.a.type",
    );
    expect(checkInputSchema({ type: "object", required: "a" })).toContain("required");
  });
});

describe("toToolOutput", () => {
  it("turns each kind of content into text the model can read", () => {
    const output = toToolOutput({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "aGVsbG8gd29ybGQ=", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "inside" } },
        { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAA" } },
        {
          type: "resource_link",
          uri: "file:///c.md",
          name: "c.md",
          description: "the notes",
          mimeType: "text/markdown",
        },
      ],
    });
    expect(output.isError).toBeUndefined();
    expect(output.images).toEqual([{ mimeType: "image/png", data: expect.any(String) }]);
    expect(output.content).toBe(
      [
        "hello",
        "[image: image/png, 11 B; attached for models that take images]",
        "[resource file:///a.txt (text/plain)]\ninside",
        "[resource file:///b.bin: 3 B of binary data, not shown]",
        "[resource link: c.md <file:///c.md>, text/markdown: the notes; read it with read_mcp_resource]",
      ].join("\n\n"),
    );
  });

  it("adds structured content only when no text block holds it", () => {
    const data = { a: 1 };
    expect(
      toToolOutput({ content: [{ type: "text", text: '{"a":1}' }], structuredContent: data }).content,
    ).toBe('{"a":1}');
    expect(toToolOutput({ content: [], structuredContent: data }).content).toBe(
      'Structured content:\n{\n  "a": 1\n}',
    );
  });

  it("keeps isError results errors", () => {
    expect(toToolOutput({ content: [{ type: "text", text: "boom" }], isError: true })).toEqual({
      content: "Error: boom",
      isError: true,
    });
    expect(toToolOutput({ content: [], isError: true }).isError).toBe(true);
    expect(toToolOutput({ content: [] }).content).toBe("(the tool returned no content)");
  });
});

const info = (name: string, extra: Partial<McpToolInfo> = {}): McpToolInfo => ({
  name,
  description: `Does ${name}. More words here.\nSecond line.`,
  inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  ...extra,
});

/** A connection double that records calls (the real one is tested in connection.test.ts). */
function fakeConnection(calls: unknown[]): McpConnection {
  return {
    callTool: async (tool: string, args: unknown) => {
      calls.push({ tool, args });
      return { content: [{ type: "text", text: `ran ${tool}` }] };
    },
  } as unknown as McpConnection;
}

const ctx = (): ToolContext => ({
  workspace: new Workspace(process.cwd()),
  signal: new AbortController().signal,
  callId: "c1",
  emit: () => {},
});

describe("MCP tools in the registry", () => {
  it("send the server's schema as it is and count as execute unless read-only", () => {
    const tool = createMcpTool({
      name: "mcp__s__find",
      server: "s",
      info: info("find"),
      connection: fakeConnection([]),
      timeoutMs: 1000,
    });
    const [schema] = new ToolRegistry([tool]).schemas();
    expect(schema.parameters).toEqual(info("find").inputSchema);
    expect(tool.effect).toBe("execute");
    expect(effectOf(info("x", { annotations: { readOnlyHint: true } }))).toBe("read");
    expect(effectOf(info("x", { annotations: { readOnlyHint: true, destructiveHint: true } }))).toBe(
      "execute",
    );
  });

  it("grow in order, keeping the earlier schemas a prefix", () => {
    const shelfTool = (n: string) =>
      createMcpTool({
        name: `mcp__s__${n}`,
        server: "s",
        info: info(n),
        connection: fakeConnection([]),
        timeoutMs: 1000,
      });
    const registry = new ToolRegistry([shelfTool("a")]);
    const before = JSON.stringify(registry.schemas());
    registry.add([shelfTool("b")]);
    const after = JSON.stringify(registry.schemas());
    expect(after.startsWith(before.slice(0, -1))).toBe(true);
    expect(registry.names()).toEqual(["mcp__s__a", "mcp__s__b"]);
  });

  it("call_mcp_tool routes to the named tool, so the permission check sees that tool", async () => {
    const calls: unknown[] = [];
    const shelf = new ToolShelf("call");
    shelf.put([
      createMcpTool({
        name: "mcp__s__find",
        server: "s",
        info: info("find"),
        connection: fakeConnection(calls),
        timeoutMs: 1000,
      }),
    ]);
    const registry = new ToolRegistry([createLoadMcpToolsTool(shelf), createCallMcpToolTool(shelf)]);
    const prepared = await registry.prepare({
      id: "1",
      name: "call_mcp_tool",
      arguments: JSON.stringify({ name: "mcp__s__find", arguments: { q: "x" } }),
    });
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    expect(prepared.tool.name).toBe("mcp__s__find");
    expect(prepared.args).toEqual({ q: "x" });
    expect(await registry.run(prepared, ctx())).toEqual({ content: "ran find" });
    expect(calls).toEqual([{ tool: "find", args: { q: "x" } }]);
    const unknown = await registry.prepare({
      id: "2",
      name: "call_mcp_tool",
      arguments: '{"name":"mcp__s__fnd"}',
    });
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error).toContain("did you mean mcp__s__find?");
  });

  it("load_mcp_tools returns schemas (call mode) or adds the tools (tools mode)", async () => {
    const make = () =>
      createMcpTool({
        name: "mcp__s__find",
        server: "s",
        info: info("find"),
        connection: fakeConnection([]),
        timeoutMs: 1000,
      });
    const callShelf = new ToolShelf("call");
    callShelf.put([make()]);
    const loaded = await createLoadMcpToolsTool(callShelf).execute(
      { names: ["mcp__s__find", "nope"] },
      ctx(),
    );
    const text = typeof loaded === "string" ? loaded : loaded.content;
    expect(text).toContain('<mcp-tool name="mcp__s__find">');
    expect(text).toContain(
      'Input schema: {"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}',
    );
    expect(text).toContain("no MCP tool named 'nope'");

    const toolsShelf = new ToolShelf("tools");
    toolsShelf.put([make()]);
    const registry = new ToolRegistry([createLoadMcpToolsTool(toolsShelf)]);
    toolsShelf.attach(registry);
    await createLoadMcpToolsTool(toolsShelf).execute({ names: ["mcp__s__find"] }, ctx());
    await createLoadMcpToolsTool(toolsShelf).execute({ names: ["mcp__s__find"] }, ctx());
    expect(registry.names()).toEqual(["load_mcp_tools", "mcp__s__find"]);
  });

  it("the catalog lists one sorted line per tool", () => {
    const tools = ["b", "a"].map((n) =>
      createMcpTool({
        name: `mcp__s__${n}`,
        server: "s",
        info: info(n),
        connection: fakeConnection([]),
        timeoutMs: 1,
      }),
    );
    const catalog = buildToolCatalog(tools, "call");
    expect(catalog.split("\n").slice(2)).toEqual(["- mcp__s__a: Does a.", "- mcp__s__b: Does b."]);
    expect(shortDescription("x".repeat(300))).toHaveLength(120);
  });
});

describe("permission rules for MCP tools", () => {
  const decide = async (
    tool: string,
    rules: { allow?: string[]; ask?: string[]; deny?: string[] },
    effect: "execute" | "read" = "execute",
  ) => (await decideCall(rules, tool, effect)).action;

  it("match a tool, a server's tools by prefix or by wildcard", async () => {
    expect(parseRules({ allow: ["mcp__github__*"] }).warnings).toEqual([]);
    expect(await decide("mcp__github__create_issue", {})).toBe("ask");
    expect(await decide("mcp__github__create_issue", { allow: ["mcp__github__create_issue"] })).toBe("allow");
    expect(await decide("mcp__github__create_issue", { allow: ["mcp__github"] })).toBe("allow");
    expect(await decide("mcp__github__create_issue", { allow: ["mcp__github__*"] })).toBe("allow");
    expect(await decide("mcp__github__create_issue", { allow: ["mcp__git"] })).toBe("ask");
    expect(await decide("mcp__githubby__x", { allow: ["mcp__github"] })).toBe("ask");
    expect(
      await decide("mcp__github__create_issue", { allow: ["mcp__github"], deny: ["mcp__github__create_*"] }),
    ).toBe("deny");
    expect(await decide("mcp__github__list", {}, "read")).toBe("allow");
    expect(await decide("mcp__github__list", { ask: ["mcp__github"] }, "read")).toBe("ask");
  });
});
