import { describe, expect, it } from "vitest";
import { setup } from "./helpers.js";

describe("grep", () => {
  it("returns path:line:text matches sorted by path", async () => {
    const { call } = setup({
      "src/b.ts": "const x = 1;\nconst needle = 2;\n",
      "src/a.ts": "needle here\n",
      "c.md": "no\n",
    });
    expect(await call("grep", { pattern: "needle" })).toEqual({
      content: "src/a.ts:1:needle here\nsrc/b.ts:2:const needle = 2;",
    });
  });

  it("says 'No matches found.' when nothing matches, without an error", async () => {
    const { call } = setup({ "a.txt": "hello\n" });
    expect(await call("grep", { pattern: "absent" })).toEqual({ content: "No matches found." });
  });

  it("reports a bad regex as a clear error", async () => {
    const { call } = setup({ "a.txt": "foo(\n" });
    const result = await call("grep", { pattern: "foo(" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Error: ripgrep failed: .*regex parse error/s);
    expect(result.content).toContain("escape regex characters");
  });

  it("filters files with glob and honours ignore_case", async () => {
    const { call } = setup({ "a.ts": "Hello\n", "b.js": "hello\n" });
    expect((await call("grep", { pattern: "hello", glob: "*.ts" })).content).toBe("No matches found.");
    expect((await call("grep", { pattern: "hello", glob: "*.ts", ignore_case: true })).content).toBe(
      "a.ts:1:Hello",
    );
  });

  it("searches a single file or a folder given by path", async () => {
    const { call } = setup({ "src/a.ts": "hit\n", "lib/b.ts": "hit\n" });
    expect((await call("grep", { pattern: "hit", path: "src/a.ts" })).content).toBe("src/a.ts:1:hit");
    expect((await call("grep", { pattern: "hit", path: "lib" })).content).toBe("lib/b.ts:1:hit");
    expect((await call("grep", { pattern: "hit", path: "nope" })).content).toBe(
      "Error: path not found: nope.",
    );
  });

  it("respects .gitignore without a git repository and skips node_modules, but finds dotfiles", async () => {
    const { call } = setup({
      ".gitignore": "build/\n",
      "build/out.js": "target\n",
      "node_modules/x/i.js": "target\n",
      ".config/settings": "target\n",
      "src/main.js": "target\n",
    });
    expect((await call("grep", { pattern: "target" })).content).toBe(
      ".config/settings:1:target\nsrc/main.js:1:target",
    );
  });

  it("caps the number of matches and counts the rest", async () => {
    const { call } = setup({ "many.txt": Array.from({ length: 700 }, (_, i) => `match ${i}`).join("\n") });
    const result = await call("grep", { pattern: "match" });
    const lines = result.content.split("\n").filter((line) => line.startsWith("many.txt:"));
    expect(lines).toHaveLength(500);
    expect(result.content).toMatch(
      /\[… 200 matches \([\d,]+ chars\) more not shown\. Narrow the pattern, path or glob/,
    );
  });

  it("treats a pattern starting with a dash as a pattern, not an option", async () => {
    const { call } = setup({ "a.txt": "x --flag y\n" });
    expect((await call("grep", { pattern: "--flag" })).content).toBe("a.txt:1:x --flag y");
  });
});
