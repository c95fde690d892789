// hx's own Chat Completions client (src/providers/openai-chat-client.ts), against a raw HTTP
// server on 127.0.0.1: the event stream read as the SDK reads it (split lines, \r\n, comments,
// [DONE], an error inside the stream), an HTTP error with the server's words, and what the
// request sends.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { classifyFailure } from "../../src/providers/errors.js";
import { HttpConnections } from "../../src/providers/http-fetch.js";
import { callLimits } from "../../src/providers/limits.js";
import { CHAT_ERRORS, openChatStream } from "../../src/providers/openai-chat-client.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => handler(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function open(baseURL: string) {
  return openChatStream({
    baseURL,
    apiKey: "sk-test",
    body: { model: "m", stream: true },
    signal: new AbortController().signal,
    timeoutMs: 5000,
    fetch: new HttpConnections().liteFetch({ maxBytes: 1_000_000 }),
  });
}

async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const endpoint = { baseURL: "http://server/v1" };
const failure = (error: unknown) =>
  classifyFailure(error, {
    endpoint,
    sdk: CHAT_ERRORS,
    limits: callLimits({ provider: "openai", model: "m", timeoutMs: 5000, maxRetries: 0 }),
  }).error;

describe("openChatStream", () => {
  it("posts the body with the key and reads events split anywhere, with \\r\\n and comments", async () => {
    let seen: { url?: string; auth?: string; type?: string; body?: string } = {};
    const url = await serve((req, res, body) => {
      seen = { url: req.url, auth: req.headers.authorization, type: req.headers["content-type"], body };
      res.writeHead(200, { "content-type": "text/event-stream" });
      const text =
        ': keep-alive\r\n\r\ndata: {"choices":[{"delta":{"content":"he"}}]}\r\n\r\n' +
        'event: message\ndata: {"choices":\ndata: [{"delta":{"content":"llo"}}]}\n\n' +
        "data: [DONE]\n\n" +
        'data: {"after":"done"}\n\n';
      // One byte at a time: every line and \r\n is split across chunks somewhere.
      let i = 0;
      const next = () => {
        if (i >= text.length) return void res.end();
        res.write(text[i++]);
        setImmediate(next);
      };
      next();
    });
    const { events } = await open(url);
    expect(await collect(events)).toEqual([
      { choices: [{ delta: { content: "he" } }] },
      { choices: [{ delta: { content: "llo" } }] },
    ]);
    expect(seen).toEqual({
      url: "/v1/chat/completions",
      auth: "Bearer sk-test",
      type: "application/json",
      body: JSON.stringify({ model: "m", stream: true }),
    });
  });

  it("drops a last event that has no empty line after it", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end('data: {"n":1}\n\ndata: {"n":2}');
    });
    expect(await collect((await open(url)).events)).toEqual([{ n: 1 }]);
  });

  it("throws the server's error sent inside the stream, classified as a server error to retry", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end('data: {"error":{"message":"the model is overloaded","type":"server_error"}}\n\n');
    });
    const error = await collect((await open(url)).events).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CHAT_ERRORS.APIError);
    expect(failure(error)).toMatchObject({ kind: "server" });
    expect(failure(error).message).toContain("the model is overloaded");
  });

  it("throws an HTTP error with the status, the server's words and its headers", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after-ms": "1200" });
      res.end(JSON.stringify({ error: { message: "slow down", type: "rate_limit" } }));
    });
    const error = (await open(url).catch((e: unknown) => e)) as {
      status: number;
      headers: { get(name: string): string | null };
    };
    expect(error).toBeInstanceOf(CHAT_ERRORS.APIError);
    expect(error.status).toBe(429);
    expect(error.headers.get("Retry-After-Ms")).toBe("1200");
    expect(failure(error)).toMatchObject({ kind: "rate_limit" });
    expect(failure(error).message).toContain("slow down");
  });

  it("says it could not connect when nothing listens", async () => {
    const url = await serve(() => {});
    for (const s of servers.splice(0)) s.close();
    const error = await open(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CHAT_ERRORS.APIConnectionError);
    expect(failure(error)).toMatchObject({ kind: "network" });
  });
});
