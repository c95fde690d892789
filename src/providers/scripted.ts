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
 *   a ProviderError of kind "config" saying the script ran out.
 * - `toolCalls[].arguments` is an object (sent as its JSON) or a raw string (sent as is, so
 *   a script can send broken JSON). `toolCalls[].id` defaults to `call_<reply>_<call>`
 *   (1-based), so ids are deterministic.
 * - `usage` (fields of hx's Usage, all optional) defaults to an estimate of 4 characters per
 *   token: input from the request, output from the reply.
 * - `expect`: a substring the request (system prompt and messages, as JSON) must contain;
 *   if it does not, the call fails with kind "config". Use it to check what the model saw.
 * - `error`: instead of answering, fail with a ProviderError of this kind and message.
 * - Text and reasoning are streamed through `onDelta` in a few chunks.
 */
import { readFile } from "node:fs/promises";
import { type AssistantMessage, emptyUsage, type ToolCall, type Usage } from "../core/messages.js";
import {
  type CompleteOptions,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  ProviderError,
  type ProviderErrorKind,
  type StreamDelta,
} from "./provider.js";

export interface ScriptedReply {
  text?: string;
  reasoning?: string;
  toolCalls?: { id?: string; name: string; arguments?: Record<string, unknown> | string }[];
  usage?: Partial<Usage>;
  expect?: string;
  error?: { kind: ProviderErrorKind; message: string; hint?: string };
}

export interface Script {
  replies: ScriptedReply[];
}

/** Loads a script file and returns a provider that plays it; a bad file is a "config" error. */
export async function createScriptedProvider(scriptPath: string, model = "scripted"): Promise<ModelProvider> {
  const script = parseScript(await readScriptFile(scriptPath), scriptPath);
  return scriptedProvider(script, scriptPath, model);
}

/** A provider that plays `script` (already parsed); `source` names it in error messages. */
export function scriptedProvider(script: Script, source: string, model = "scripted"): ModelProvider {
  let next = 0;
  return {
    name: "scripted",
    model,
    async complete(request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
      if (options.signal?.aborted) throw new ProviderError("aborted", "Cancelled.");
      const number = next + 1;
      const reply = script.replies[next];
      if (!reply) {
        throw new ProviderError(
          "config",
          `The script ${source} ran out: model call ${number} has no reply (it has ${script.replies.length}).`,
          "Add replies to the script.",
        );
      }
      next += 1;
      if (reply.error) throw new ProviderError(reply.error.kind, reply.error.message, reply.error.hint);
      const seen = JSON.stringify({ system: request.system, messages: request.messages });
      if (reply.expect !== undefined && !seen.includes(reply.expect)) {
        throw new ProviderError(
          "config",
          `Script reply ${number} expected the request to contain ${JSON.stringify(reply.expect)}, but it did not.`,
          `Check ${source} or the behaviour that builds the request.`,
        );
      }
      return answer(reply, number, seen.length, options.onDelta);
    },
  };
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

async function readScriptFile(scriptPath: string): Promise<string> {
  try {
    return await readFile(scriptPath, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ProviderError(
      "config",
      `Cannot read the script ${scriptPath}${code ? ` (${code})` : ""}.`,
      "Pass an existing JSON file with --script FILE.",
    );
  }
}

/** Validates the script's shape; every problem is a "config" error naming the reply. */
export function parseScript(text: string, source: string): Script {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ProviderError(
      "config",
      `The script ${source} is not valid JSON: ${(error as Error).message}`,
      'Expected {"replies": [{"text": "..."}]}.',
    );
  }
  const replies = (data as { replies?: unknown } | null)?.replies;
  if (!Array.isArray(replies)) {
    throw new ProviderError(
      "config",
      `The script ${source} has no "replies" array.`,
      'Expected {"replies": [...]}.',
    );
  }
  for (const [index, reply] of replies.entries()) checkReply(reply, index + 1, source);
  return { replies: replies as ScriptedReply[] };
}

function checkReply(reply: unknown, number: number, source: string): void {
  const fail = (problem: string) =>
    new ProviderError(
      "config",
      `Reply ${number} in the script ${source} ${problem}.`,
      "See the format in src/providers/scripted.ts.",
    );
  if (!reply || typeof reply !== "object" || Array.isArray(reply)) throw fail("is not an object");
  const { text, reasoning, toolCalls, expect, error } = reply as Record<string, unknown>;
  if (text !== undefined && typeof text !== "string") throw fail('has a "text" that is not a string');
  if (reasoning !== undefined && typeof reasoning !== "string")
    throw fail('has a "reasoning" that is not a string');
  if (expect !== undefined && typeof expect !== "string") throw fail('has an "expect" that is not a string');
  if (error !== undefined && typeof (error as { message?: unknown })?.message !== "string") {
    throw fail('has an "error" without a "message"');
  }
  if (toolCalls === undefined) return;
  if (!Array.isArray(toolCalls)) throw fail('has a "toolCalls" that is not an array');
  for (const call of toolCalls) {
    if (typeof (call as { name?: unknown })?.name !== "string") throw fail("has a tool call without a name");
  }
}
