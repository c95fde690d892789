import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../../src/tools/registry.js";
import { defineTool, type Zod } from "../../src/tools/tool.js";

/** A tool that counts how often its zod schema is built. */
function countingTool(name: string, jsonSchema?: Record<string, unknown>) {
  const built = { count: 0 };
  const tool = defineTool({
    name,
    description: `the ${name} tool`,
    parameters: (z: Zod) => {
      built.count += 1;
      return z.object({ n: z.number().int().min(1) });
    },
    jsonSchema,
    effect: "read",
    execute: async (args) => `n=${args.n}`,
  });
  return { tool, built };
}

const call = (name: string, args: unknown) => ({ id: "c1", name, arguments: JSON.stringify(args) });

describe("ToolRegistry", () => {
  it("sends a tool's own JSON Schema without building its zod schema", async () => {
    const given = { type: "object", properties: { n: { type: "integer" } } };
    const { tool, built } = countingTool("given", given);
    const registry = new ToolRegistry([tool]);
    await registry.ready();
    expect(registry.schemas()).toEqual([{ name: "given", description: "the given tool", parameters: given }]);
    expect(built.count).toBe(0);
  });

  it("derives the JSON Schema of a tool that brings none, once ready", async () => {
    const { tool } = countingTool("derived");
    const registry = new ToolRegistry([tool]);
    expect(() => registry.schemas()).toThrow(/await ready\(\) before schemas\(\) \(derived/);
    await registry.ready();
    expect(registry.schemas()[0].parameters).toEqual({
      type: "object",
      properties: { n: { type: "integer", minimum: 1 } },
      required: ["n"],
    });
  });

  it("builds the zod schema on the first call and reuses it; bad arguments become an error for the model", async () => {
    const { tool, built } = countingTool("counted", { type: "object" });
    const registry = new ToolRegistry([tool]);
    const good = await registry.prepare(call("counted", { n: 2 }));
    expect(good).toMatchObject({ ok: true, args: { n: 2 } });
    const bad = await registry.prepare(call("counted", { n: 0 }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^Error: invalid arguments for counted: n: /);
    expect(built.count).toBe(1);
  });

  it("derives the schema of a tool added later at the next ready()", async () => {
    const registry = new ToolRegistry([countingTool("first", { type: "object" }).tool]);
    await registry.ready();
    expect(registry.schemas().map((s) => s.name)).toEqual(["first"]);
    registry.add([countingTool("later").tool]);
    await registry.ready();
    expect(registry.schemas().map((s) => s.name)).toEqual(["first", "later"]);
  });

  it("asks its resolvers for a name it does not hold, in order; what they find is checked and not offered", async () => {
    const registry = new ToolRegistry([countingTool("held", { type: "object" }).tool]);
    const asked: string[] = [];
    const late = countingTool("mcp__late__echo", { type: "object" }).tool;
    registry.addResolver(async (name) => {
      asked.push(`first:${name}`);
      return undefined;
    });
    registry.addResolver(async (name) => {
      asked.push(`second:${name}`);
      return name === late.name ? late : undefined;
    });
    expect(await registry.prepare(call("mcp__late__echo", { n: 3 }))).toMatchObject({
      ok: true,
      args: { n: 3 },
    });
    const bad = await registry.prepare(call("mcp__late__echo", { n: 0 }));
    expect(bad.ok).toBe(false);
    const unknown = await registry.prepare(call("missing", {}));
    expect(unknown).toMatchObject({
      ok: false,
      error: "Error: Unknown tool 'missing'. Available tools: held",
    });
    expect(asked.slice(0, 2)).toEqual(["first:mcp__late__echo", "second:mcp__late__echo"]);
    await registry.prepare(call("held", { n: 1 }));
    expect(asked.filter((entry) => entry.endsWith(":held"))).toEqual([]);
    await registry.ready();
    expect(registry.schemas().map((schema) => schema.name)).toEqual(["held"]);
  });

  it("a resolver's wait cancelled with the turn is a cancelled call, not an unknown tool", async () => {
    const registry = new ToolRegistry([countingTool("held", { type: "object" }).tool]);
    registry.addResolver(
      (_name, signal) =>
        new Promise((resolve) => signal?.addEventListener("abort", () => resolve(undefined), { once: true })),
    );
    const turn = new AbortController();
    const pending = registry.prepare(call("mcp__late__echo", {}), turn.signal);
    turn.abort();
    expect(await pending).toMatchObject({
      ok: false,
      error: "Error: the call of mcp__late__echo was cancelled before the tool was ready.",
    });
  });
});
