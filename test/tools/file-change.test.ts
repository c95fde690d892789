import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { changeCounts, PLAIN_DIFF_STYLE, renderDiff } from "../../src/cli/diff-view.js";
import { previewEdit, previewWrite } from "../../src/tools/file-change.js";
import { Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";

const setup = () => {
  const dir = tempDir("hx-preview-");
  return { dir, workspace: new Workspace(dir) };
};

describe("file change previews", () => {
  it("an edit's preview is the replacement, without touching the file; its diff shows it", () => {
    const { dir, workspace } = setup();
    writeFileSync(path.join(dir, "a.txt"), "one\r\ntwo\r\nthree\r\n");
    const change = previewEdit(workspace, { path: "a.txt", old_text: "two", new_text: "TWO\nand more" });
    expect(change).toEqual({
      path: "a.txt",
      before: "one\ntwo\nthree\n",
      after: "one\nTWO\nand more\nthree\n",
    });
    expect(readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("one\r\ntwo\r\nthree\r\n");
    expect(changeCounts(change!)).toEqual({ added: 2, removed: 1 });
    expect(renderDiff(change!, PLAIN_DIFF_STYLE)).toEqual([
      "@@ -1,3 +1,4 @@",
      " one",
      "-two",
      "+TWO",
      "+and more",
      " three",
    ]);
  });

  it("no preview for an edit that would fail, a path outside the workspace, or a FIFO", () => {
    const { dir, workspace } = setup();
    writeFileSync(path.join(dir, "a.txt"), "x x\n");
    expect(previewEdit(workspace, { path: "a.txt", old_text: "y", new_text: "z" })).toBeUndefined();
    expect(previewEdit(workspace, { path: "a.txt", old_text: "x", new_text: "z" })).toBeUndefined();
    expect(
      previewEdit(workspace, { path: "a.txt", old_text: "x", new_text: "z", replace_all: true })?.after,
    ).toBe("z z\n");
    expect(previewWrite(workspace, "../escape.txt", "hi")).toBeUndefined();
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    expect(previewWrite(workspace, "pipe", "hi")).toBeUndefined();
  });

  it("a write to a new file shows every line as added; neutralises what it shows", () => {
    const { workspace } = setup();
    const change = previewWrite(workspace, "new/file.txt", "a\x1b[2Jb\n");
    expect(change).toEqual({ path: "new/file.txt", before: "", after: "a\x1b[2Jb\n" });
    expect(renderDiff(change!, PLAIN_DIFF_STYLE)).toEqual(["@@ -0,0 +1,1 @@", "+ab"]);
    const long = previewWrite(workspace, "long.txt", "x\n".repeat(50));
    expect(renderDiff(long!, PLAIN_DIFF_STYLE, 10)).toHaveLength(10);
    expect(renderDiff(long!, PLAIN_DIFF_STYLE, 10).at(-1)).toBe("… 42 more lines");
  });
});
