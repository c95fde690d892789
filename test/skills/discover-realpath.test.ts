// Skills at scale: the walk resolves one real path per root (and per linked folder), not two or
// three per SKILL.md; a SKILL.md that is a link is still resolved and checked.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDir } from "../support/temp-dir.js";

const calls = vi.hoisted(() => ({ realpath: 0 }));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const counted = ((p: never, o?: never) => {
    calls.realpath += 1;
    return fs.realpathSync(p, o);
  }) as typeof fs.realpathSync;
  counted.native = ((p: never, o?: never) => {
    calls.realpath += 1;
    return fs.realpathSync.native(p, o);
  }) as typeof fs.realpathSync.native;
  return { ...fs, default: { ...fs, realpathSync: counted }, realpathSync: counted };
});

const { loadSkillsFromRoots } = await import("../../src/skills/discover.js");

function skill(root: string, name: string): void {
  mkdirSync(path.join(root, name), { recursive: true });
  writeFileSync(path.join(root, name, "SKILL.md"), `---\nname: ${name}\ndescription: d\n---\nBody.\n`);
}

describe("skill discovery at scale", () => {
  it("reads 200 skills with one realpath for the root", () => {
    const root = tempDir("hx-realpath-");
    for (let i = 0; i < 200; i++) skill(root, `s-${String(i).padStart(3, "0")}`);
    calls.realpath = 0;
    const result = loadSkillsFromRoots([{ dir: root, source: "project" }]);
    expect(result.skills).toHaveLength(200);
    expect(calls.realpath).toBe(1);
  });

  it("still resolves a linked SKILL.md: inside the root it is read, outside it is refused", () => {
    const base = tempDir("hx-realpath-links-");
    const root = path.join(base, "skills");
    skill(root, "plain");
    skill(root, "target");
    mkdirSync(path.join(root, "linked"));
    symlinkSync(path.join(root, "target", "SKILL.md"), path.join(root, "linked", "SKILL.md"));
    writeFileSync(path.join(base, "secret"), "---\nname: leak\ndescription: d\n---\nSecret.\n");
    mkdirSync(path.join(root, "leak"));
    symlinkSync(path.join(base, "secret"), path.join(root, "leak", "SKILL.md"));
    const result = loadSkillsFromRoots([{ dir: root, source: "project" }]);
    expect(result.skills.map((s) => s.name).sort()).toEqual(["plain", "target"]);
    expect(result.diagnostics.map((d) => d.code)).toContain("skill.outside");
  });
});
