import http, { type IncomingMessage } from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import type { Readable, Transform } from "node:stream";
import { ResponseTooLargeError } from "./stream-errors.js";

/**
 * `fetch` for the SDK clients, over `node:http`/`node:https`. Node 20's global `fetch`
 * (undici) costs about 30 ms of CPU and 16 MB on first use (its WebAssembly HTTP parser, its
 * pool) and keeps the socket open after the answer; measured against it, undici's own package
 * and node-fetch, this is the cheapest (`npm run bench`). It does what the SDKs ask of a
 * fetch: string/bytes bodies, an AbortSignal that also ends a body being read, redirects as
 * fetch follows them, compressed bodies, and a web `Response` with a streamed body. Anything
 * else (a streamed or form body) goes to the global fetch.
 *
 * Every body is bounded: past `maxBytes` it fails with ResponseTooLargeError, so a runaway
 * answer (or one endless line) never fills memory; `onBytes` hears of every chunk, keep-alive
 * comments the SDKs skip included.
 */
export interface BodyBounds {
  maxBytes: number;
  onBytes?: () => void;
}

const MAX_REDIRECTS = 20;
/** Headers that must not follow a redirect to another origin (as fetch does for the first). */
const CREDENTIAL_HEADERS = ["authorization", "x-api-key", "api-key", "cookie", "proxy-authorization"];
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

/**
 * The connections of one provider, kept alive between its requests (a session's turns reuse
 * one socket). Node unrefs idle pooled sockets, so they never keep the process running.
 */
export class HttpConnections {
  private readonly httpAgent = new http.Agent({ keepAlive: true });
  private httpsAgent?: HttpsAgent;

  /** A fetch whose response bodies are bounded as `bounds` says. */
  fetch(bounds: BodyBounds): typeof fetch {
    return ((input: FetchInput, init?: FetchInit) => this.request(input, init ?? {}, bounds)) as typeof fetch;
  }

  /**
   * The same for hx's own clients, which read a response's status, headers (`get`), body and
   * `text()` only: its `Response` is a plain object, so nothing loads undici (~25 ms of CPU at
   * start-up, which the SDKs' `Headers` pay). String bodies only.
   */
  liteFetch(bounds: BodyBounds): (url: string, init: FetchInit) => Promise<Response> {
    return (url, init) => this.request(url, init, bounds, liteResponse);
  }

  private async request(
    input: FetchInput,
    init: FetchInit,
    bounds: BodyBounds,
    respond: typeof toResponse = toResponse,
  ): Promise<Response> {
    if (typeof input !== "string" && !(input instanceof URL)) return boundedGlobal(input, init, bounds);
    const body = bytesOf(init.body);
    if (body === undefined) return boundedGlobal(input, init, bounds);
    let url = new URL(input);
    let method = (init.method ?? "GET").toUpperCase();
    let headers = headerRecord(init.headers);
    let payload: Buffer | null = body;
    for (let redirects = 0; ; redirects++) {
      const res = await this.send(url, method, headers, payload, init.signal ?? undefined);
      const location = res.headers.location;
      const status = res.statusCode ?? 0;
      if (!isRedirect(status) || !location || init.redirect === "manual") return respond(res, bounds);
      res.resume();
      if (init.redirect === "error")
        throw new TypeError(`fetch: redirected to ${location} (redirect: "error")`);
      if (redirects >= MAX_REDIRECTS) throw new TypeError(`fetch: more than ${MAX_REDIRECTS} redirects`);
      const next = new URL(location, url);
      if (next.origin !== url.origin) headers = without(headers, CREDENTIAL_HEADERS);
      if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
        method = method === "HEAD" ? "HEAD" : "GET";
        payload = null;
        headers = without(headers, ["content-type", "content-length"]);
      }
      url = next;
    }
  }

  private async send(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: Buffer | null,
    signal: AbortSignal | undefined,
  ): Promise<IncomingMessage> {
    signal?.throwIfAborted();
    let lib: typeof http | typeof import("node:https");
    let agent: http.Agent;
    if (url.protocol === "http:") {
      lib = http;
      agent = this.httpAgent;
    } else if (url.protocol === "https:") {
      lib = await import("node:https");
      this.httpsAgent ??= new lib.Agent({ keepAlive: true });
      agent = this.httpsAgent;
    } else {
      throw new TypeError(`fetch: unsupported protocol ${url.protocol}`);
    }
    const sent = body ? { ...headers, "content-length": String(body.byteLength) } : headers;
    return new Promise((resolve, reject) => {
      const req = lib.request(url, { method, headers: sent, agent });
      let response: IncomingMessage | undefined;
      // Until the body is read to its end, an abort ends it too, with the signal's reason.
      const onAbort = () => (response ?? req).destroy(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      req.once("response", (res) => {
        response = res;
        res.once("close", () => signal?.removeEventListener("abort", onAbort));
        resolve(res);
      });
      req.once("error", (error) => {
        signal?.removeEventListener("abort", onAbort);
        reject(error);
      });
      req.end(body ?? undefined);
    });
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The node response as a web Response whose body stream counts, bounds and decodes it. */
async function toResponse(res: IncomingMessage, bounds: BodyBounds): Promise<Response> {
  const status = res.statusCode ?? 0;
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
  const init = { status, statusText: res.statusMessage ?? "", headers };
  if (NULL_BODY_STATUSES.has(status)) {
    res.resume();
    return new Response(null, init);
  }
  return new Response(bodyStream(res, bounds, await decoderFor(res)), init);
}

/** The parts of `Headers` hx's own clients read, over a response's raw headers. */
export class LiteHeaders {
  private readonly values = new Map<string, string>();

  constructor(raw: readonly string[]) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i].toLowerCase();
      const seen = this.values.get(name);
      this.values.set(name, seen === undefined ? raw[i + 1] : `${seen}, ${raw[i + 1]}`);
    }
  }

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of this.values) callback(value, name);
  }
}

/**
 * `toResponse` without undici or web streams: status, headers, `text()`, `json()`, and the
 * bounded body as an async iterable of chunks with `cancel()` (what hx's clients read; Node
 * 20's first ReadableStream costs ~5 ms of start-up).
 */
async function liteResponse(res: IncomingMessage, bounds: BodyBounds): Promise<Response> {
  const status = res.statusCode ?? 0;
  const headers = new LiteHeaders(res.rawHeaders);
  let body: LiteBody | null = null;
  if (NULL_BODY_STATUSES.has(status)) res.resume();
  else body = bodyChunks(res, bounds, await decoderFor(res));
  let used = false;
  const text = async () => {
    used = true;
    if (!body) return "";
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
  };
  const response = {
    status,
    statusText: res.statusMessage ?? "",
    ok: status >= 200 && status < 300,
    headers,
    body,
    get bodyUsed() {
      return used;
    },
    text,
    json: async () => JSON.parse(await text()),
  };
  return response as unknown as Response;
}

/** A response body as hx's own clients read it. */
interface LiteBody extends AsyncIterable<Uint8Array> {
  /** Stops reading: the connection is closed. */
  cancel(): Promise<void>;
}

/**
 * The body as chunks, read once, with the bounds and failures of `bodyStream`: past
 * `maxBytes` ResponseTooLargeError, a connection cut before the body's end an ECONNRESET
 * error, an abort (the request's signal destroys `res`) its reason. Stopping early closes it.
 */
function bodyChunks(res: IncomingMessage, bounds: BodyBounds, decoder: Transform | undefined): LiteBody {
  let seen = 0;
  const counted = (bytes: number) => {
    bounds.onBytes?.();
    seen += bytes;
    if (seen > bounds.maxBytes) res.destroy(new ResponseTooLargeError(bounds.maxBytes));
  };
  if (decoder) {
    res.on("data", (chunk: Buffer) => counted(chunk.byteLength));
    res.once("error", (error) => decoder.destroy(error));
    res.pipe(decoder);
  }
  const source: Readable = decoder ?? res;
  return {
    async *[Symbol.asyncIterator]() {
      let ended = false;
      try {
        for await (const chunk of source as AsyncIterable<Buffer>) {
          if (!decoder) counted(chunk.byteLength);
          if (res.destroyed && res.errored) throw res.errored;
          yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        }
        if (!res.complete) throw cutShort();
        ended = true;
      } catch (error) {
        // Node's own word for a cut connection is "aborted"; say what happened.
        if (!res.complete && (error as NodeJS.ErrnoException).code === "ECONNRESET") throw cutShort();
        throw error;
      } finally {
        if (!ended) res.destroy();
      }
    },
    async cancel() {
      res.destroy();
    },
  };
}

function cutShort(): Error {
  return Object.assign(new Error("terminated: the connection closed mid-body"), { code: "ECONNRESET" });
}

/**
 * The body as a web stream, with backpressure. Bytes are counted as they arrive (compressed,
 * if the server compressed them); an error, a cut connection or an abort (the request's
 * signal destroys `res` with its reason) fails the stream.
 */
function bodyStream(
  res: IncomingMessage,
  bounds: BodyBounds,
  decoder: Transform | undefined,
): ReadableStream<Uint8Array> {
  const source: Readable = decoder ?? res;
  let finished = false;
  let seen = 0;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (error: unknown) => {
        if (finished) return;
        finished = true;
        controller.error(error);
        res.destroy();
      };
      res.on("data", (chunk: Buffer) => {
        if (finished) return;
        bounds.onBytes?.();
        seen += chunk.byteLength;
        if (seen > bounds.maxBytes) fail(new ResponseTooLargeError(bounds.maxBytes));
      });
      source.on("data", (chunk: Buffer) => {
        if (finished) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) source.pause();
      });
      source.once("end", () => {
        if (finished) return;
        finished = true;
        controller.close();
      });
      res.once("error", fail);
      decoder?.once("error", fail);
      // A socket that closes before the body's end: the stream was cut.
      res.once("close", () => {
        if (!res.complete) fail(cutShort());
      });
      if (decoder) res.pipe(decoder);
    },
    pull() {
      source.resume();
    },
    cancel() {
      finished = true;
      res.destroy();
    },
  });
  return withLockKeepingIterator(stream);
}

/**
 * Iteration that never releases the reader of a stream that ended: Node 20 builds a "reader
 * released" error for every release, and building it creates a new vm context (about 3 ms,
 * paid after the model's last byte, when the SDKs finish reading a stream). An iteration
 * stopped early cancels the stream instead.
 */
function withLockKeepingIterator(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  Object.defineProperty(stream, Symbol.asyncIterator, {
    value: async function* () {
      const reader = stream.getReader();
      let done = false;
      try {
        while (true) {
          const next = await reader.read();
          if (next.done) {
            done = true;
            return;
          }
          yield next.value;
        }
      } finally {
        if (!done) await reader.cancel().catch(() => {});
      }
    },
  });
  return stream;
}

/** A decoder for a body the server compressed anyway (hx does not ask for compression). */
async function decoderFor(res: IncomingMessage): Promise<Transform | undefined> {
  const encoding = (res.headers["content-encoding"] ?? "").trim().toLowerCase();
  if (encoding === "" || encoding === "identity") return undefined;
  res.pause();
  const zlib = await import("node:zlib");
  if (encoding === "gzip" || encoding === "x-gzip") return zlib.createGunzip();
  if (encoding === "deflate") return zlib.createInflate();
  if (encoding === "br") return zlib.createBrotliDecompress();
  return undefined;
}

/** A string or bytes body as a Buffer; undefined for bodies only the global fetch can send. */
function bytesOf(body: FetchInit["body"]): Buffer | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return undefined;
}

function headerRecord(headers: FetchInit["headers"]): Record<string, string> {
  const record: Record<string, string> = {};
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    record[key] = key in record ? `${record[key]}, ${value}` : value;
  };
  if (!headers) return record;
  if (Array.isArray(headers)) for (const [name, value] of headers) add(name, value);
  else if (typeof (headers as Headers).forEach === "function")
    (headers as Headers).forEach((value, name) => {
      add(name, value);
    });
  else for (const [name, value] of Object.entries(headers)) if (value !== undefined) add(name, String(value));
  return record;
}

function without(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));
}

/** The global fetch, for what this one does not send, with the same bound on the body. */
async function boundedGlobal(input: FetchInput, init: FetchInit, bounds: BodyBounds): Promise<Response> {
  const response = await fetch(input, init);
  if (!response.body) return response;
  let seen = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      bounds.onBytes?.();
      seen += chunk.byteLength;
      if (seen > bounds.maxBytes) controller.error(new ResponseTooLargeError(bounds.maxBytes));
      else controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
