/**
 * A fake model server for tests: OpenAI Chat Completions and Anthropic Messages over real
 * HTTP on 127.0.0.1 (random port, never another interface), answering from a queue of
 * scripted replies. Use it from provider tests and to drive the real `hx` binary:
 *
 *   --provider openai    --base-url ${server.url}/v1
 *   --provider deepseek  --base-url ${server.url}
 *   --provider anthropic --base-url ${server.url}
 *
 * Endpoints: `POST …/chat/completions` (any prefix: `/chat/completions`, `/v1/chat/completions`),
 * `POST …/messages` (`/v1/messages`) and `POST …/responses` (OpenAI Responses, text and
 * function calls only: what Codex speaks, for the bench's side-by-side runs). Each queued reply is rendered in the wire format of
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
 *   server.html(502, "Bad Gateway");              // an HTML page instead of an API answer
 *   server.hang();                                // accept the request, never answer
 *
 * Faults of one streamed reply (chain them on `reply()`; both wires):
 *   .stallAfter(2)    headers and 2 frames, then silence with the socket open
 *   .malformed(1)     frame 1 replaced by one whose data is not JSON
 *   .asJson()         the whole answer as one JSON body although a stream was asked for
 *   .noChoices()      a stream with no answer in it (`choices: []` only / pings only)
 *   .padding(bytes)   SSE comments worth `bytes` before the finish (a huge, valid body)
 *   .keepAlive(n)     n SSE keep-alive comments after the first frame (with .delay: a slow start)
 *   reply() alone     an empty answer (no text, no tool calls); `.tool(n, a, {id})` twice with
 *                     one id = duplicate tool-call ids
 *   server.replyWith((request, reply) => {        // when the queue is empty: build the answer
 *     reply.text(request.body.tools?.length ? "with tools" : "a summary"); // from the request
 *   });                                           // (long scripted sessions, summary calls)
 *   server.models([{ id: "m", context_length: 8192 }]) // GET …/models answers this list
 *                                                 // (counted by modelListRequests(), not in requests)
 *   server.requests                               // every request: method, path, headers, body,
 *                                                 // receivedAt / respondedAt (performance.now())
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
import {
  errorBody,
  errorType,
  parseJson,
  ReplyBuilder,
  renderFrames,
  renderJson,
  type Wire,
} from "./fake-model-reply.js";

export type { FakeUsage, ReplyBuilder } from "./fake-model-reply.js";

/** One request the server received, body parsed as JSON when it is JSON. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary request fields.
  body: any;
  /** performance.now() when the whole request had arrived (benches time the client with it). */
  receivedAt: number;
  /** performance.now() when the last byte of the response was handed to the OS; unset before. */
  respondedAt?: number;
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
  /** An HTML page (a proxy's error page, a login page) with `status`, titled `title`. */
  html(status: number, title: string): void;
  /** Accept the request and never answer: silence before the headers. */
  hang(): void;
  /**
   * Answers requests that find the queue empty by calling `respond` with the request and a
   * fresh reply to fill in (queued responses still come first). Replaces a previous responder.
   */
  replyWith(respond: (request: RecordedRequest, reply: ReplyBuilder) => void): void;
  /** Answers `GET …/models` with this list (`{object: "list", data}`); without it, a 404. */
  models(list: Array<Record<string, unknown>>): void;
  /** How many `GET …/models` arrived (they are not in `requests`). */
  modelListRequests(): number;
  pending(): number;
  close(): Promise<void>;
}

/** Starts a fake model server on 127.0.0.1 with a random free port. */
export async function startFakeModelServer(): Promise<FakeModelServer> {
  const queue: Scripted[] = [];
  const requests: RecordedRequest[] = [];
  let responder: ((request: RecordedRequest, reply: ReplyBuilder) => void) | undefined;
  let modelList: Array<Record<string, unknown>> | undefined;
  const modelListRequests = { count: 0 };
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
      receivedAt: performance.now(),
    };
    if (req.method === "GET" && path.endsWith("/models")) {
      // Model-list look-ups are counted apart: `requests` stays the model calls tests index.
      modelListRequests.count += 1;
      if (modelList) sendJson(res, 200, { object: "list", data: modelList });
      else sendJson(res, 404, { error: { message: "fake-model-server: no model list" } });
      return;
    }
    requests.push(recorded);
    res.once("finish", () => {
      recorded.respondedAt = performance.now();
    });
    const wire: Wire | undefined = path.endsWith("/chat/completions")
      ? "openai"
      : path.endsWith("/messages")
        ? "anthropic"
        : path.endsWith("/responses")
          ? "responses"
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
    if (!stream || next.builder.wholeJson) {
      sendJson(res, 200, renderJson(wire, next.builder));
      return;
    }
    await sendFrames(res, renderFrames(wire, next.builder), next.builder);
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
    html(status, title) {
      const page = `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`;
      queue.push({
        kind: "raw",
        data: page,
        status,
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    },
    hang() {
      queue.push({ kind: "hang" });
    },
    replyWith(respond) {
      responder = respond;
    },
    models(list) {
      modelList = list;
    },
    modelListRequests: () => modelListRequests.count,
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
  const limit = builder.dropAfterFrames ?? builder.stallAfterFrames ?? frames.length;
  for (const frame of frames.slice(0, limit)) {
    if (builder.frameDelayMs > 0) await sleep(builder.frameDelayMs);
    if (res.destroyed) return;
    await new Promise<void>((resolve) => res.write(frame, () => resolve()));
  }
  // A stall: the socket stays open and silent until the client gives up or the server closes.
  if (builder.stallAfterFrames !== undefined) return;
  if (builder.dropAfterFrames !== undefined) {
    await sleep(5);
    res.socket?.destroy();
    return;
  }
  res.end();
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
