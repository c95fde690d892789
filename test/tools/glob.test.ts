import { symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { globTool } from "../../src/tools/glob.js";
import { tempDir } from "../support/temp-dir.js";
import { setup, writeFiles } from "./helpers.js";

describe("glob", () => {
  it("returns matching files relative to the workspace, sorted by path", async () => {
    const { call } = setup({
      "src/b.ts": "",
      "src/a.ts": "",
      "src/nested/c.ts": "",
      "src/d.js": "",
      "README.md": "",
    });
    expect(await call("glob", { pattern: "**/*.ts" })).toEqual({
      content: "src/a.ts\nsrc/b.ts\nsrc/nested/c.ts",
    });
  });

  it("searches below path and still prints workspace-relative paths", async () => {
    const { call } = setup({ "src/a.ts": "", "lib/b.ts": "" });
    expect((await call("glob", { pattern: "*.ts", path: "src" })).content).toBe("src/a.ts");
  });

  it("skips .git, node_modules and .gitignored files, nested .gitignore files included", async () => {
    const { call } = setup({
      ".gitignore": "dist/\n*.log\n!keep.log\n",
      "dist/out.js": "",
      "app.log": "",
      "keep.log": "",
      ".git/config": "",
      "node_modules/pkg/index.js": "",
      "pkg/.gitignore": "generated.js\n",
      "pkg/generated.js": "",
      "pkg/index.js": "",
      ".github/ci.yml": "",
    });
    expect((await call("glob", { pattern: "**/*" })).content).toBe(
      [".github/ci.yml", ".gitignore", "keep.log", "pkg/.gitignore", "pkg/index.js"].join("\n"),
    );
  });

  it("applies the root .gitignore when searching a subfolder", async () => {
    const { call } = setup({ ".gitignore": "*.tmp\n", "sub/a.tmp": "", "sub/b.txt": "" });
    expect((await call("glob", { pattern: "*", path: "sub" })).content).toBe("sub/b.txt");
  });

  it("caps at 1000 files and says how many more there are", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1200; i++) files[`many/f${String(i).padStart(4, "0")}.txt`] = "";
    const { call } = setup(files);
    const result = await call("glob", { pattern: "many/*.txt" });
    const listed = result.content.split("\n").filter((line) => line.startsWith("many/"));
    expect(listed).toHaveLength(1000);
    expect(listed[999]).toBe("many/f0999.txt");
    expect(result.content).toMatch(/\[… 200 files \([\d,]+ chars\) more not shown\. Use a narrower pattern/);
  });

  it("does not follow symlinked folders out of the workspace", async () => {
    const { root, call } = setup({ "in.txt": "" });
    const outside = tempDir("hx-outside-");
    writeFiles(outside, { "secret.txt": "" });
    symlinkSync(outside, path.join(root, "link"));
    expect((await call("glob", { pattern: "**/*.txt" })).content).toBe("in.txt");
  });

  it("says when nothing matches, and rejects escaping patterns and bad folders", async () => {
    const { call } = setup({ "a.txt": "" });
    expect(await call("glob", { pattern: "*.rs" })).toEqual({
      content: 'No files match "*.rs" in the workspace root.',
    });
    expect((await call("glob", { pattern: "../*" })).content).toMatch(/must be relative/);
    expect((await call("glob", { pattern: "/etc/*" })).isError).toBe(true);
    expect(await call("glob", { pattern: "*", path: "a.txt" })).toEqual({
      content: "Error: a.txt is a file, not a folder; set path to a folder.",
      isError: true,
    });
    expect((await call("glob", { pattern: "*", path: "missing" })).content).toBe(
      "Error: folder not found: missing.",
    );
  });

  it("uses the searched folder as the permission subject", () => {
    const { workspace } = setup();
    expect(globTool.ruleSubject?.({ pattern: "*" }, workspace)).toBe(".");
    expect(globTool.ruleSubject?.({ pattern: "*", path: "src/" }, workspace)).toBe("src");
  });
});
