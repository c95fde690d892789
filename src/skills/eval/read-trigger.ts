import path from "node:path";
import type { ToolCall } from "../../core/messages.js";
import type { Skill } from "../types.js";

/**
 * The skills whose SKILL.md a tool call reads, as skill-creator counts a trigger: a string
 * argument (`path`, `file_path`, a shell command) naming the file, absolute or relative to the
 * working folder. `load_skill` is counted by its caller; this is for every other tool.
 */
export function skillsReadBy(call: ToolCall, skills: readonly Skill[], cwd: string): string[] {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return [];
  }
  const texts = stringsIn(args);
  if (texts.length === 0) return [];
  const found: string[] = [];
  for (const skill of skills) {
    if (skill.remote) continue;
    const absolute = path.resolve(skill.file);
    const relative = path.relative(cwd, absolute);
    const names = [absolute, relative, `./${relative}`];
    const named = texts.some((text) =>
      names.some((name) => text === name || path.resolve(cwd, text) === absolute || mentions(text, name)),
    );
    if (named) found.push(skill.name);
  }
  return found;
}

/** `name` as a word of `text` (a shell command: `cat .agents/skills/pdf/SKILL.md`). */
function mentions(text: string, name: string): boolean {
  let at = text.indexOf(name);
  while (at !== -1) {
    const before = at === 0 ? " " : text[at - 1]!;
    const after = text[at + name.length] ?? " ";
    if (/[\s"'=<(]/.test(before) && /[\s"';|&)>]/.test(after)) return true;
    at = text.indexOf(name, at + 1);
  }
  return false;
}

function stringsIn(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (depth > 3 || value === null || typeof value !== "object") return [];
  return Object.values(value as Record<string, unknown>).flatMap((item) => stringsIn(item, depth + 1));
}
