import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { countLines } from "../../src/tools/write-file.js";
import { setup } from "./helpers.js";

describe("write_file", () => {
  it("creates missing parent folders and reports bytes and lines", async () => {
    const { root, call } = setup();
    const result = await call("write_file", { path: "deep/new/dir/file.txt", content: "héllo\nworld\n" });
    expect(result).toEqual({ content: "Created deep/new/dir/file.txt (13 bytes, 2 lines)." });
    expect(readFileSync(path.join(root, "deep/new/dir/file.txt"), "utf8")).toBe("héllo\nworld\n");
  });

  it("says when it overwrote an existing file", async () => {
    const { root, call } = setup({ "a.txt": "old content" });
    expect((await call("write_file", { path: "a.txt", content: "new" })).content).toBe(
      "Overwrote a.txt (3 bytes, 1 line).",
    );
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("new");
  });

  it("writes an empty file", async () => {
    const { root, call } = setup();
    expect((await call("write_file", { path: "empty", content: "" })).content).toBe(
      "Created empty (0 bytes, 0 lines).",
    );
    expect(readFileSync(path.join(root, "empty"), "utf8")).toBe("");
  });

  it("refuses to write over a directory", async () => {
    const { call } = setup({ "src/a.ts": "a" });
    const result = await call("write_file", { path: "src", content: "x" });
    expect(result).toEqual({ content: "Error: src is a directory; give a file path.", isError: true });
  });

  it("turns a missing content argument into an error result", async () => {
    const { call } = setup();
    const result = await call("write_file", { path: "a.txt" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Error: invalid arguments for write_file: content/);
  });

  it("counts lines as an editor does", () => {
    expect(countLines("")).toBe(0);
    expect(countLines("a")).toBe(1);
    expect(countLines("a\n")).toBe(1);
    expect(countLines("a\nb")).toBe(2);
    expect(countLines("\n\n")).toBe(2);
  });
});
