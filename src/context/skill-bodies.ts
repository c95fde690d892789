import type { Message } from "../core/messages.js";

/**
 * Skill bodies are recognised by their data, never by a tool name: `load_skill` (and a user's
 * `/skill-name`) put a body in the conversation wrapped as `<skill name="NAME">…</skill>`.
 */
const WRAPPER_START = /^\s*<skill name="([^"]+)"/;
const BLOCK = /<skill name="([^"]+)"[^>]*>[\s\S]*?<\/skill>/g;

/** The skill's name when `content` is a skill body (it starts with the wrapper). */
export function skillNameOf(content: string): string | undefined {
  return WRAPPER_START.exec(content)?.[1];
}

/** A message the compaction layers must keep whole: a tool result holding a skill body. */
export function isSkillBody(message: Message): boolean {
  return message.role === "tool" && skillNameOf(message.content) !== undefined;
}

export interface LoadedSkill {
  name: string;
  /** The text that carried the body (wrapper included), as the model saw it. */
  text: string;
  /** Index of the message it came from. */
  index: number;
}

/**
 * Skills whose bodies are in `messages`, in the order they were (last) loaded. Tool results
 * that are skill bodies count whole; user messages count by each `<skill …>…</skill>` block
 * (user invocations and bodies re-injected by compaction).
 */
export function findLoadedSkills(messages: readonly Message[]): LoadedSkill[] {
  const byName = new Map<string, LoadedSkill>();
  messages.forEach((message, index) => {
    if (message.role === "tool") {
      const name = message.isError ? undefined : skillNameOf(message.content);
      if (name) {
        byName.delete(name);
        byName.set(name, { name, text: message.content, index });
      }
    } else if (message.role === "user") {
      for (const match of message.content.matchAll(BLOCK)) {
        byName.delete(match[1]);
        byName.set(match[1], { name: match[1], text: match[0], index });
      }
    }
  });
  return [...byName.values()];
}
