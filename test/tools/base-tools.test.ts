import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createBaseTools } from "../../src/tools/base-tools.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { setup } from "./helpers.js";

describe("createBaseTools", () => {
  it("returns the six base tools in order, each with its effect", () => {
    const tools = createBaseTools();
    expect(tools.map((tool) => [tool.name, tool.effect])).toEqual([
      ["bash", "execute"],
      ["read_file", "read"],
      ["write_file", "write"],
      ["edit_file", "write"],
      ["glob", "read"],
      ["grep", "read"],
    ]);
  });

  it("produces JSON schemas with the documented parameters and short descriptions", async () => {
    const registry = new ToolRegistry(createBaseTools());
    await registry.ready();
    const schemas = registry.schemas();
    const required = Object.fromEntries(
      schemas.map((s) => [s.name, (s.parameters as { required?: string[] }).required]),
    );
    expect(required).toEqual({
      bash: ["command"],
      read_file: ["path"],
      write_file: ["path", "content"],
      edit_file: ["path", "old_text", "new_text"],
      glob: ["pattern"],
      grep: ["pattern"],
    });
    for (const schema of schemas) expect(schema.description.length).toBeLessThan(450);
  });

  it("turns filesystem failures into error results the model can act on", async () => {
    const { call } = setup({ "file.txt": "x" });
    expect(await call("write_file", { path: "file.txt/child.txt", content: "y" })).toEqual({
      content:
        "Error: could not write file.txt/child.txt: part of its folder path is an existing file. Nothing was changed on disk.",
      isError: true,
    });
    const raw = await call("read_file", { path: "file.txt/child.txt" });
    expect(raw.isError).toBe(true);
    expect(raw.content).toBe("Error: file not found: file.txt/child.txt. Use glob to find the right path.");
  });

  it("loads ripgrep lazily, so it stays out of the bundle", () => {
    const source = readFileSync(new URL("../../src/tools/grep.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/^import .*@vscode\/ripgrep/m);
    expect(source).toContain('await import("@vscode/ripgrep")');
  });
});
