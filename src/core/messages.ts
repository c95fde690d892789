/**
 * Provider-neutral conversation messages. Providers translate these to and from their wire
 * formats; everything above the provider layer speaks only these types.
 */

/** One tool call the model asked for. `arguments` is the raw JSON text the model produced. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Facts about a message that code reads as fields, never by parsing its text. `meta` stays
 * on our side: providers never send it to the model; transcripts keep it, so a resumed
 * session still knows which messages carry skill bodies, summaries or reminders.
 */
type MessageKind = "reminder" | "summary" | "announcement" | "feedback";

/** A skill's instructions inside a user message: `content.slice(start, end)` is that text. */
export interface SkillSpan {
  name: string;
  start: number;
  end: number;
}

export interface UserMessageMeta {
  /** Who wrote it and why; absent for what the user typed. */
  kind?: MessageKind;
  /** Whole skill bodies in the content: a `/skill` invocation, bodies re-injected by compaction. */
  skills?: SkillSpan[];
}

export interface UserMessage {
  role: "user";
  content: string;
  meta?: UserMessageMeta;
}

/** Reasoning ("thinking") the model produced before answering. */
interface Reasoning {
  text: string;
  /** Anthropic signs thinking blocks; the signature must be sent back unchanged. */
  signature?: string;
}

export interface AssistantMessage {
  role: "assistant";
  content: string;
  toolCalls: ToolCall[];
  reasoning?: Reasoning;
}

export interface ToolResultMessage {
  role: "tool";
  toolCallId: string;
  toolName: string;
  content: string;
  /** Images the tool returned (base64): sent to models that take images; `content` notes each. */
  images?: ToolImage[];
  isError?: boolean;
  meta?: ToolResultMeta;
}

/** An image in a tool result, base64-encoded. */
export interface ToolImage {
  mimeType: string;
  data: string;
}

export interface ToolResultMeta {
  /** The whole content is this skill's instructions (a `load_skill` result). */
  skill?: string;
  /** Context shortening must leave this result whole. Skill bodies are kept whole anyway. */
  keepWhole?: boolean;
  /** Already shortened by the context layer (never shortened twice). */
  shortened?: boolean;
  /** The model's plan after a `todo_write` (front ends show it: an editor's plan view). */
  plan?: ReadonlyArray<{ content: string; status: "pending" | "in_progress" | "completed" }>;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export interface Usage {
  /** Prompt tokens in total, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens served from the provider's prefix cache. */
  cachedInputTokens: number;
  /** Prompt tokens written to the cache (Anthropic). */
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
}

export function addUsage(total: Usage, more: Usage): Usage {
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    cachedInputTokens: total.cachedInputTokens + more.cachedInputTokens,
    cacheWriteTokens: total.cacheWriteTokens + more.cacheWriteTokens,
    reasoningTokens: total.reasoningTokens + more.reasoningTokens,
  };
}

export function userMessage(content: string, meta?: UserMessageMeta): UserMessage {
  return meta ? { role: "user", content, meta } : { role: "user", content };
}
