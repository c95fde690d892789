import { existsSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isInside, Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";
import { setup, writeFiles } from "./helpers.js";

function workspaceWithOutside() {
  const root = tempDir("hx-ws-");
  const outside = tempDir("hx-outside-");
  writeFiles(root, { "src/a.ts": "a" });
  writeFiles(outside, { "secret.txt": "secret" });
  return { root, outside, workspace: new Workspace(root) };
}

function expectOutside(fn: () => unknown, root: string) {
  expect(fn).toThrow(/outside the workspace/);
  expect(fn).toThrow(root);
}

describe("Workspace", () => {
  it("resolves relative, ./ and absolute paths inside the root", () => {
    const { root, workspace } = workspaceWithOutside();
    expect(workspace.resolveForRead("src/a.ts")).toBe(path.join(root, "src/a.ts"));
    expect(workspace.resolveForRead("./src/../src/a.ts")).toBe(path.join(root, "src/a.ts"));
    expect(workspace.resolveForWrite(path.join(root, "new/file.ts"))).toBe(path.join(root, "new/file.ts"));
    expect(workspace.resolveForRead(".")).toBe(root);
  });

  it("rejects ../ escapes and absolute paths outside, for read and write, naming the workspace", () => {
    const { root, outside, workspace } = workspaceWithOutside();
    for (const input of ["../x", "src/../../x", path.join(outside, "secret.txt"), "/etc/passwd"]) {
      expectOutside(() => workspace.resolveForRead(input), root);
      expectOutside(() => workspace.resolveForWrite(input), root);
    }
  });

  it("expands ~ to the home directory and rejects it when home is outside", () => {
    const { root, workspace } = workspaceWithOutside();
    expect(isInside(os.homedir(), root)).toBe(false);
    expectOutside(() => workspace.resolveForRead("~"), root);
    expectOutside(() => workspace.resolveForWrite("~/.bashrc"), root);
  });

  it("treats a name starting with ~ or .. as an ordinary name inside the root", () => {
    const { root, workspace } = workspaceWithOutside();
    expect(workspace.resolveForWrite("~notes")).toBe(path.join(root, "~notes"));
    expect(workspace.resolveForWrite("..hidden")).toBe(path.join(root, "..hidden"));
  });

  it("rejects a symlinked folder that points outside", () => {
    const { root, outside, workspace } = workspaceWithOutside();
    symlinkSync(outside, path.join(root, "link"));
    expectOutside(() => workspace.resolveForRead("link/secret.txt"), root);
    expectOutside(() => workspace.resolveForWrite("link/new.txt"), root);
  });

  it("rejects a symlinked file that points outside", () => {
    const { root, outside, workspace } = workspaceWithOutside();
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "secret-link"));
    expectOutside(() => workspace.resolveForRead("secret-link"), root);
    expectOutside(() => workspace.resolveForWrite("secret-link"), root);
  });

  it("rejects a dangling symlink whose target lies outside, so nothing can be created through it", () => {
    const { root, outside, workspace } = workspaceWithOutside();
    const target = path.join(outside, "created-through-link.txt");
    symlinkSync(target, path.join(root, "dangling"));
    expectOutside(() => workspace.resolveForWrite("dangling"), root);
    expectOutside(() => workspace.resolveForRead("dangling"), root);
    // A relative dangling link to a folder outside, with more path below it.
    symlinkSync(path.relative(root, path.join(outside, "nope")), path.join(root, "dangling-dir"));
    expectOutside(() => workspace.resolveForWrite("dangling-dir/deeper/file.txt"), root);
    expect(existsSync(target)).toBe(false);
  });

  it("follows symlinks that stay inside, including dangling ones, to their real target", () => {
    const { root, workspace } = workspaceWithOutside();
    symlinkSync(path.join(root, "src"), path.join(root, "src-link"));
    symlinkSync("src/later.ts", path.join(root, "later-link"));
    expect(workspace.resolveForRead("src-link/a.ts")).toBe(path.join(root, "src/a.ts"));
    expect(workspace.resolveForWrite("later-link")).toBe(path.join(root, "src/later.ts"));
  });

  it("reports a symlink loop instead of hanging", () => {
    const { root, workspace } = workspaceWithOutside();
    symlinkSync("loop-b", path.join(root, "loop-a"));
    symlinkSync("loop-a", path.join(root, "loop-b"));
    expect(() => workspace.resolveForWrite("loop-a")).toThrow(/symbolic links/);
  });

  it("accepts a workspace root given through a symlink", () => {
    const { root } = workspaceWithOutside();
    const alias = path.join(tempDir("hx-alias-"), "alias");
    symlinkSync(root, alias);
    const workspace = new Workspace(alias);
    expect(workspace.root).toBe(root);
    expect(workspace.resolveForWrite(path.join(alias, "src/b.ts"))).toBe(path.join(root, "src/b.ts"));
  });

  it("rejects empty paths and NUL characters", () => {
    const { workspace } = workspaceWithOutside();
    expect(() => workspace.resolveForRead("  ")).toThrow(/non-empty/);
    expect(() => workspace.resolveForWrite("a\0b")).toThrow(/NUL/);
  });

  it("makes allowRead roots readable but never writable", () => {
    const { root, outside, workspace } = workspaceWithOutside();
    const file = path.join(outside, "secret.txt");
    expectOutside(() => workspace.resolveForRead(file), root);
    workspace.allowRead(outside);
    expect(workspace.resolveForRead(file)).toBe(file);
    expectOutside(() => workspace.resolveForWrite(file), root);
    // A sibling folder whose name starts with the read root's name is not inside it.
    const parent = tempDir("hx-parent-");
    writeFiles(parent, { "skill/SKILL.md": "s", "skill-sibling/x": "x" });
    workspace.allowRead(path.join(parent, "skill"));
    expect(workspace.resolveForRead(path.join(parent, "skill/SKILL.md"))).toBe(
      path.join(parent, "skill/SKILL.md"),
    );
    expectOutside(() => workspace.resolveForRead(path.join(parent, "skill-sibling/x")), root);
  });

  it("an allowRead grant is taken back by its revoke; the folder stays readable while another grant holds it", () => {
    const { root, outside, workspace } = workspaceWithOutside();
    const file = path.join(outside, "secret.txt");
    const first = workspace.allowRead(outside);
    const second = workspace.allowRead(outside);
    first();
    first(); // once only: the second grant still holds
    expect(workspace.resolveForRead(file)).toBe(file);
    second();
    expectOutside(() => workspace.resolveForRead(file), root);
  });

  it("gives permission rules a workspace-relative, symlink-resolved subject and never throws", () => {
    const { root, outside, workspace } = workspaceWithOutside();
    symlinkSync(path.join(root, "src"), path.join(root, "alias"));
    expect(workspace.pathForRules(path.join(root, "src/a.ts"))).toBe("src/a.ts");
    expect(workspace.pathForRules("./alias/../src/x.ts")).toBe("src/x.ts");
    expect(workspace.pathForRules("alias/a.ts")).toBe("src/a.ts");
    expect(workspace.pathForRules("../x")).toBe(path.join(path.dirname(root), "x"));
    expect(workspace.pathForRules(path.join(outside, "secret.txt"))).toBe(path.join(outside, "secret.txt"));
    expect(workspace.pathForRules("")).toBe("");
  });

  it("isInside does not confuse a sibling with a shared prefix", () => {
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b/c", "/a/b")).toBe(true);
    expect(isInside("/a/bc", "/a/b")).toBe(false);
    expect(isInside("/a", "/a/b")).toBe(false);
    expect(isInside("/a/b/..c", "/a/b")).toBe(true);
  });
});

describe("tools refuse paths outside the workspace", () => {
  it("read_file, write_file, edit_file, glob and grep all return an error result naming the workspace", async () => {
    const { root, call } = setup({ "a.txt": "hello" });
    const outside = tempDir("hx-outside-");
    writeFiles(outside, { "secret.txt": "secret hello" });
    symlinkSync(outside, path.join(root, "escape"));
    symlinkSync(path.join(outside, "planted.txt"), path.join(root, "dangling"));
    const attempts: [string, unknown][] = [
      ["read_file", { path: "../secret.txt" }],
      ["read_file", { path: "escape/secret.txt" }],
      ["write_file", { path: path.join(outside, "new.txt"), content: "x" }],
      ["write_file", { path: "dangling", content: "planted" }],
      ["write_file", { path: "escape/new.txt", content: "x" }],
      ["edit_file", { path: "escape/secret.txt", old_text: "secret", new_text: "public" }],
      ["glob", { pattern: "*", path: "escape" }],
      ["grep", { pattern: "hello", path: outside }],
    ];
    for (const [name, args] of attempts) {
      const result = await call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.content).toContain(`outside the workspace ${root}`);
    }
    expect(existsSync(path.join(outside, "planted.txt"))).toBe(false);
    expect(existsSync(path.join(outside, "new.txt"))).toBe(false);
  });
});
