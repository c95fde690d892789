import type { Message, UserMessage } from "../core/messages.js";
import type { LoadedSkill } from "./skill-bodies.js";
import { estimateTokens } from "./tokens.js";

/** Opens the message that replaces compacted history; used to recognise it later. */
export const SUMMARY_OPEN = "<conversation-summary>";
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
 * the cap (a body that does not fit whole is cut and says so).
 */
export function buildSummaryMessage(input: SummaryMessageInput): SummaryMessage {
  const blocks: string[] = [];
  const reinjected: string[] = [];
  const nameOnly: string[] = [];
  const cut: string[] = [];
  let budget = input.skillCapTokens;
  for (const skill of [...input.reinject].reverse()) {
    const body = fitSkill(skill, budget);
    if (!body) {
      nameOnly.push(skill.name);
      continue;
    }
    budget -= estimateTokens(body);
    if (body.endsWith(CUT_NOTE)) cut.push(skill.name);
    blocks.unshift(body);
    reinjected.push(skill.name);
  }
  const parts = [
    `${SUMMARY_OPEN}\nThe earlier part of this conversation was compacted to save context. Summary of it:\n\n${input.summary}\n${SUMMARY_CLOSE}`,
  ];
  if (input.loadedNames.length > 0) {
    parts.push(
      `Skills loaded in this conversation, whose instructions still apply: ${input.loadedNames.join(", ")}.` +
        (nameOnly.length
          ? ` Not repeated here for lack of room (load again if needed): ${nameOnly.join(", ")}.`
          : ""),
    );
  }
  parts.push(...blocks);
  return {
    message: { role: "user", content: parts.join("\n\n") },
    reinjected: reinjected.reverse(),
    nameOnly,
    cut,
  };
}

const MIN_USEFUL_TOKENS = 200;
const CUT_NOTE = "\n[skill text cut to fit the context; load the skill again for the full text]\n</skill>";

/** The skill block, cut to `budget` tokens; undefined when not even a useful part fits. */
function fitSkill(skill: LoadedSkill, budget: number): string | undefined {
  const whole = asBlock(skill);
  if (estimateTokens(whole) <= budget) return whole;
  if (budget < MIN_USEFUL_TOKENS) return undefined;
  const open = `<skill name="${skill.name}">\n`;
  const note = CUT_NOTE;
  const inner = whole.slice(whole.indexOf(">") + 1).replace(/<\/skill>[\s\S]*$/, "");
  let keep = Math.max(0, (budget - estimateTokens(open + note)) * 4);
  let text = `${open}${inner.slice(0, keep).trimEnd()}${note}`;
  while (estimateTokens(text) > budget && keep > 0) {
    keep = Math.floor(keep * 0.8);
    text = `${open}${inner.slice(0, keep).trimEnd()}${note}`;
  }
  return text;
}

/** A tool result may carry the block plus extra lines (its folder, its files); keep them inside. */
function asBlock(skill: LoadedSkill): string {
  const text = skill.text.trim();
  if (text.endsWith("</skill>")) return text;
  const close = text.indexOf("</skill>");
  if (close < 0) return `${text}\n</skill>`;
  return `${text.slice(0, close).trimEnd()}\n${text.slice(close + "</skill>".length).trim()}\n</skill>`;
}

export function isSummaryMessage(message: Message): boolean {
  return message.role === "user" && message.content.startsWith(SUMMARY_OPEN);
}
