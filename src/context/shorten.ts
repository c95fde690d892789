import { formatCount } from "../core/format-count.js";
import type { Message } from "../core/messages.js";
import { keepsWhole } from "./skill-bodies.js";
import { estimateTokens } from "./tokens.js";
import { startOfLastAssistantTurns } from "./turns.js";

export interface ShortenOptions {
  /** Tool results of the last K assistant turns stay whole. Default 3. */
  keepTurns?: number;
  /** Results at most this long are left alone. Default 1,200 chars. */
  minChars?: number;
  /** Characters kept from the start and from the end of a shortened result. */
  headChars?: number;
  tailChars?: number;
}

export interface ShortenResult {
  messages: Message[];
  /** How many results were shortened. */
  shortened: number;
  savedTokens: number;
}

/** Starts the note the model reads in place of what was cut. */
const SHORTENED_NOTE = "[hx: older tool output shortened";

/**
 * Shortens tool results the model has already acted on: those before the last `keepTurns`
 * assistant turns, longer than `minChars`, keep their first and last lines and a note.
 * Skill bodies (and results marked `keepWhole`) are never touched; a shortened result is
 * marked `meta.shortened` and never shortened twice, so the prefix stays stable. Pure:
 * returns new messages, the input is unchanged; pairs are untouched because only `content`
 * and `meta` change.
 */
export function shortenOldToolResults(
  messages: readonly Message[],
  options: ShortenOptions = {},
): ShortenResult {
  const keepFrom = startOfLastAssistantTurns(messages, options.keepTurns ?? 3);
  const minChars = options.minChars ?? 1_200;
  const headChars = options.headChars ?? 500;
  const tailChars = options.tailChars ?? 300;
  let shortened = 0;
  let savedTokens = 0;
  const result = messages.map((message, i) => {
    if (i >= keepFrom || message.role !== "tool" || message.content.length <= minChars) return message;
    if (keepsWhole(message.meta) || message.meta?.shortened) return message;
    const content = shortenText(message.content, headChars, tailChars);
    if (content.length >= message.content.length) return message;
    shortened += 1;
    savedTokens += estimateTokens(message.content) - estimateTokens(content);
    return { ...message, content, meta: { ...message.meta, shortened: true } };
  });
  return { messages: result, shortened, savedTokens };
}

function shortenText(text: string, headChars: number, tailChars: number): string {
  const head = text.slice(0, headChars);
  const tail = text.slice(text.length - tailChars);
  const omitted = text.length - head.length - tail.length;
  return `${head}\n${SHORTENED_NOTE}: ${formatCount(omitted)} chars omitted; run the tool again if you need them]\n${tail}`;
}
