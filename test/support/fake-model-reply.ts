/**
 * What the fake model server sends for one queued reply: the ReplyBuilder tests chain, and
 * its rendering as Chat Completions or Anthropic Messages SSE frames or JSON, faults included,
 * and as OpenAI Responses frames (text and function calls, no faults: what Codex reads, for the
 * bench's side-by-side runs).
 */

export interface FakeUsage {
  /** Prompt tokens in total, cached ones included. */
  input?: number;
  output?: number;
  cached?: number;
  /** Anthropic cache_creation_input_tokens. */
  cacheWrite?: number;
  reasoning?: number;
}

type Part =
  | { kind: "reasoning"; text: string; chunks: number; signature?: string }
  | { kind: "text"; text: string; chunks: number }
  | { kind: "tool"; name: string; args: string; chunks: number; id: string };

export type Wire = "openai" | "anthropic" | "responses";

/** Builds one streamed answer; rendered when the request arrives, so chaining after queueing works. */
export class ReplyBuilder {
  readonly parts: Part[] = [];
  usageValues: Required<FakeUsage> = { input: 10, output: 5, cached: 0, cacheWrite: 0, reasoning: 0 };
  finish: "stop" | "length" | "tool_calls" | undefined;
  frameDelayMs = 0;
  dropAfterFrames: number | undefined;
  stallAfterFrames: number | undefined;
  malformedFrame: number | undefined;
  wholeJson = false;
  choiceless = false;
  paddingBytes = 0;
  keepAlives = 0;

  constructor(private readonly nextToolId: () => string) {}

  reasoning(text: string, options: { chunks?: number; signature?: string } = {}): this {
    this.parts.push({ kind: "reasoning", text, chunks: options.chunks ?? 3, signature: options.signature });
    return this;
  }

  text(text: string, options: { chunks?: number } = {}): this {
    this.parts.push({ kind: "text", text, chunks: options.chunks ?? 3 });
    return this;
  }

  /** A tool call; several calls in one reply are parallel calls. `args` object → JSON; string → as is. */
  tool(
    name: string,
    args: Record<string, unknown> | string,
    options: { chunks?: number; id?: string } = {},
  ): this {
    const json = typeof args === "string" ? args : JSON.stringify(args);
    this.parts.push({
      kind: "tool",
      name,
      args: json,
      chunks: options.chunks ?? 3,
      id: options.id ?? this.nextToolId(),
    });
    return this;
  }

  usage(usage: FakeUsage): this {
    this.usageValues = { ...this.usageValues, ...usage };
    return this;
  }

  stop(reason: "stop" | "length" | "tool_calls"): this {
    this.finish = reason;
    return this;
  }

  delay(ms: number): this {
    this.frameDelayMs = ms;
    return this;
  }

  /** Send only the first `frames` SSE frames, then destroy the socket (a dropped stream). */
  dropAfter(frames: number): this {
    this.dropAfterFrames = frames;
    return this;
  }

  /** Send the headers and the first `frames` frames, then nothing, keeping the socket open (a stall). */
  stallAfter(frames: number): this {
    this.stallAfterFrames = frames;
    return this;
  }

  /** Replace frame `index` (0 = the first) with one whose data is not JSON (malformed SSE). */
  malformed(index = 1): this {
    this.malformedFrame = index;
    return this;
  }

  /** Answer a streaming request with the whole answer as one JSON body (a server ignoring `stream`). */
  asJson(): this {
    this.wholeJson = true;
    return this;
  }

  /** Stream no answer at all: OpenAI only `choices: []` chunks, Anthropic only pings. */
  noChoices(): this {
    this.choiceless = true;
    return this;
  }

  /** Send `count` SSE keep-alive comments after the first frame (a server that is still thinking). */
  keepAlive(count: number): this {
    this.keepAlives = count;
    return this;
  }

  /** Add SSE comment frames worth `bytes` before the finish: a huge body that is still valid. */
  padding(bytes: number): this {
    this.paddingBytes = bytes;
    return this;
  }
}

/** Both wires' SSE frames for `builder`, with its faults (no choices, padding, a malformed frame) applied. */
export function renderFrames(wire: Wire, builder: ReplyBuilder): string[] {
  if (wire === "responses") return responsesFrames(builder);
  if (builder.choiceless) return choicelessFrames(wire, builder);
  const frames = wire === "openai" ? openaiFrames(builder) : anthropicFrames(builder);
  if (builder.paddingBytes > 0) frames.splice(frames.length - 2, 0, ...paddingFrames(builder.paddingBytes));
  if (builder.keepAlives > 0) frames.splice(1, 0, ...Array(builder.keepAlives).fill(": keep-alive\n\n"));
  if (builder.malformedFrame !== undefined) {
    frames[Math.min(builder.malformedFrame, frames.length - 1)] =
      wire === "openai"
        ? 'data: {"choices":[{"index":0,"delta":{"content":"bro\n\n'
        : 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"ty\n\n';
  }
  return frames;
}

/** The whole answer as the non-streaming JSON body of the endpoint's wire. */
export function renderJson(wire: Wire, builder: ReplyBuilder): Record<string, unknown> {
  return wire === "anthropic" ? anthropicJson(builder) : openaiJson(builder);
}

function choicelessFrames(wire: Wire, builder: ReplyBuilder): string[] {
  if (wire === "anthropic") return ['event: ping\ndata: {"type":"ping"}\n\n'];
  const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1, model: "fake-model" };
  return [
    `data: ${JSON.stringify({ ...base, choices: [] })}\n\n`,
    `data: ${JSON.stringify({ ...base, choices: [], usage: openaiUsage(builder.usageValues) })}\n\n`,
    "data: [DONE]\n\n",
  ];
}

/** SSE comment frames (ignored by every SSE reader) adding up to about `bytes`. */
function paddingFrames(bytes: number): string[] {
  const piece = 64 * 1024;
  const frames: string[] = [];
  for (let left = bytes; left > 0; left -= piece) frames.push(`: ${"x".repeat(Math.min(piece, left))}\n\n`);
  return frames;
}

// ---------- OpenAI Chat Completions rendering ----------

function openaiFrames(builder: ReplyBuilder): string[] {
  const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1, model: "fake-model" };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const frames = [chunk({ role: "assistant", content: "" })];
  let toolIndex = 0;
  for (const part of builder.parts) {
    if (part.kind === "reasoning") {
      for (const piece of split(part.text, part.chunks)) frames.push(chunk({ reasoning_content: piece }));
    } else if (part.kind === "text") {
      for (const piece of split(part.text, part.chunks)) frames.push(chunk({ content: piece }));
    } else {
      const index = toolIndex++;
      frames.push(
        chunk({
          tool_calls: [
            { index, id: part.id, type: "function", function: { name: part.name, arguments: "" } },
          ],
        }),
      );
      for (const piece of split(part.args, part.chunks)) {
        frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    }
  }
  frames.push(chunk({}, finishReason(builder)));
  frames.push(
    `data: ${JSON.stringify({ ...base, choices: [], usage: openaiUsage(builder.usageValues) })}\n\n`,
  );
  frames.push("data: [DONE]\n\n");
  return frames;
}

function openaiJson(builder: ReplyBuilder): Record<string, unknown> {
  const text = builder.parts.flatMap((p) => (p.kind === "text" ? [p.text] : [])).join("");
  const reasoning = builder.parts.flatMap((p) => (p.kind === "reasoning" ? [p.text] : [])).join("");
  const calls = builder.parts.flatMap((p) =>
    p.kind === "tool" ? [{ id: p.id, type: "function", function: { name: p.name, arguments: p.args } }] : [],
  );
  const message: Record<string, unknown> = { role: "assistant", content: text || null };
  if (reasoning) message.reasoning_content = reasoning;
  if (calls.length > 0) message.tool_calls = calls;
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1,
    model: "fake-model",
    choices: [{ index: 0, message, finish_reason: finishReason(builder) }],
    usage: openaiUsage(builder.usageValues),
  };
}

function openaiUsage(usage: Required<FakeUsage>): Record<string, unknown> {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cached },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
}

function finishReason(builder: ReplyBuilder): string {
  return builder.finish ?? (builder.parts.some((p) => p.kind === "tool") ? "tool_calls" : "stop");
}

// ---------- OpenAI Responses rendering ----------

function responsesFrames(builder: ReplyBuilder): string[] {
  const event = (data: Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
  const response = { id: "resp_fake", object: "response", model: "fake-model" };
  const frames = [
    event({ type: "response.created", response: { ...response, status: "in_progress", output: [] } }),
  ];
  const output: Array<Record<string, unknown>> = [];
  builder.parts.forEach((part, index) => {
    if (part.kind === "reasoning") return;
    const item =
      part.kind === "text"
        ? { id: `msg_${index}`, type: "message", role: "assistant", status: "completed" }
        : {
            id: `fc_${index}`,
            type: "function_call",
            call_id: part.id,
            name: part.name,
            status: "completed",
          };
    frames.push(
      event({
        type: "response.output_item.added",
        output_index: index,
        item: { ...item, status: "in_progress" },
      }),
    );
    if (part.kind === "text") {
      for (const delta of split(part.text, part.chunks))
        frames.push(
          event({
            type: "response.output_text.delta",
            item_id: item.id,
            output_index: index,
            content_index: 0,
            delta,
          }),
        );
      output.push({ ...item, content: [{ type: "output_text", text: part.text, annotations: [] }] });
    } else {
      for (const delta of split(part.args, part.chunks))
        frames.push(
          event({
            type: "response.function_call_arguments.delta",
            item_id: item.id,
            output_index: index,
            delta,
          }),
        );
      output.push({ ...item, arguments: part.args });
    }
    frames.push(event({ type: "response.output_item.done", output_index: index, item: output.at(-1) }));
  });
  const u = builder.usageValues;
  const usage = {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cached },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: u.input + u.output,
  };
  frames.push(
    event({ type: "response.completed", response: { ...response, status: "completed", output, usage } }),
  );
  return frames;
}

// ---------- Anthropic Messages rendering ----------

function anthropicFrames(builder: ReplyBuilder): string[] {
  const event = (data: Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
  const u = builder.usageValues;
  const frames = [
    event({
      type: "message_start",
      message: {
        id: "msg_fake",
        type: "message",
        role: "assistant",
        model: "fake-model",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: Math.max(0, u.input - u.cached - u.cacheWrite),
          cache_read_input_tokens: u.cached,
          cache_creation_input_tokens: u.cacheWrite,
          output_tokens: 1,
        },
      },
    }),
  ];
  builder.parts.forEach((part, index) => {
    if (part.kind === "reasoning") {
      frames.push(
        event({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "" } }),
      );
      for (const piece of split(part.text, part.chunks)) {
        frames.push(
          event({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } }),
        );
      }
      const signature = part.signature ?? "fake-signature";
      frames.push(
        event({ type: "content_block_delta", index, delta: { type: "signature_delta", signature } }),
      );
    } else if (part.kind === "text") {
      frames.push(event({ type: "content_block_start", index, content_block: { type: "text", text: "" } }));
      for (const piece of split(part.text, part.chunks)) {
        frames.push(
          event({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }),
        );
      }
    } else {
      frames.push(
        event({
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: part.id, name: part.name, input: {} },
        }),
      );
      for (const piece of ["", ...split(part.args, part.chunks)]) {
        frames.push(
          event({
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json: piece },
          }),
        );
      }
    }
    frames.push(event({ type: "content_block_stop", index }));
  });
  frames.push(
    event({
      type: "message_delta",
      delta: { stop_reason: anthropicStop(builder), stop_sequence: null },
      usage: { output_tokens: u.output },
    }),
  );
  frames.push(event({ type: "message_stop" }));
  return frames;
}

function anthropicJson(builder: ReplyBuilder): Record<string, unknown> {
  const content = builder.parts.map((part) => {
    if (part.kind === "reasoning") {
      return { type: "thinking", thinking: part.text, signature: part.signature ?? "fake-signature" };
    }
    if (part.kind === "text") return { type: "text", text: part.text };
    return { type: "tool_use", id: part.id, name: part.name, input: parseJson(part.args) };
  });
  const u = builder.usageValues;
  return {
    id: "msg_fake",
    type: "message",
    role: "assistant",
    model: "fake-model",
    content,
    stop_reason: anthropicStop(builder),
    stop_sequence: null,
    usage: {
      input_tokens: Math.max(0, u.input - u.cached - u.cacheWrite),
      cache_read_input_tokens: u.cached,
      cache_creation_input_tokens: u.cacheWrite,
      output_tokens: u.output,
    },
  };
}

function anthropicStop(builder: ReplyBuilder): string {
  const finish = finishReason(builder);
  return finish === "tool_calls" ? "tool_use" : finish === "length" ? "max_tokens" : "end_turn";
}

// ---------- helpers ----------

export function errorBody(wire: Wire, message: string, type: string): Record<string, unknown> {
  // The Responses API answers errors in the Chat Completions shape.
  if (wire === "anthropic") return { type: "error", error: { type, message } };
  return { error: { message, type, code: type, param: null } };
}

export function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

/** Splits text into `count` pieces of near-equal length (fewer if the text is short). */
function split(text: string, count: number): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, count)));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
