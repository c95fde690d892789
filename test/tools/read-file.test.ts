import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readFileTool } from "../../src/tools/read-file.js";
import { Workspace } from "../../src/tools/workspace.js";
import { setup } from "./helpers.js";

const lines = (n: number, make = (i: number) => `line ${i}`) =>
  Array.from({ length: n }, (_, i) => make(i + 1)).join("\n");

describe("read_file", () => {
  it("numbers lines like cat -n, the numbers only as wide as the last one shown", async () => {
    const { call } = setup({ "a.txt": "first\nsecond\n", "b.txt": lines(12) });
    expect(await call("read_file", { path: "a.txt" })).toEqual({ content: "1\tfirst\n2\tsecond" });
    expect((await call("read_file", { path: "b.txt", offset: 8, limit: 3 })).content).toBe(
      " 8\tline 8\n 9\tline 9\n10\tline 10\n[… 2 more lines. Use offset=11 to continue (12 lines in total).]",
    );
  });

  it("reads from offset for limit lines and says where to continue", async () => {
    const { call } = setup({ "a.txt": lines(10) });
    const result = await call("read_file", { path: "a.txt", offset: 3, limit: 2 });
    expect(result.content).toBe(
      "3\tline 3\n4\tline 4\n[… 6 more lines. Use offset=5 to continue (10 lines in total).]",
    );
  });

  it("reads at most 2000 lines per call, whatever the limit", async () => {
    const { call } = setup({ "big.txt": lines(2500) });
    const result = await call("read_file", { path: "big.txt", limit: 5000 });
    expect(result.content).toContain("   9\tline 9\n  10\tline 10\n");
    expect(result.content).toContain("2000\tline 2000\n[… 500 more lines. Use offset=2001 to continue");
    expect(result.content).not.toContain("line 2001");
    const rest = await call("read_file", { path: "big.txt", offset: 2001 });
    expect(rest.content.startsWith("2001\tline 2001")).toBe(true);
    expect(rest.content.endsWith("2500\tline 2500")).toBe(true);
  });

  it("stops at the char cap on a whole line and gives the offset to continue from", async () => {
    const { call } = setup({ "wide.txt": lines(1000, (i) => `${i} ${"x".repeat(200)}`) });
    const result = await call("read_file", { path: "wide.txt" });
    expect(result.content.length).toBeLessThanOrEqual(50_000);
    const shown = result.content.split("\n").filter((line) => /^\s*\d+\t/.test(line));
    const lastShown = Number(shown[shown.length - 1].trim().split("\t")[0]);
    expect(lastShown).toBeLessThan(1000);
    expect(result.content).toContain(`Use offset=${lastShown + 1} to continue (1000 lines in total).`);
    const next = await call("read_file", { path: "wide.txt", offset: lastShown + 1 });
    expect(next.content.trimStart().startsWith(`${lastShown + 1}\t${lastShown + 1} `)).toBe(true);
  });

  it("cuts very long lines and says so", async () => {
    const { call } = setup({ "min.js": `${"a".repeat(2500)}\nshort` });
    const result = await call("read_file", { path: "min.js" });
    expect(result.content).toBe(`1\t${"a".repeat(2000)}… [line cut: 500 more chars]\n2\tshort`);
  });

  it("handles CRLF files and empty files", async () => {
    const { call } = setup({ "crlf.txt": "a\r\nb\r\n", "empty.txt": "" });
    expect((await call("read_file", { path: "crlf.txt" })).content).toBe("1\ta\n2\tb");
    expect((await call("read_file", { path: "empty.txt" })).content).toBe("(empty.txt is empty)");
  });

  it("refuses binary files with a clear error", async () => {
    const { call } = setup({ "image.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]) });
    const result = await call("read_file", { path: "image.png" });
    expect(result).toEqual({
      content:
        "Error: image.png is a binary file (PNG image, 7 bytes); read_file only shows text. Use bash (e.g. file, xxd | head) to inspect it.",
      isError: true,
    });
  });

  it("refuses a directory and suggests glob", async () => {
    const { call } = setup({ "src/a.ts": "a" });
    const result = await call("read_file", { path: "src" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/src is a directory.*Use glob/);
  });

  it("reports a missing file and an offset past the end as errors", async () => {
    const { call } = setup({ "a.txt": "one\ntwo" });
    expect(await call("read_file", { path: "nope.txt" })).toEqual({
      content: "Error: file not found: nope.txt. Use glob to find the right path.",
      isError: true,
    });
    expect(await call("read_file", { path: "a.txt", offset: 5 })).toEqual({
      content: "Error: offset 5 is past the end of a.txt, which has 2 lines.",
      isError: true,
    });
  });

  it("rejects bad arguments through the registry", async () => {
    const { call } = setup({ "a.txt": "x" });
    for (const args of [{}, { path: "a.txt", offset: 0 }, { path: "a.txt", limit: 1.5 }]) {
      const result = await call("read_file", args);
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/^Error: invalid arguments for read_file/);
    }
  });

  it("reads files in an allowed read root", async () => {
    const { workspace, call } = setup();
    const { root: skillDir } = setup({ "SKILL.md": "skill body" });
    workspace.allowRead(skillDir);
    expect((await call("read_file", { path: path.join(skillDir, "SKILL.md") })).content).toBe(
      "1\tskill body",
    );
  });

  it("refuses a FIFO at once (never waits for a writer) and never opens a device", async () => {
    const { root, workspace, call } = setup();
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    symlinkSync("/dev/zero", path.join(root, "zero"));
    workspace.allowRead("/dev");
    expect(await call("read_file", { path: "pipe" })).toEqual({
      content:
        "Error: pipe is a named pipe (FIFO), not a regular file; file tools only open regular files, so it was not touched.",
      isError: true,
    });
    expect((await call("read_file", { path: "zero" })).content).toMatch(
      /^Error: \S*dev\/zero is a device, not a regular file/,
    );
  });

  it("reads a huge line in bounded pieces and says how much was cut", async () => {
    const { call } = setup({ "big.txt": `${"é".repeat(3_000_000)}\nshort\r\n` });
    const result = await call("read_file", { path: "big.txt" });
    const [first, second] = result.content.split("\n");
    expect(first).toBe(`1\t${"é".repeat(2000)}… [line cut: 5,996,000 more bytes]`);
    expect(second).toBe("2\tshort");
  });

  it("shows a latin-1 file with a note instead of silently mangling it", async () => {
    const { call } = setup({ "old.txt": Buffer.from("caf\xe9\n", "latin1") });
    expect((await call("read_file", { path: "old.txt" })).content).toBe(
      "1\tcaf\uFFFD\n[old.txt is not valid UTF-8 (latin-1 or another encoding?): bytes that are not UTF-8 show as \uFFFD. edit_file will refuse it.]",
    );
  });

  it("describes what kind of binary a file is, with its size", async () => {
    const { call } = setup({ "a.gz": Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]), blob: Buffer.alloc(3000) });
    expect((await call("read_file", { path: "a.gz" })).content).toMatch(
      /a\.gz is a binary file \(gzip archive, 6 bytes\)/,
    );
    expect((await call("read_file", { path: "blob" })).content).toMatch(
      /blob is a binary file \(binary data, 2\.9 KB\)/,
    );
  });

  it("gives the workspace-relative path as the permission subject", () => {
    const { root, workspace } = setup();
    expect(readFileTool.ruleSubject?.({ path: path.join(root, "src/./a.ts") }, workspace)).toBe("src/a.ts");
    expect(readFileTool.ruleSubject?.({ path: "./src/a.ts" })).toBe("src/a.ts");
    expect(workspace).toBeInstanceOf(Workspace);
  });
});
