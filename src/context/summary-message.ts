import type { Message, SkillSpan, UserMessage } from "../core/messages.js";
import type { LoadedSkill } from "./skill-bodies.js";
import { estimateTokens } from "./tokens.js";

/** Opens the message that replaces compacted history (for the model; code reads its meta). */
const SUMMARY_OPEN = "<conversation-summary>";
const SUMMARY_CLOSE = "</conversation-summary>";

export interface SummaryMessageInput {
  summary: string;
  /** Every skill loaded so far, oldest first: the model is told all of them. */
  loadedNames: readonly string[];
  /** Skills whose bodies were in the dropped part, oldest first; re-injected within the cap. */
  reinject: readonly LoadedSkill[];
  /** Token budget for re-injected bodies. */
  skillCapTokens: number;
}

export interface SummaryMessage {
  message: UserMessage;
  /** Re-injected whole or shortened. */
  reinjected: string[];
  /** Listed by name only (no room left under the cap). */
  nameOnly: string[];
  /** Re-injected, but cut to fit the cap. */
  cut: string[];
}

/**
 * The user message that stands in for compacted history: the summary, the list of loaded
 * skills, and the bodies of those that would otherwise leave the context, newest first within
 * the cap (a body that does not fit whole is cut and says so). Its `meta` says it is a summary
 * and where each whole body is, so the next compaction finds them again.
 */
export function buildSummaryMessage(input: SummaryMessageInput): SummaryMessage {
  const blocks: Array<{ name: string; text: string; cut: boolean }> = [];
  const nameOnly: string[] = [];
  let budget = input.skillCapTokens;
  for (const skill of [...input.reinject].reverse()) {
    const body = fitSkill(skill, budget);
    if (!body) {
      nameOnly.push(skill.name);
      continue;
    }
    budget -= estimateTokens(body.text);
    blocks.unshift({ name: skill.name, ...body });
  }
  let content = `${SUMMARY_OPEN}\nThe earlier part of this conversation was compacted to save context. Summary of it:\n\n${input.summary}\n${SUMMARY_CLOSE}`;
  if (input.loadedNames.length > 0) {
    content +=
      `\n\nSkills loaded in this conversation, whose instructions still apply: ${input.loadedNames.join(", ")}.` +
      (nameOnly.length
        ? ` Not repeated here for lack of room (load again if needed): ${nameOnly.join(", ")}.`
        : "");
  }
  const spans: SkillSpan[] = [];
  for (const block of blocks) {
    content += "\n\n";
    // A cut body is not the skill any more: it is not listed, so the model may load it again.
    if (!block.cut)
      spans.push({ name: block.name, start: content.length, end: content.length + block.text.length });
    content += block.text;
  }
  return {
    message: {
      role: "user",
      content,
      meta: spans.length ? { kind: "summary", skills: spans } : { kind: "summary" },
    },
    reinjected: blocks.map((b) => b.name),
    nameOnly,
    cut: blocks.filter((b) => b.cut).map((b) => b.name),
  };
}

const MIN_USEFUL_TOKENS = 200;

/** The skill's text, cut to `budget` tokens; undefined when not even a useful part fits. */
function fitSkill(skill: LoadedSkill, budget: number): { text: string; cut: boolean } | undefined {
  const whole = skill.text.trim();
  if (estimateTokens(whole) <= budget) return { text: whole, cut: false };
  if (budget < MIN_USEFUL_TOKENS) return undefined;
  const note = `\n[skill ${skill.name} cut to fit the context; load it again for the full text]`;
  let keep = Math.max(0, (budget - estimateTokens(note)) * 4);
  let text = `${whole.slice(0, keep).trimEnd()}${note}`;
  while (estimateTokens(text) > budget && keep > 0) {
    keep = Math.floor(keep * 0.8);
    text = `${whole.slice(0, keep).trimEnd()}${note}`;
  }
  return { text, cut: true };
}

/** The message a compaction put in place of the history it summarised. */
export function isSummaryMessage(message: Message): boolean {
  return message.role === "user" && message.meta?.kind === "summary";
}
