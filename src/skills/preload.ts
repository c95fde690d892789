import type { SkillSpan } from "../core/messages.js";
import { findSkillByName, unknownSkillMessage } from "./load-skill-tool.js";
import { formatSkillContent } from "./skill-content.js";
import type { Skill } from "./types.js";

export interface PreloadedSkills {
  /** The bodies, formatted as load_skill returns them, one after another. */
  text: string;
  /** Where each body is in `text` (for the message's `meta.skills`). */
  spans: SkillSpan[];
  skills: Skill[];
}

/**
 * Skill bodies to put at the start of a prompt (a subagent's, which has no load_skill), by
 * name as load_skill resolves them. A name that is unknown or not loadable by the model is
 * an error naming the skills there are.
 */
export function preloadSkills(
  all: readonly Skill[],
  names: readonly string[],
): PreloadedSkills | { error: string } {
  const loadable = all.filter((s) => !s.disableModelInvocation);
  const chosen: Skill[] = [];
  for (const name of names) {
    const skill = findSkillByName(loadable, name.trim());
    if (!skill) return { error: unknownSkillMessage(name, all) };
    if (skill.remote) {
      return {
        error: `Skill '${skill.name}' comes from ${skill.source} and cannot be preloaded into a subagent; load it with load_skill and pass the subagent what it needs.`,
      };
    }
    if (!chosen.includes(skill)) chosen.push(skill);
  }
  let text = "";
  const spans: SkillSpan[] = [];
  for (const skill of chosen) {
    if (text !== "") text += "\n\n";
    const body = formatSkillContent(skill);
    spans.push({ name: skill.name, start: text.length, end: text.length + body.length });
    text += body;
  }
  return { text, spans, skills: chosen };
}
