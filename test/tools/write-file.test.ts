import { execFileSync } from "node:child_process";
import { chmodSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
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

describe("write_file is atomic and stays what it claims", () => {
  it("keeps the file's mode, leaves no temporary file, and writes through a symlink to its target", async () => {
    const { root, call } = setup({ "run.sh": "echo old\n", "real/target.txt": "old" });
    chmodSync(path.join(root, "run.sh"), 0o755);
    symlinkSync("real/target.txt", path.join(root, "link.txt"));
    await call("write_file", { path: "run.sh", content: "echo new\n" });
    await call("write_file", { path: "link.txt", content: "new" });
    expect(statSync(path.join(root, "run.sh")).mode & 0o777).toBe(0o755);
    expect(lstatSync(path.join(root, "link.txt")).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(root, "real/target.txt"), "utf8")).toBe("new");
    expect(readdirSync(root).sort()).toEqual(["link.txt", "real", "run.sh"]);
    expect(readdirSync(path.join(root, "real"))).toEqual(["target.txt"]);
  });

  it("refuses to write into a FIFO (no hang) and leaves it in place", async () => {
    const { root, call } = setup();
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    const result = await call("write_file", { path: "pipe", content: "x" });
    expect(result).toEqual({
      content:
        "Error: could not write pipe: it is a named pipe (FIFO), not a regular file. Nothing was changed on disk.",
      isError: true,
    });
    expect(lstatSync(path.join(root, "pipe")).isFIFO()).toBe(true);
  });
});
