import { type Dirent, readdirSync } from "node:fs";
import path from "node:path";
import { substituteSkillDir } from "./body-expansion.js";
import type { Skill } from "./types.js";

/** How many of a skill's other files load_skill lists. */
const DEFAULT_MAX_LISTED_FILES = 40;
const MAX_FILE_DEPTH = 4;
/** `hx skills eval`'s queries are for the author, not for the model (kept out of the file list). */
const TRIGGERS_PATH = "evals/triggers.json";
const SKIPPED = new Set([".git", "node_modules", "__pycache__", ".DS_Store"]);

/**
 * The text a loaded skill becomes in the conversation: the body wrapped in
 * `<skill name="...">`, then the skill's folder and its other files, so the model can read
 * references/ and run scripts/ with paths it can trust (a remote skill says where its files
 * are instead).
 */
export function formatSkillContent(skill: Skill, maxFiles = DEFAULT_MAX_LISTED_FILES): string {
  const body = skill.remote ? skill.body : substituteSkillDir(skill.body, skill.dir);
  const parts = [`<skill name="${skill.name}">\n${body}\n</skill>`];
  if (skill.remote) {
    const files = skill.remote.describeFiles();
    return files ? [...parts, files].join("\n\n") : parts[0]!;
  }
  parts.push(`Base directory for this skill: ${skill.dir}`);
  const { files, more } = listSkillFiles(skill, maxFiles);
  if (files.length > 0) {
    const lines = files.map((f) => `- ${f}`);
    if (more > 0) lines.push(`- … and ${more} more (list the folder to see them)`);
    parts.push(
      `Other files in this skill (relative to the base directory; read them with read_file when the instructions refer to them):\n${lines.join("\n")}`,
    );
  }
  return parts.join("\n\n");
}

/**
 * The skill's files other than its SKILL.md, relative to its folder, sorted, at most `max`
 * (`more` counts the rest). Symlinked folders are not followed, so a loop cannot trap it.
 */
export function listSkillFiles(skill: Pick<Skill, "dir" | "file">, max = DEFAULT_MAX_LISTED_FILES) {
  const all: string[] = [];
  const limit = max * 10 + 100;
  const visit = (dir: string, rel: string, depth: number) => {
    if (all.length >= limit) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (SKIPPED.has(entry.name)) continue;
      const relative = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const absolute = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_FILE_DEPTH) visit(absolute, relative, depth + 1);
      } else if (absolute !== skill.file && relative !== TRIGGERS_PATH) {
        all.push(relative);
      }
    }
  };
  visit(skill.dir, "", 0);
  return { files: all.slice(0, max), more: Math.max(0, all.length - max) };
}
