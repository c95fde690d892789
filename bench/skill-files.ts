// Skill folders for the benches: `count` typical SKILL.md files (a folded description, a
// license, metadata, a 40-line body) under `root`.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Every other skill one level down (`.curated/<name>`) unless `flat` (as Claude Code reads them). */
export function writeSkills(root: string, count: number, options: { flat?: boolean } = {}): void {
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(4, "0")}`;
    const dir = path.join(root, i % 2 === 0 || options.flat ? "" : ".curated", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "SKILL.md"),
      `---\nname: ${name}\ndescription: >\n  Does task number ${i} for the project.\n  Use when the user asks about topic ${i}.\nlicense: MIT\nmetadata:\n  version: 1.0\n  author: bench\n---\n\n# ${name}\n\n${"Step by step instructions.\n".repeat(40)}`,
    );
  }
}
