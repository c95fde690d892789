import type { SkillSpan } from "../core/messages.js";
import type { LoadedSkills } from "./load-skill-tool.js";
import { formatSkillContent } from "./skill-content.js";
import type { Skill } from "./types.js";

/** A prompt of the form `/skill-name args`, resolved to its skill. */
export interface SkillInvocation {
  skill: Skill;
  /** What the user wrote after the name (trimmed; may be empty). */
  args: string;
  /**
   * The user message to send instead of the prompt: the skill's instructions (as load_skill
   * returns them) and the user's request.
   */
  text: string;
  /** Where the skill's instructions are in `text` (for the user message's `meta.skills`). */
  span: SkillSpan;
}

/**
 * `/name args` → the skill's instructions plus the request, like `/name` in Claude Code;
 * works for disable-model-invocation skills too. Undefined when the prompt is not a slash
 * command or names no skill, so `/exit` and friends stay with the REPL.
 *
 * The caller should also call `workspace.allowRead(invocation.skill.dir)`. With `loaded`,
 * the skill counts as loaded, so a later load_skill call answers with a short note.
 */
export function expandSkillInvocation(
  prompt: string,
  skills: readonly Skill[],
  loaded?: LoadedSkills,
): SkillInvocation | undefined {
  const match = /^\s*\/(\S+)(?:\s+([\s\S]*))?$/.exec(prompt);
  if (!match) return undefined;
  const skill = skills.find((s) => s.name === match[1]);
  if (!skill) return undefined;
  const args = (match[2] ?? "").trim();
  loaded?.add(skill.name);
  const request = args
    ? `The user invoked the skill /${skill.name} with this request:\n${args}`
    : `The user invoked the skill /${skill.name}. Follow its instructions.`;
  const body = formatSkillContent(skill);
  return {
    skill,
    args,
    text: `${body}\n\n${request}`,
    span: { name: skill.name, start: 0, end: body.length },
  };
}
