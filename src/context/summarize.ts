import { errorMessage } from "../core/error-message.js";
import { formatCount } from "../core/format-count.js";
import type { Message, SkillSpan, Usage } from "../core/messages.js";
import type { ModelProvider } from "../providers/provider.js";

/** The summariser's system prompt; the request carries no tools. */
export const SUMMARY_SYSTEM_PROMPT = [
  "You write the working memory of a coding agent whose conversation grew too long.",
  "The earlier part of the conversation is replaced by your summary; the agent continues from it",
  "with no other record of what happened. Write plain Markdown, at most about 500 words, with:",
  "## Goal — what the user asked for, with their exact constraints and preferences;",
  "## Done — what was done and learned, naming files, commands and results;",
  "## Decisions — choices made and why;",
  "## Open — errors not yet fixed, questions, and the next steps.",
  "Keep paths, identifiers and error messages exact. Do not invent anything. Do not call tools.",
].join("\n");

export interface SummarizeInput {
  provider: ModelProvider;
  /** The messages being replaced (a previous summary among them is folded in). */
  dropped: readonly Message[];
  /** What the user asked the summary to keep (`/compact focus`). */
  focus?: string;
  /** Budget for the transcript in the request, in characters. */
  maxChars: number;
  signal?: AbortSignal;
}

export interface SummarizeResult {
  summary: string;
  usage?: Usage;
  /** The model call failed; `summary` was built mechanically. `error` says why. */
  error?: string;
}

/** Asks the model for a summary; on failure falls back to a mechanical one. Never throws. */
export async function summarizeMessages(input: SummarizeInput): Promise<SummarizeResult> {
  const transcript = fitToBudget(serializeForSummary(input.dropped), input.maxChars);
  const focus = input.focus?.trim()
    ? `\n\nThe user asked the summary to focus on: ${input.focus.trim()}`
    : "";
  try {
    const response = await input.provider.complete(
      {
        system: SUMMARY_SYSTEM_PROMPT,
        messages: [
          {
            role: "user",
            content: `Summarise this conversation.${focus}\n\n<conversation>\n${transcript}\n</conversation>`,
          },
        ],
        tools: [],
      },
      { signal: input.signal },
    );
    const summary = response.message.content.trim();
    if (summary === "") throw new Error("the model returned an empty summary");
    return { summary, usage: response.usage };
  } catch (error) {
    if (input.signal?.aborted) throw error;
    return {
      summary: mechanicalSummary(input.dropped),
      error: errorMessage(error),
    };
  }
}

const TOOL_RESULT_CHARS = 1_500;
const ARGUMENT_CHARS = 400;

/** The conversation as text for the summariser; skill bodies become a one-line mention. */
function serializeForSummary(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      parts.push(`[user]\n${withSkillsMentioned(message.content, message.meta?.skills)}`);
    } else if (message.role === "assistant") {
      const calls = message.toolCalls.map(
        (c) => `[tool call ${c.name}] ${clip(c.arguments, ARGUMENT_CHARS)}`,
      );
      parts.push(["[assistant]", message.content, ...calls].filter((s) => s !== "").join("\n"));
    } else {
      const skill = message.isError ? undefined : message.meta?.skill;
      const body = skill ? `[skill ${skill} loaded]` : clip(message.content, TOOL_RESULT_CHARS);
      parts.push(`[${message.isError ? "tool error" : "tool result"} ${message.toolName}]\n${body}`);
    }
  }
  return parts.join("\n\n");
}

/** A user message's text with each skill body it carries replaced by a one-line mention. */
function withSkillsMentioned(content: string, spans: readonly SkillSpan[] | undefined): string {
  if (!spans?.length) return content;
  let text = "";
  let from = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    text += `${content.slice(from, span.start)}[skill ${span.name} loaded]`;
    from = span.end;
  }
  return text + content.slice(from);
}

/** Keeps the start (the task) and, mostly, the end (the latest state) when too long. */
function fitToBudget(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars / 3);
  const tail = maxChars - head;
  return `${text.slice(0, head)}\n\n[... ${formatCount(text.length - maxChars)} chars of the middle omitted ...]\n\n${text.slice(text.length - tail)}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more chars)`;
}

/** Used when the model cannot summarise: the user's requests and the actions taken. */
function mechanicalSummary(messages: readonly Message[]): string {
  const requests: string[] = [];
  const actions: string[] = [];
  let lastAnswer = "";
  for (const message of messages) {
    if (message.role === "user") requests.push(`- ${clip(message.content.replace(/\s+/g, " "), 300)}`);
    if (message.role === "assistant") {
      for (const call of message.toolCalls) actions.push(`- ${call.name} ${clip(call.arguments, 120)}`);
      if (message.content.trim()) lastAnswer = message.content;
    }
  }
  const recent = actions.slice(-30);
  return [
    "(Summary written without the model: it could not be asked.)",
    "## Requests",
    ...requests.slice(-10),
    `## Actions (${actions.length}${actions.length > recent.length ? `, last ${recent.length} shown` : ""})`,
    ...recent,
    ...(lastAnswer ? ["## Last answer", clip(lastAnswer, 800)] : []),
  ].join("\n");
}
