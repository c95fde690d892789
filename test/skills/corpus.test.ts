import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildSkillCatalog } from "../../src/skills/catalog.js";
import { loadSkillsFromRoots } from "../../src/skills/discover.js";
import { createLoadSkillTool } from "../../src/skills/load-skill-tool.js";
import { LoadedSkills } from "../../src/skills/loaded-skills.js";
import { validateSkillPath } from "../../src/skills/validate.js";
import { Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";
import { SHARED_DIR } from "./helpers.js";

const CORPUS = path.join(SHARED_DIR, "corpus");
const collections = existsSync(CORPUS)
  ? readdirSync(CORPUS, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()
  : [];

describe.skipIf(collections.length === 0)("the real-world corpus (../shared/corpus)", () => {
  it.each(collections)("%s: every skill is discovered, in the catalog, and loads", async (collection) => {
    const root = path.join(CORPUS, collection);
    const { skills } = loadSkillsFromRoots([{ dir: root, source: "settings" }]);
    const files = findSkillFiles(root);
    expect(skills.map((s) => s.file).sort()).toEqual(files);
    const catalog = buildSkillCatalog(skills);
    const loaded = new LoadedSkills();
    const tool = createLoadSkillTool({ skills, loaded });
    const ctx = {
      workspace: new Workspace(tempDir()),
      signal: new AbortController().signal,
      callId: "c",
      emit: () => {},
    };
    for (const skill of skills) {
      expect(skill.description.length, skill.name).toBeGreaterThan(0);
      expect(catalog.text).toContain(`- ${skill.name}: `);
      const output = await tool.execute({ name: skill.name }, ctx);
      const text = typeof output === "string" ? output : output.content;
      expect(text.startsWith(`<skill name="${skill.name}">\n`), skill.name).toBe(true);
      expect(text).toContain(skill.body.slice(0, 200));
      expect(text).not.toMatch(/^---\nname:/m);
    }
  });

  it("validation verdicts are sensible", () => {
    const verdicts = collections.flatMap((c) =>
      findSkillFiles(path.join(CORPUS, c)).map((file) => validateSkillPath(path.dirname(file))),
    );
    const invalid = verdicts.filter((v) => !v.valid);
    expect(invalid.map((v) => v.name)).toEqual(["claude-api"]);
    expect(invalid[0].diagnostics).toEqual([
      expect.objectContaining({
        level: "error",
        code: "skill.description.invalid",
        keyPath: "description",
        file: invalid[0].path,
        message: expect.stringMatching(/^Description exceeds 1024 character limit \(10\d\d chars\)$/),
      }),
    ]);
  });

  it("reading the whole corpus as one root keeps one skill per name and warns about the rest", () => {
    const { skills, diagnostics } = loadSkillsFromRoots([{ dir: CORPUS, source: "settings" }]);
    const names = skills.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("mcp-builder");
    expect(
      diagnostics.filter((d) => d.code === "skill.shadowed" && d.message.startsWith("skill 'mcp-builder'")),
    ).toHaveLength(1);
  });
});

function findSkillFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findSkillFiles(full));
    else if (entry.name === "SKILL.md") out.push(full);
  }
  return out.sort();
}
