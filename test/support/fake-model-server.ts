/**
 * A fake model server for tests: OpenAI Chat Completions and Anthropic Messages over real
 * HTTP on 127.0.0.1 (random port, never another interface), answering from a queue of
 * scripted replies. Use it from provider tests and to drive the real `hx` binary:
 *
 *   --provider openai    --base-url ${server.url}/v1
 *   --provider deepseek  --base-url ${server.url}
 *   --provider anthropic --base-url ${server.url}
 *
 * Endpoints: `POST …/chat/completions` (any prefix: `/chat/completions`, `/v1/chat/completions`)
 * and `POST …/messages` (`/v1/messages`). Each queued reply is rendered in the wire format of
 * the endpoint that is called: Chat Completions SSE (`data:` frames, usage chunk, `[DONE]`)
 * or Anthropic SSE (`event:` + `data:` frames, as the Anthropic SDK requires). A request with
 * `"stream": false` gets one JSON body instead.
 *
 * API (each call queues one response; responses are used in order, one per request):
 *
 *   const server = await startFakeModelServer();
 *   server.reply()                                // a streamed answer, built by chaining:
 *     .reasoning("thinking…", { signature: "sig" }) //   reasoning_content / thinking block
 *     .text("Hello", { chunks: 3 })               //   text split into 3 deltas
 *     .tool("bash", { command: "ls" }, { chunks: 5, id: "call_1" }) // args in 5 fragments
 *     .tool("read", '{"path":')                   //   a second call = parallel calls; raw string args
 *     .usage({ input: 100, output: 20, cached: 40, cacheWrite: 0, reasoning: 5 })
 *     .stop("length")                             //   finish reason (default: tool_calls / stop)
 *     .delay(20)                                  //   ms between frames
 *     .dropAfter(2);                              //   send 2 frames, then destroy the socket
 *   server.dropAfter(2).text("cut short");        // same as reply().dropAfter(2)
 *   server.httpError(429, body?, { "retry-after-ms": "10" }); // status + JSON body + headers
 *   server.raw("data: {...}\n\n", { status: 200 });           // replay recorded bytes verbatim
 *   server.hang();                                // accept the request, never answer
 *   server.replyWith((request, reply) => {        // when the queue is empty: build the answer
 *     reply.text(request.body.tools?.length ? "with tools" : "a summary"); // from the request
 *   });                                           // (long scripted sessions, summary calls)
 *   server.requests                               // every request: method, path, headers, body
 *   server.pending()                              // queued responses not used yet
 *   await server.close();
 *
 * Rules worth knowing:
 * - httpError with status 408/409/429/5xx adds `retry-after-ms: 1` unless the test gives
 *   `retry-after` or `retry-after-ms`, so SDK retries are fast; give your own to test waits.
 * - With an empty queue the server answers 500 with a body saying the script ran out (and
 *   `x-should-retry: false`, so SDKs do not retry it): a test failure names the cause.
 * - Unknown paths get 404 with a body naming the path. All requests are recorded.
 * - Default usage is input 10, output 5. Default text chunking is 3 pieces, arguments 3.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the server received, body parsed as JSON when it is JSON. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary request fields.
  body: any;
}

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

type Wire = "openai" | "anthropic";

/** Builds one streamed answer; rendered when the request arrives, so chaining after queueing works. */
export class ReplyBuilder {
  readonly parts: Part[] = [];
  usageValues: Required<FakeUsage> = { input: 10, output: 5, cached: 0, cacheWrite: 0, reasoning: 0 };
  finish: "stop" | "length" | "tool_calls" | undefined;
  frameDelayMs = 0;
  dropAfterFrames: number | undefined;

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
}

type Scripted =
  | { kind: "reply"; builder: ReplyBuilder }
  | { kind: "error"; status: number; body: unknown; headers: Record<string, string> }
  | { kind: "raw"; data: string | Buffer; status: number; headers: Record<string, string> }
  | { kind: "hang" };

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>` (no trailing slash, no /v1). */
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  reply(): ReplyBuilder;
  dropAfter(frames: number): ReplyBuilder;
  httpError(status: number, body?: unknown, headers?: Record<string, string>): void;
  raw(data: string | Buffer, options?: { status?: number; headers?: Record<string, string> }): void;
  hang(): void;
  /**
   * Answers requests that find the queue empty by calling `respond` with the request and a
   * fresh reply to fill in (queued responses still come first). Replaces a previous responder.
   */
  replyWith(respond: (request: RecordedRequest, reply: ReplyBuilder) => void): void;
  pending(): number;
  close(): Promise<void>;
}

/** Starts a fake model server on 127.0.0.1 with a random free port. */
export async function startFakeModelServer(): Promise<FakeModelServer> {
  const queue: Scripted[] = [];
  const requests: RecordedRequest[] = [];
  let responder: ((request: RecordedRequest, reply: ReplyBuilder) => void) | undefined;
  let toolIds = 0;
  const nextToolId = () => {
    toolIds += 1;
    return `call_fake_${toolIds}`;
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: `fake-model-server crashed: ${String(error)}` } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const path = (req.url ?? "/").split("?")[0]!;
    const recorded: RecordedRequest = {
      method: req.method ?? "GET",
      path,
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
      body: parseJson(text),
    };
    requests.push(recorded);
    const wire: Wire | undefined = path.endsWith("/chat/completions")
      ? "openai"
      : path.endsWith("/messages")
        ? "anthropic"
        : undefined;
    if (req.method !== "POST" || !wire) {
      sendJson(res, 404, {
        type: "error",
        error: { type: "not_found_error", message: `fake-model-server does not serve ${req.method} ${path}` },
      });
      return;
    }
    let next = queue.shift();
    if (!next && responder) {
      const builder = new ReplyBuilder(nextToolId);
      responder(recorded, builder);
      next = { kind: "reply", builder };
    }
    if (!next) {
      const message = `fake-model-server: the script ran out; no response queued for request #${requests.length} (${req.method} ${path})`;
      sendJson(res, 500, errorBody(wire, message, "fake_script_exhausted"), { "x-should-retry": "false" });
      return;
    }
    if (next.kind === "hang") return;
    if (next.kind === "error") {
      const body = next.body ?? errorBody(wire, `fake HTTP ${next.status}`, errorType(next.status));
      sendJson(res, next.status, body, next.headers);
      return;
    }
    if (next.kind === "raw") {
      res.writeHead(next.status, { "content-type": "text/event-stream", ...next.headers });
      res.end(next.data);
      return;
    }
    const stream = recorded.body?.stream !== false;
    if (!stream) {
      sendJson(res, 200, wire === "openai" ? openaiJson(next.builder) : anthropicJson(next.builder));
      return;
    }
    const frames = wire === "openai" ? openaiFrames(next.builder) : anthropicFrames(next.builder);
    await sendFrames(res, frames, next.builder);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const queueReply = () => {
    const builder = new ReplyBuilder(nextToolId);
    queue.push({ kind: "reply", builder });
    return builder;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    reply: queueReply,
    dropAfter: (frames) => queueReply().dropAfter(frames),
    httpError(status, body, headers = {}) {
      const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
      const lower = Object.keys(headers).map((key) => key.toLowerCase());
      const givesWait = lower.includes("retry-after") || lower.includes("retry-after-ms");
      const extra: Record<string, string> = retryable && !givesWait ? { "retry-after-ms": "1" } : {};
      queue.push({ kind: "error", status, body, headers: { ...extra, ...headers } });
    },
    raw(data, options = {}) {
      queue.push({ kind: "raw", data, status: options.status ?? 200, headers: options.headers ?? {} });
    },
    hang() {
      queue.push({ kind: "hang" });
    },
    replyWith(respond) {
      responder = respond;
    },
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function sendFrames(res: ServerResponse, frames: string[], builder: ReplyBuilder): Promise<void> {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  res.flushHeaders();
  const limit = builder.dropAfterFrames ?? frames.length;
  for (const frame of frames.slice(0, limit)) {
    if (builder.frameDelayMs > 0) await sleep(builder.frameDelayMs);
    if (res.destroyed) return;
    await new Promise<void>((resolve) => res.write(frame, () => resolve()));
  }
  if (builder.dropAfterFrames !== undefined) {
    await sleep(5);
    res.socket?.destroy();
    return;
  }
  res.end();
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

function errorBody(wire: Wire, message: string, type: string): Record<string, unknown> {
  if (wire === "anthropic") return { type: "error", error: { type, message } };
  return { error: { message, type, code: type, param: null } };
}

function errorType(status: number): string {
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

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
