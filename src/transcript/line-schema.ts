import * as z from "zod";
import type { TranscriptLine } from "./events.js";

/**
 * The shape a transcript line must have to be replayed. Anything that fails is skipped with a
 * warning (never thrown), so one damaged line cannot make a session vanish or crash a resume.
 * Unknown fields are kept (a newer hx may add some); a damaged `meta` is dropped, not the
 * message, since it only carries hints.
 */
const meta = z.looseObject({}).optional().catch(undefined);

const toolCall = z.looseObject({ id: z.string(), name: z.string(), arguments: z.string() });

const message = z.discriminatedUnion("role", [
  z.looseObject({
    role: z.literal("user"),
    content: z.string(),
    meta: z
      .looseObject({
        kind: z.string().optional(),
        skills: z.array(z.object({ name: z.string(), start: z.number(), end: z.number() })).optional(),
      })
      .optional()
      .catch(undefined),
  }),
  z.looseObject({
    role: z.literal("assistant"),
    content: z.string(),
    toolCalls: z.array(toolCall),
    reasoning: z
      .looseObject({ text: z.string(), signature: z.string().optional() })
      .optional()
      .catch(undefined),
  }),
  z.looseObject({
    role: z.literal("tool"),
    toolCallId: z.string(),
    toolName: z.string(),
    content: z.string(),
    isError: z.boolean().optional().catch(undefined),
    meta,
  }),
]);

const count = z.number().catch(0);

const line = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("session"),
    id: z.string(),
    cwd: z.string(),
    provider: z.string().catch(""),
    model: z.string().catch(""),
  }),
  z.looseObject({ type: z.literal("resume") }),
  z.looseObject({ type: z.literal("message"), message }),
  z.looseObject({
    type: z.literal("usage"),
    usage: z.looseObject({
      inputTokens: count.optional(),
      outputTokens: count.optional(),
      cachedInputTokens: count.optional(),
      cacheWriteTokens: count.optional(),
      reasoningTokens: count.optional(),
    }),
  }),
  z.looseObject({ type: z.literal("compaction"), messages: z.array(message) }),
  z.looseObject({ type: z.literal("history"), messages: z.array(message) }),
]);

/** A line of JSONL as an event, or why it cannot be replayed. */
export function parseTranscriptLine(text: string): { event: TranscriptLine } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "not valid JSON" };
  }
  const parsed = line.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? ` at ${issue.path.join(".")}` : "";
    return { problem: `not a transcript event (${issue.message.toLowerCase()}${where})` };
  }
  return { event: { at: "", ...parsed.data } as TranscriptLine };
}
