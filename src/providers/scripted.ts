/**
 * The scripted provider: answers from a JSON script file instead of a model, for offline
 * demos and tests (`hx --provider scripted --script FILE`).
 *
 * Script format:
 *
 * ```json
 * {
 *   "replies": [
 *     { "reasoning": "optional thinking", "text": "Let me look.",
 *       "toolCalls": [{ "name": "bash", "arguments": { "command": "ls" } }] },
 *     { "expect": "README.md", "text": "There is a README." },
 *     { "error": { "kind": "rate_limit", "message": "Slow down." } }
 *   ]
 * }
 * ```
 *
 * Rules:
 * - Replies are used in order, one per model call. When none are left, the call fails with
 *   a ProviderError of kind "config" saying the script ran out. The file is checked against
 *   a schema first: a wrong field is a "config" error naming the reply and the field.
 * - `toolCalls[].arguments` is an object (sent as its JSON) or a raw string (sent as is, so
 *   a script can send broken JSON). `toolCalls[].id` defaults to `call_<reply>_<call>`
 *   (1-based), so ids are deterministic.
 * - `usage` (fields of hx's Usage, all optional) defaults to an estimate of 4 characters per
 *   token: input from the request, output from the reply.
 * - `expect`: a substring the request (system prompt and messages, as JSON) must contain;
 *   if it does not, the call fails with kind "config". Use it to check what the model saw.
 * - `error`: instead of answering, fail with a ProviderError of this kind and message.
 * - Text and reasoning are streamed through `onDelta` in a few chunks.
 *
 * In code (tests), `new ScriptedProvider(replies)` also takes replies computed from the request
 * (`(request) => reply`), a ProviderError to throw, `push()`es more, and keeps every request it
 * was sent (deep-copied) in `requests`.
 */
import * as z from "zod";
import { errorMessage } from "../core/error-message.js";
import type { StreamDelta } from "../core/events.js";
import {
  type AssistantMessage,
  emptyUsage,
  type Message,
  type ToolCall,
  type Usage,
} from "../core/messages.js";
import { readSmallFileSync } from "../fs/regular-file.js";
import { expected } from "../text/schema-messages.js";
import {
  type CompleteOptions,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  ProviderError,
  type ProviderErrorKind,
} from "./provider.js";

/** Every ProviderErrorKind, so a script can fail with any of them (tsc flags a missing one). */
const ERROR_KINDS = {
  auth: true,
  rate_limit: true,
  context_overflow: true,
  bad_request: true,
  server: true,
  network: true,
  protocol: true,
  aborted: true,
  config: true,
} satisfies Record<ProviderErrorKind, true>;

const count = z
  .number({ error: expected("a whole number of tokens") })
  .refine((n) => Number.isInteger(n) && n >= 0, { error: expected("a whole number of tokens") });

const replySchema = z.strictObject(
  {
    text: z.string({ error: expected("a string") }).optional(),
    reasoning: z.string({ error: expected("a string") }).optional(),
    toolCalls: z
      .array(
        z.strictObject(
          {
            id: z.string({ error: expected("a string") }).optional(),
            name: z.string({ error: expected("a tool name") }),
            arguments: z
              .union([z.string(), z.record(z.string(), z.unknown())], {
                error: expected("an object (sent as its JSON) or a string (sent as is)"),
              })
              .optional(),
          },
          { error: expected('a tool call such as {"name": "bash", "arguments": {...}}') },
        ),
        { error: expected("a list of tool calls") },
      )
      .optional(),
    usage: z
      .strictObject(
        {
          inputTokens: count.optional(),
          outputTokens: count.optional(),
          cachedInputTokens: count.optional(),
          cacheWriteTokens: count.optional(),
          reasoningTokens: count.optional(),
        },
        { error: expected("an object of token counts") },
      )
      .optional(),
    expect: z.string({ error: expected("a string the request must contain") }).optional(),
    error: z
      .strictObject(
        {
          kind: z.enum(Object.keys(ERROR_KINDS) as [ProviderErrorKind, ...ProviderErrorKind[]], {
            error: expected(`one of ${Object.keys(ERROR_KINDS).join(", ")}`),
          }),
          message: z.string({ error: expected("a string") }),
          hint: z.string({ error: expected("a string") }).optional(),
        },
        { error: expected('an object such as {"kind": "server", "message": "..."}') },
      )
      .optional(),
  },
  { error: expected('an object such as {"text": "..."}') },
);

const scriptSchema = z.strictObject(
  { replies: z.array(replySchema, { error: expected("a list of replies") }) },
  { error: expected('an object such as {"replies": [...]}') },
);

/** One reply as a script file holds it. */
type ScriptedReplyData = z.infer<typeof replySchema>;

/** One reply; in code the error may also be a ProviderError to throw as is. */
export interface ScriptedReply extends Omit<ScriptedReplyData, "error" | "toolCalls"> {
  toolCalls?: Array<{ id?: string; name: string; arguments?: unknown }>;
  error?: ScriptedReplyData["error"] | ProviderError;
}

/** A reply computed from the request (e.g. to answer a summarisation prompt). */
export type ReplyFn = (request: ModelRequest) => ScriptedReply;

export interface Script {
  replies: ScriptedReply[];
}

/** A script file larger than this is refused. */
const MAX_SCRIPT_BYTES = 64 * 1024 * 1024;

/** Loads a script file and returns a provider that plays it; a bad file is a "config" error. */
export async function createScriptedProvider(
  scriptPath: string,
  model = "scripted",
): Promise<ScriptedProvider> {
  const read = readSmallFileSync(scriptPath, MAX_SCRIPT_BYTES);
  if (!read.ok) {
    throw new ProviderError(
      "config",
      `Cannot read the script ${scriptPath}: it ${read.reason === "missing" ? "does not exist" : read.message}.`,
      "Pass an existing JSON file with --script FILE.",
    );
  }
  const script = parseScript(read.text, scriptPath);
  return new ScriptedProvider(script.replies, { source: scriptPath, model });
}

/** Plays replies in order; `source` names the script in error messages. */
export class ScriptedProvider implements ModelProvider {
  readonly name = "scripted";
  readonly model: string;
  /** Every request received, deep-copied (later changes to the history do not show here). */
  readonly requests: ModelRequest[] = [];
  private readonly queue: Array<ScriptedReply | ReplyFn>;
  private readonly source: string;

  constructor(replies: Array<ScriptedReply | ReplyFn>, options: { source?: string; model?: string } = {}) {
    this.queue = [...replies];
    this.source = options.source ?? "(in memory)";
    this.model = options.model ?? "scripted";
  }

  /** Adds replies to the end of the script. */
  push(...replies: Array<ScriptedReply | ReplyFn>): void {
    this.queue.push(...replies);
  }

  /** The messages of request `index` (0-based). */
  sent(index: number): readonly Message[] {
    return this.requests[index].messages;
  }

  async complete(request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
    if (options.signal?.aborted) throw new ProviderError("aborted", "Cancelled.");
    this.requests.push(structuredClone(request));
    const number = this.requests.length;
    const next = this.queue.shift();
    if (!next) {
      throw new ProviderError(
        "config",
        `The script ${this.source} ran out: model call ${number} has no reply (it had ${number - 1}).`,
        "Add replies to the script.",
      );
    }
    const reply = typeof next === "function" ? next(request) : next;
    if (reply.error instanceof ProviderError) throw reply.error;
    if (reply.error) throw new ProviderError(reply.error.kind, reply.error.message, reply.error.hint);
    const seen = JSON.stringify({ system: request.system, messages: request.messages });
    if (reply.expect !== undefined && !seen.includes(reply.expect)) {
      throw new ProviderError(
        "config",
        `Script reply ${number} expected the request to contain ${JSON.stringify(reply.expect)}, but it did not.`,
        `Check ${this.source} or the behaviour that builds the request.`,
      );
    }
    return answer(reply, number, seen.length, options.onDelta);
  }
}

function answer(
  reply: ScriptedReply,
  number: number,
  requestChars: number,
  onDelta?: (delta: StreamDelta) => void,
): ModelResponse {
  if (reply.reasoning) for (const text of chunk(reply.reasoning)) onDelta?.({ type: "reasoning", text });
  if (reply.text) for (const text of chunk(reply.text)) onDelta?.({ type: "text", text });
  const toolCalls: ToolCall[] = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${number}_${index + 1}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
  const message: AssistantMessage = { role: "assistant", content: reply.text ?? "", toolCalls };
  if (reply.reasoning) message.reasoning = { text: reply.reasoning };
  const outputChars =
    (reply.text?.length ?? 0) +
    (reply.reasoning?.length ?? 0) +
    toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  const usage: Usage = {
    ...emptyUsage(),
    inputTokens: Math.ceil(requestChars / 4),
    outputTokens: Math.ceil(outputChars / 4),
    ...reply.usage,
  };
  return { message, usage, stopReason: toolCalls.length > 0 ? "tool_calls" : "stop" };
}

/** Splits text into up to three pieces at spaces, so streaming is visible but short. */
function chunk(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    const space = text.indexOf(" ", end);
    if (end < text.length && space !== -1 && space - end < 20) end = space + 1;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/**
 * Parses and validates a script; every problem is a "config" error naming the reply and the
 * field (`Reply 2 in the script s.json: toolCalls.0.name: must be a tool name, got nothing`).
 */
export function parseScript(text: string, source: string): Script {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ProviderError(
      "config",
      `The script ${source} is not valid JSON: ${errorMessage(error)}`,
      'Expected {"replies": [{"text": "..."}]}.',
    );
  }
  const parsed = scriptSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 3).map((issue) => {
    const [first, index, ...rest] = issue.path.map(String);
    const where =
      first === "replies" && index !== undefined
        ? `Reply ${Number(index) + 1}${rest.length ? `: ${rest.join(".")}` : ""}`
        : issue.path.map(String).join(".") || "The top level";
    return `${where}: ${issue.code === "unrecognized_keys" ? unknownKeys(issue.keys) : issue.message}`;
  });
  const more = parsed.error.issues.length > 3 ? ` (and ${parsed.error.issues.length - 3} more)` : "";
  throw new ProviderError(
    "config",
    `The script ${source} is not valid: ${problems.join("; ")}${more}.`,
    'Expected {"replies": [{"text": "...", "toolCalls": [{"name": "...", "arguments": {...}}]}]}; see docs or src/providers/scripted.ts.',
  );
}

function unknownKeys(keys: string[]): string {
  return `unknown key${keys.length > 1 ? "s" : ""} ${keys.map((k) => JSON.stringify(k)).join(", ")}`;
}
