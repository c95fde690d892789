import type { Message, SkillSpan, ToolResultMeta } from "../core/messages.js";

/**
 * Skill bodies are recognised by their `meta`, never by a tool name or a marker in the text:
 * a `load_skill` result says `meta.skill`, a user message that carries bodies (a `/skill`
 * invocation, bodies re-injected by compaction) lists them in `meta.skills` as spans.
 */
export interface LoadedSkill {
  name: string;
  /** The text that carried the body, as the model saw it. */
  text: string;
  /** Index of the message it came from. */
  index: number;
}

/** A tool output the context layers must leave whole: a skill body, or one marked so. */
export function keepsWhole(meta: ToolResultMeta | undefined): boolean {
  return meta?.skill !== undefined || meta?.keepWhole === true;
}

/** The body of each skill a user message carries, in the order of the spans. */
function skillTexts(content: string, spans: readonly SkillSpan[] | undefined): LoadedSkill[] {
  return (spans ?? []).map((span) => ({
    name: span.name,
    text: content.slice(span.start, span.end),
    index: -1,
  }));
}

/** Skills whose bodies are whole in `messages`, in the order they were (last) loaded. */
export function findLoadedSkills(messages: readonly Message[]): LoadedSkill[] {
  const byName = new Map<string, LoadedSkill>();
  const add = (skill: LoadedSkill) => {
    byName.delete(skill.name);
    byName.set(skill.name, skill);
  };
  messages.forEach((message, index) => {
    if (message.role === "tool") {
      const name = message.isError ? undefined : message.meta?.skill;
      if (name) add({ name, text: message.content, index });
    } else if (message.role === "user") {
      for (const skill of skillTexts(message.content, message.meta?.skills)) add({ ...skill, index });
    }
  });
  return [...byName.values()];
}
