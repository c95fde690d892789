import { execFileSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { setup } from "./helpers.js";

const read = (root: string, rel: string) => readFileSync(path.join(root, rel), "utf8");

describe("edit_file", () => {
  it("replaces a unique match and returns a unified diff of the change", async () => {
    const { root, call } = setup({ "a.ts": "one\ntwo\nthree\n" });
    const result = await call("edit_file", { path: "a.ts", old_text: "two", new_text: "TWO\nand a half" });
    expect(result.isError).toBeFalsy();
    expect(result.content).toBe(
      "Edited a.ts: replaced 1 occurrence.\n@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n+and a half\n three",
    );
    expect(read(root, "a.ts")).toBe("one\nTWO\nand a half\nthree\n");
  });

  it("fails when old_text is not found, and leaves the file alone", async () => {
    const { root, call } = setup({ "a.ts": "alpha\nbeta\n" });
    const result = await call("edit_file", { path: "a.ts", old_text: "gamma", new_text: "delta" });
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      "Error: old_text was not found in a.ts. Read the file again and copy the text exactly, whitespace included.",
    );
    expect(read(root, "a.ts")).toBe("alpha\nbeta\n");
  });

  it("points at a whitespace-insensitive match when the exact text is missing", async () => {
    const { call } = setup({ "a.py": "def f():\n    if x:\n        return 1\n" });
    const result = await call("edit_file", {
      path: "a.py",
      old_text: "if x:\n    return 1",
      new_text: "pass",
    });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("It matches lines 2-3 if whitespace is ignored");
    expect(result.content).toContain("    if x:\n        return 1");
  });

  it("refuses several matches without replace_all, saying how many and where", async () => {
    const { root, call } = setup({ "a.ts": "x = 1\ny = 2\nx = 1\n" });
    const result = await call("edit_file", { path: "a.ts", old_text: "x = 1", new_text: "x = 3" });
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      "Error: old_text occurs 2 times in a.ts (at lines 1, 3). Add surrounding lines to old_text so it matches once, or set replace_all to change every occurrence.",
    );
    expect(read(root, "a.ts")).toBe("x = 1\ny = 2\nx = 1\n");
  });

  it("replaces every occurrence with replace_all", async () => {
    const { root, call } = setup({ "a.ts": "x = 1\ny = 2\nx = 1\n" });
    const result = await call("edit_file", {
      path: "a.ts",
      old_text: "x = 1",
      new_text: "x = 3",
      replace_all: true,
    });
    expect(result.content.split("\n")[0]).toBe("Edited a.ts: replaced 2 occurrences.");
    expect(read(root, "a.ts")).toBe("x = 3\ny = 2\nx = 3\n");
  });

  it("inserts new_text literally, $ patterns included", async () => {
    const { root, call } = setup({ "a.js": "const price = 1;\n" });
    await call("edit_file", { path: "a.js", old_text: "1", new_text: "$& $1 $$" });
    expect(read(root, "a.js")).toBe("const price = $& $1 $$;\n");
  });

  it("keeps CRLF line endings when old_text and new_text use LF", async () => {
    const { root, call } = setup({ "win.txt": "\uFEFFone\r\ntwo\r\nthree\r\n" });
    const result = await call("edit_file", {
      path: "win.txt",
      old_text: "one\ntwo",
      new_text: "one\nmiddle\ntwo",
    });
    expect(result.isError).toBeFalsy();
    expect(read(root, "win.txt")).toBe("\uFEFFone\r\nmiddle\r\ntwo\r\nthree\r\n");
  });

  it("leaves LF in a file with mixed line endings", async () => {
    const { root, call } = setup({ "mixed.txt": "a\r\nb\nc\n" });
    await call("edit_file", { path: "mixed.txt", old_text: "b", new_text: "B" });
    expect(read(root, "mixed.txt")).toBe("a\r\nB\nc\n");
  });

  it("rejects empty or identical old_text and a missing file", async () => {
    const { call } = setup({ "a.ts": "a" });
    expect((await call("edit_file", { path: "a.ts", old_text: "", new_text: "b" })).content).toMatch(
      /old_text is empty.*write_file/,
    );
    expect((await call("edit_file", { path: "a.ts", old_text: "a", new_text: "a" })).content).toMatch(
      /identical/,
    );
    expect(await call("edit_file", { path: "b.ts", old_text: "a", new_text: "b" })).toEqual({
      content: "Error: file not found: b.ts. To create it, use write_file.",
      isError: true,
    });
  });

  it("caps a huge diff", async () => {
    const big = Array.from({ length: 3000 }, (_, i) => `row ${i}`).join("\n");
    const { call } = setup({ "big.txt": "START\n" });
    const result = await call("edit_file", { path: "big.txt", old_text: "START", new_text: big });
    expect(result.content.length).toBeLessThanOrEqual(8_100);
    expect(result.content).toMatch(/more not shown\. Use read_file to check the rest of the change\.\]$/);
  });
});

describe("edit_file never corrupts a file", () => {
  it("refuses a latin-1 file, naming the byte and line, and leaves every byte as it was", async () => {
    const latin1 = Buffer.from("caf\xe9\nna\xefve\nplain\n", "latin1");
    const { root, call } = setup({ "old.txt": latin1 });
    const result = await call("edit_file", { path: "old.txt", old_text: "plain", new_text: "PLAIN" });
    expect(result).toEqual({
      content:
        "Error: old.txt is not valid UTF-8 (byte 0xE9 on line 1; it may be latin-1 or another encoding). edit_file refuses it rather than corrupt those bytes; it was not touched. Convert it first (e.g. iconv -f latin1 -t utf-8) or change it with bash.",
      isError: true,
    });
    expect(readFileSync(path.join(root, "old.txt")).equals(latin1)).toBe(true);
  });

  it("refuses a binary file (a PNG) and describes it", async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]),
      Buffer.from("IHDR text"),
    ]);
    const { root, call } = setup({ "logo.png": png });
    const result = await call("edit_file", { path: "logo.png", old_text: "IHDR", new_text: "XXXX" });
    expect(result.content).toBe(
      "Error: logo.png is a binary file (PNG image, 18 bytes); edit_file only edits UTF-8 text, so it was not touched.",
    );
    expect(readFileSync(path.join(root, "logo.png")).equals(png)).toBe(true);
  });

  it("keeps a BOM, CRLF endings, multi-byte text and the file's mode", async () => {
    const { root, call } = setup({ "w.txt": "\uFEFFzoë\r\n日本\r\nend\r\n" });
    chmodSync(path.join(root, "w.txt"), 0o751);
    await call("edit_file", { path: "w.txt", old_text: "日本", new_text: "にほん" });
    expect(readFileSync(path.join(root, "w.txt"), "utf8")).toBe("\uFEFFzoë\r\nにほん\r\nend\r\n");
    expect(statSync(path.join(root, "w.txt")).mode & 0o777).toBe(0o751);
    expect(readdirSync(root)).toEqual(["w.txt"]);
  });

  it("refuses a FIFO without waiting on it", async () => {
    const { root, call } = setup();
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    const result = await call("edit_file", { path: "pipe", old_text: "a", new_text: "b" });
    expect(result.content).toMatch(/^Error: pipe is a named pipe \(FIFO\), not a regular file/);
  });
});
