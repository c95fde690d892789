import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  discoverSkills,
  findRepoRoot,
  loadSkillsFromRoots,
  MAX_SKILL_FILE_BYTES,
  skillRoots,
} from "../../src/skills/discover.js";
import { tempDir } from "../support/temp-dir.js";
import { writeSkill } from "./helpers.js";

/** A repo at <tmp>/repo with a nested working folder, and an empty home. */
function layout() {
  const base = tempDir();
  const repo = path.join(base, "repo");
  const sub = path.join(repo, "packages", "app");
  const home = path.join(base, "home");
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  mkdirSync(sub, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { base, repo, sub, home };
}

const names = (result: { skills: Array<{ name: string }> }) => result.skills.map((s) => s.name);

describe("discoverSkills", () => {
  it("walks up from a subdirectory to the repository root, not beyond", () => {
    const { base, repo, sub, home } = layout();
    writeSkill(path.join(repo, ".agents/skills"), "root-skill", "name: root-skill\ndescription: r");
    writeSkill(path.join(sub, ".agents/skills"), "app-skill", "name: app-skill\ndescription: a");
    writeSkill(path.join(repo, ".claude/skills"), "claude-skill", "name: claude-skill\ndescription: c");
    writeSkill(path.join(base, ".agents/skills"), "outside", "name: outside\ndescription: o");
    expect(findRepoRoot(sub)).toBe(repo);
    const result = discoverSkills({ cwd: sub, homeDir: home });
    expect(names(result)).toEqual(["app-skill", "claude-skill", "root-skill"]);
    expect(result.skills.every((s) => s.source === "project")).toBe(true);
  });

  it("outside a repository searches only the working directory", () => {
    const { base, home } = layout();
    const cwd = path.join(base, "plain", "deeper");
    mkdirSync(cwd, { recursive: true });
    writeSkill(path.join(base, "plain", ".agents/skills"), "parent", "name: parent\ndescription: p");
    writeSkill(path.join(cwd, ".agents/skills"), "here", "name: here\ndescription: h");
    expect(names(discoverSkills({ cwd, homeDir: home }))).toEqual(["here"]);
  });

  it("orders roots: nearest project first, .agents before .claude, settings, then user", () => {
    const { repo, sub, home } = layout();
    const roots = skillRoots({ cwd: sub, homeDir: home, extraPaths: ["extra", "~/more"] });
    expect(roots.map((r) => [path.relative(repo, r.dir) || ".", r.source])).toEqual([
      ["packages/app/.agents/skills", "project"],
      ["packages/app/.claude/skills", "project"],
      ["packages/.agents/skills", "project"],
      ["packages/.claude/skills", "project"],
      [".agents/skills", "project"],
      [".claude/skills", "project"],
      ["extra", "settings"],
      [path.relative(repo, path.join(home, "more")), "settings"],
      [path.relative(repo, path.join(home, ".agents/skills")), "user"],
      [path.relative(repo, path.join(home, ".hx/skills")), "user"],
    ]);
  });

  it("project beats user and nearer beats farther; the warning names both paths", () => {
    const { repo, sub, home } = layout();
    const user = writeSkill(
      path.join(home, ".agents/skills"),
      "deploy",
      "name: deploy\ndescription: user one",
    );
    const far = writeSkill(
      path.join(repo, ".agents/skills"),
      "deploy",
      "name: deploy\ndescription: root one",
    );
    const near = writeSkill(
      path.join(sub, ".agents/skills"),
      "deploy",
      "name: deploy\ndescription: near one",
    );
    writeSkill(path.join(home, ".hx/skills"), "only-user", "name: only-user\ndescription: u");
    const result = discoverSkills({ cwd: sub, homeDir: home });
    expect(result.skills.find((s) => s.name === "deploy")).toMatchObject({
      description: "near one",
      source: "project",
    });
    expect(result.skills.find((s) => s.name === "only-user")?.source).toBe("user");
    const shadowed = result.diagnostics.filter((d) => d.code === "skill.shadowed");
    expect(shadowed).toHaveLength(2);
    expect(shadowed[0].file).toBe(path.join(far, "SKILL.md"));
    expect(shadowed[0].message).toBe(
      `skill 'deploy' is shadowed by ${path.join(near, "SKILL.md")} (project precedence); using ${path.join(near, "SKILL.md")}.`,
    );
    expect(shadowed[1].file).toBe(path.join(user, "SKILL.md"));
  });

  it("is deterministic", () => {
    const { repo, home } = layout();
    for (const n of ["b", "a", "c"])
      writeSkill(path.join(repo, ".agents/skills"), n, `name: ${n}\ndescription: ${n}`);
    writeSkill(path.join(repo, ".agents/skills"), "x/dup", "name: a\ndescription: second");
    const first = discoverSkills({ cwd: repo, homeDir: home });
    expect(discoverSkills({ cwd: repo, homeDir: home })).toEqual(first);
    expect(first.skills.find((s) => s.name === "a")?.description).toBe("a");
  });

  it("finds skills in hidden folders and skips .git and node_modules", () => {
    const root = tempDir();
    writeSkill(root, ".curated/gh-fix-ci", "name: gh-fix-ci\ndescription: d");
    writeSkill(root, ".system/deep/nested/tool", "name: tool\ndescription: d");
    writeSkill(root, "node_modules/pkg", "name: pkg\ndescription: d");
    writeSkill(root, ".git/inner", "name: inner\ndescription: d");
    expect(names(loadSkillsFromRoots([{ dir: root, source: "settings" }]))).toEqual(["gh-fix-ci", "tool"]);
  });

  it("does not look for skills inside a skill's own folders", () => {
    const root = tempDir();
    writeSkill(root, "outer", "name: outer\ndescription: d");
    writeSkill(root, "outer/references/example", "name: example\ndescription: d");
    expect(names(loadSkillsFromRoots([{ dir: root, source: "project" }]))).toEqual(["outer"]);
  });

  it("follows symlinks and terminates on a symlink loop", () => {
    const root = tempDir();
    const elsewhere = tempDir();
    writeSkill(elsewhere, "linked", "name: linked\ndescription: d");
    symlinkSync(path.join(elsewhere, "linked"), path.join(root, "linked"));
    mkdirSync(path.join(root, "group"));
    symlinkSync(root, path.join(root, "group", "loop"));
    symlinkSync(path.join(root, "group"), path.join(root, "group", "self"));
    const result = loadSkillsFromRoots([{ dir: root, source: "user" }]);
    expect(names(result)).toEqual(["linked"]);
    expect(result.skills[0].dir).toBe(path.join(root, "linked"));
  });

  it("keeps a project's skills in the project: folder links out of the root and SKILL.md links out of their folder are skipped", () => {
    const root = tempDir();
    const elsewhere = tempDir();
    writeSkill(elsewhere, "linked", "name: linked\ndescription: d");
    symlinkSync(path.join(elsewhere, "linked"), path.join(root, "linked"));
    writeFileSync(path.join(elsewhere, "passwd"), "root:x:0:0\n");
    mkdirSync(path.join(root, "leak"));
    symlinkSync(path.join(elsewhere, "passwd"), path.join(root, "leak", "SKILL.md"));
    writeSkill(root, "inside", "name: inside\ndescription: d");
    const result = loadSkillsFromRoots([{ dir: root, source: "project" }]);
    expect(names(result)).toEqual(["inside"]);
    expect(result.diagnostics.map((d) => d.code).sort()).toEqual(["skill.outside", "skill.outside"]);
    // User roots follow folder links (a dotfiles checkout), but never a SKILL.md link out of its folder.
    const user = loadSkillsFromRoots([{ dir: root, source: "user" }]);
    expect(names(user)).toEqual(["inside", "linked"]);
    expect(user.diagnostics.map((d) => d.code)).toEqual(["skill.outside"]);
  });

  it("skips a FIFO or an oversized SKILL.md without opening it for reading", () => {
    const root = tempDir();
    mkdirSync(path.join(root, "pipe"));
    execFileSync("mkfifo", [path.join(root, "pipe", "SKILL.md")]);
    mkdirSync(path.join(root, "big"));
    writeFileSync(
      path.join(root, "big", "SKILL.md"),
      `---\nname: big\ndescription: d\n---\n${"x".repeat(MAX_SKILL_FILE_BYTES)}`,
    );
    const result = loadSkillsFromRoots([{ dir: root, source: "project" }]);
    expect(names(result)).toEqual([]);
    expect(result.diagnostics.map((d) => d.code).sort()).toEqual(["skill.too-large", "skill.unreadable"]);
    expect(result.diagnostics.map((d) => d.message).join(" ")).toContain("named pipe");
  });

  it("counts a file reached through two roots once, without a warning", () => {
    const { repo, home } = layout();
    writeSkill(path.join(repo, ".agents/skills"), "shared", "name: shared\ndescription: d");
    symlinkSync(path.join(repo, ".agents/skills"), path.join(repo, ".claude-skills-link"));
    mkdirSync(path.join(repo, ".claude"));
    symlinkSync(path.join(repo, ".agents/skills"), path.join(repo, ".claude", "skills"));
    const result = discoverSkills({ cwd: repo, homeDir: home });
    expect(names(result)).toEqual(["shared"]);
    expect(result.diagnostics).toEqual([]);
  });

  it("bounds depth and count with a diagnostic", () => {
    const root = tempDir();
    writeSkill(root, "a/b/c/d", "name: deep\ndescription: d");
    const shallow = loadSkillsFromRoots([{ dir: root, source: "project" }], { maxDepth: 2 });
    expect(names(shallow)).toEqual([]);
    expect(shallow.diagnostics).toMatchObject([
      { code: "skill.limit.depth", message: expect.stringMatching(/deeper than 2 folders/) },
    ]);
    for (const n of ["s1", "s2", "s3"]) writeSkill(root, n, `name: ${n}\ndescription: d`);
    const few = loadSkillsFromRoots([{ dir: root, source: "project" }], { maxSkills: 2 });
    expect(few.skills).toHaveLength(2);
    expect(few.diagnostics).toMatchObject([
      { code: "skill.limit.count", message: expect.stringMatching(/Stopped after 2 skills/) },
    ]);
  });

  it("loads malformed files leniently and skips unreadable ones, with diagnostics", () => {
    const root = tempDir();
    writeSkill(root, "loose", "name: loose\ndescription: Use when: anything");
    writeSkill(root, "nofront", "").toString();
    writeFileSync(path.join(root, "nofront", "SKILL.md"), "# No frontmatter\nJust text.");
    const locked = writeSkill(root, "locked", "name: locked\ndescription: d");
    chmodSync(path.join(locked, "SKILL.md"), 0o000);
    const result = loadSkillsFromRoots([{ dir: root, source: "project" }]);
    chmodSync(path.join(locked, "SKILL.md"), 0o644);
    const isRoot = process.getuid?.() === 0;
    expect(names(result)).toEqual(isRoot ? ["locked", "loose", "nofront"] : ["loose", "nofront"]);
    expect(result.skills.find((s) => s.name === "loose")?.description).toBe("Use when: anything");
    expect(result.skills.find((s) => s.name === "nofront")?.description).toBe("No frontmatter");
    expect(
      result.diagnostics.some(
        (d) =>
          d.code === "skill.frontmatter" && d.file?.includes("loose") && d.message.includes("not valid YAML"),
      ),
    ).toBe(true);
    if (!isRoot)
      expect(result.diagnostics).toContainEqual({
        level: "warning",
        code: "skill.unreadable",
        file: path.join(locked, "SKILL.md"),
        message: "skipped: cannot read it (EACCES).",
      });
  });

  it("accepts a lowercase skill.md and resolves settings paths from the project root", () => {
    const { repo, home } = layout();
    const dir = path.join(repo, "tools", "lower");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "skill.md"), "---\nname: lower\ndescription: d\n---\nB");
    const result = discoverSkills({ cwd: repo, homeDir: home, extraPaths: ["tools"] });
    expect(result.skills.map((s) => [s.name, s.source, path.basename(s.file)])).toEqual([
      ["lower", "settings", "skill.md"],
    ]);
  });
});
