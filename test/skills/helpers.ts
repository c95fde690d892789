import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultSkillFields } from "../../src/skills/skill-fields.js";
import type { Skill } from "../../src/skills/types.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** ../shared next to the project; tests reading it skip when it is absent. */
export const SHARED_DIR = path.resolve(REPO_ROOT, "../shared");

/** Writes `<root>/<rel>/SKILL.md` and returns the folder. */
export function writeSkill(root: string, rel: string, frontmatter: string, body = "Body\n"): string {
  const dir = path.join(root, rel);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "SKILL.md"), `---\n${frontmatter}\n---\n${body}`);
  return dir;
}

export function fakeSkill(name: string, description = `Does ${name}.`, extra: Partial<Skill> = {}): Skill {
  return {
    name,
    description,
    body: `# ${name}\nSteps.`,
    dir: `/skills/${name}`,
    file: `/skills/${name}/SKILL.md`,
    source: "project",
    frontmatter: { name, description },
    warnings: [],
    disableModelInvocation: false,
    ...defaultSkillFields(),
    ...extra,
  };
}
