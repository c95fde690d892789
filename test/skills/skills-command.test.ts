import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerSkillsCommand } from "../../src/cli/skills-command.js";
import { validateSkillPath } from "../../src/skills/validate.js";
import { tempDir } from "../support/temp-dir.js";
import { REPO_ROOT, writeSkill } from "./helpers.js";

async function hxSkills(args: string[], cwd: string) {
  let stdout = "";
  let stderr = "";
  let code = 0;
  const program = new Command("hx").exitOverride().option("-C, --cwd <dir>");
  registerSkillsCommand(program, {
    getCwd: () => cwd,
    homeDir: path.join(cwd, ".no-home"),
    out: (t) => {
      stdout += t;
    },
    err: (t) => {
      stderr += t;
    },
    setExitCode: (c) => {
      code = c;
    },
  });
  try {
    await program.parseAsync(["skills", ...args], { from: "user" });
  } catch {
    code = 2;
  }
  return { stdout, stderr, code };
}

function project() {
  const root = tempDir();
  mkdirSync(path.join(root, ".git"));
  writeSkill(
    path.join(root, ".agents/skills"),
    "good",
    "name: good\ndescription: Does good things. Use when asked.",
  );
  writeSkill(path.join(root, ".agents/skills"), "bad", "name: Bad_Name\ndescription: d");
  return root;
}

describe("hx skills", () => {
  it("list --json shows name, description, path, source and warnings", async () => {
    const root = project();
    const { stdout, code } = await hxSkills(["list", "--json"], root);
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as { skills: Array<Record<string, unknown>> };
    expect(parsed.skills.map((s) => s.name)).toEqual(["Bad_Name", "good"]);
    expect(parsed.skills[1]).toMatchObject({
      description: "Does good things. Use when asked.",
      path: path.join(root, ".agents/skills/good/SKILL.md"),
      source: "project",
      warnings: [],
      catalog: "full",
    });
  });

  it("list says which descriptions the catalog shortens", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, ".hx"));
    writeFileSync(
      path.join(root, ".hx", "settings.json"),
      JSON.stringify({ skills: { catalogBudget: 600 } }),
    );
    for (const n of ["one", "two", "three"]) {
      writeSkill(
        path.join(root, ".agents/skills"),
        n,
        `name: ${n}\ndescription: ${"long words ".repeat(20)}`,
      );
    }
    const { stdout } = await hxSkills(["list", "-C", root], "/");
    expect(stdout).toMatch(/shortened in catalog/);
    expect(stdout).toMatch(/over its budget/);
  });

  it("show prints the body and files; unknown names fail with the list", async () => {
    const root = project();
    writeFileSync(path.join(root, ".agents/skills/good/notes.md"), "x");
    const shown = await hxSkills(["show", "good"], root);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("Body");
    expect(shown.stdout).toContain("notes.md");
    const missing = await hxSkills(["show", "nope"], root);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Unknown skill 'nope'\. Available: /);
  });

  it("validate --json prints verdicts and exits 1 when any is invalid", async () => {
    const root = project();
    const all = await hxSkills(["validate", "--json"], root);
    expect(all.code).toBe(1);
    const verdicts = JSON.parse(all.stdout) as Array<{
      path: string;
      name: string;
      valid: boolean;
      diagnostics: Array<{ level: string; code: string; file?: string; keyPath?: string; message: string }>;
    }>;
    expect(verdicts.map((v) => [v.name, v.valid])).toEqual([
      ["Bad_Name", false],
      ["good", true],
    ]);
    expect(verdicts[0].diagnostics).toContainEqual({
      level: "error",
      code: "skill.name.invalid",
      file: verdicts[0].path,
      keyPath: "name",
      message: "Skill name 'Bad_Name' must be lowercase",
    });
    expect(Object.keys(verdicts[0]).sort()).toEqual(["diagnostics", "name", "path", "valid"]);

    const one = await hxSkills(["validate", ".agents/skills/good", ".agents/skills/good/SKILL.md"], root);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/2 valid, 0 invalid/);
    const folder = await hxSkills(["validate", "--json", ".agents/skills"], root);
    expect((JSON.parse(folder.stdout) as unknown[]).length).toBe(2);
    const absent = await hxSkills(["validate", "nowhere"], root);
    expect(absent.code).toBe(1);
  });

  it("new writes a valid scaffold and refuses invalid names with the rule", async () => {
    const root = project();
    const created = await hxSkills(["new", "release-notes"], path.join(root));
    expect(created.code).toBe(0);
    const dir = path.join(root, ".agents/skills/release-notes");
    expect(existsSync(path.join(dir, "SKILL.md"))).toBe(true);
    expect(validateSkillPath(dir)).toMatchObject({ valid: true, diagnostics: [] });
    expect(readFileSync(path.join(dir, "SKILL.md"), "utf8")).toMatch(/^---\nname: release-notes\n/);
    expect((await hxSkills(["new", "release-notes"], root)).code).toBe(1);
    const bad = await hxSkills(["new", "Bad--Name"], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/lowercase/);
    expect(bad.stderr).toMatch(/Rule: /);
  });

  it("this repository's own skills are valid", async () => {
    const { stdout, code } = await hxSkills(["validate", "--json", ".agents/skills"], REPO_ROOT);
    const verdicts = JSON.parse(stdout) as Array<{ name: string; valid: boolean }>;
    expect(verdicts.map((v) => v.name).sort()).toEqual(["code-review", "hx-release", "writing-skills"]);
    expect(code).toBe(0);
  });
});
