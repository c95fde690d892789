import type { SkillSpan } from "../core/messages.js";
import { substituteArguments } from "./arguments.js";
import type { LoadedSkills } from "./loaded-skills.js";
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
 * works for disable-model-invocation skills too. The arguments fill the body's placeholders
 * (`$ARGUMENTS`, `$1`, `$name`: see arguments.ts); a body without any gets them appended as
 * the request. Undefined when the prompt is not a slash command or names no skill the user
 * may invoke, so `/exit` and friends stay with the REPL.
 *
 * With `loaded`, the skill counts as loaded (a later load_skill call answers with a short
 * note) and its folder becomes readable.
 */
export function expandSkillInvocation(
  prompt: string,
  skills: readonly Skill[],
  loaded?: LoadedSkills,
  /** The body already has its arguments (substituted: whether it had placeholders). */
  prepared?: { substituted: boolean },
): SkillInvocation | undefined {
  const match = parseSlashPrompt(prompt);
  if (!match) return undefined;
  const skill = skills.find((s) => s.name === match.name);
  if (!skill?.userInvocable) return undefined;
  const { args } = match;
  loaded?.add({ name: skill.name, ...(skill.remote ? {} : { dir: skill.dir }) });
  const { text: substitutedBody, substituted } = prepared
    ? { text: skill.body, substituted: prepared.substituted }
    : substituteArguments(skill.body, args, skill.argumentNames);
  const request =
    args && !substituted
      ? `The user invoked the skill /${skill.name} with this request:\n${args}`
      : `The user invoked the skill /${skill.name}${args ? ` with: ${args}` : ""}. Follow its instructions.`;
  const body = formatSkillContent({ ...skill, body: substitutedBody });
  return {
    skill,
    args,
    text: `${body}\n\n${request}`,
    span: { name: skill.name, start: 0, end: body.length },
  };
}

/** `/name rest` → its name and the trimmed rest; undefined for anything else. */
export function parseSlashPrompt(prompt: string): { name: string; args: string } | undefined {
  const match = /^\s*\/(\S+)(?:\s+([\s\S]*))?$/.exec(prompt);
  return match ? { name: match[1], args: (match[2] ?? "").trim() } : undefined;
}
