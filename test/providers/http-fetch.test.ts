import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { HttpConnections } from "../../src/providers/http-fetch.js";
import { ResponseTooLargeError } from "../../src/providers/stream-errors.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: Handler): Promise<{ url: string; sockets: () => number }> {
  let sockets = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => handler(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  server.on("connection", () => {
    sockets += 1;
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sockets: () => sockets,
  };
}

const bounds = { maxBytes: 1_000_000 };

describe("HttpConnections.fetch", () => {
  it("sends method, headers and body, and streams the answer as a web Response", async () => {
    const server = await serve((req, res, body) => {
      res.writeHead(201, {
        "content-type": "text/event-stream",
        "x-seen": `${req.method} ${req.headers.authorization} ${body}`,
      });
      res.write("data: 1\n\n");
      setTimeout(() => res.end("data: 2\n\n"), 10);
    });
    const fetch = new HttpConnections().fetch(bounds);
    const headers = new Headers({
      authorization: "Bearer k",
      "content-type": "application/json",
    });
    const response = await fetch(`${server.url}/v1/chat`, {
      method: "POST",
      headers,
      body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-seen")).toBe('POST Bearer k {"a":1}');
    expect(await response.text()).toBe("data: 1\n\ndata: 2\n\n");
  });

  it("iterates the body with for await (as the SDKs do); stopping early closes the connection", async () => {
    let closed: () => void = () => {};
    const serverClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const server = await serve((req, res) => {
      res.writeHead(200);
      res.write("a");
      setTimeout(() => res.write("b"), 5);
      if (req.url === "/endless") {
        res.on("close", closed);
        return;
      }
      setTimeout(() => res.end("c"), 10);
    });
    const fetch = new HttpConnections().fetch(bounds);
    const chunks: string[] = [];
    for await (const chunk of (await fetch(server.url, { method: "POST", body: "" })).body!) {
      chunks.push(new TextDecoder().decode(chunk));
    }
    expect(chunks.join("")).toBe("abc");
    for await (const _ of (await fetch(`${server.url}/endless`, { method: "POST", body: "" })).body!) break;
    await serverClosed;
  });

  it("reuses one kept-alive connection for successive requests", async () => {
    const server = await serve((_req, res) => res.end("ok"));
    const fetch = new HttpConnections().fetch(bounds);
    for (let i = 0; i < 3; i++)
      expect(await (await fetch(server.url, { method: "POST", body: "x" })).text()).toBe("ok");
    expect(server.sockets()).toBe(1);
  });

  it("fails the body with ResponseTooLargeError past the bound and reports every chunk", async () => {
    const server = await serve((_req, res) => {
      res.write("a".repeat(600));
      setTimeout(() => res.end("b".repeat(600)), 10);
    });
    let chunks = 0;
    const fetch = new HttpConnections().fetch({
      maxBytes: 1000,
      onBytes: () => chunks++,
    });
    const response = await fetch(server.url, { method: "POST", body: "" });
    await expect(response.text()).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(chunks).toBe(2);
  });

  it("an abort before the answer rejects with the signal's reason; one mid-body fails the body", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.write("part");
    });
    const fetch = new HttpConnections().fetch(bounds);
    const early = new AbortController();
    early.abort();
    await expect(fetch(server.url, { method: "POST", body: "", signal: early.signal })).rejects.toMatchObject(
      {
        name: "AbortError",
      },
    );
    const late = new AbortController();
    const response = await fetch(server.url, {
      method: "POST",
      body: "",
      signal: late.signal,
    });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("part");
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("a connection cut mid-body fails the body instead of ending it", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "100" });
      res.write("short");
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const response = await new HttpConnections().fetch(bounds)(server.url, {
      method: "POST",
      body: "",
    });
    await expect(response.text()).rejects.toMatchObject({ code: "ECONNRESET" });
  });

  it("a refused connection rejects with the system error code", async () => {
    const server = await serve(() => {});
    const url = server.url;
    await afterEachClose();
    await expect(
      new HttpConnections().fetch(bounds)(url, { method: "POST", body: "" }),
    ).rejects.toMatchObject({
      code: "ECONNREFUSED",
    });
  });

  it("follows redirects as fetch does: 307 keeps the POST, 303 turns it into a GET, credentials stay home", async () => {
    const other = await serve((req, res, body) =>
      res.end(`${req.method} ${req.headers.authorization ?? "-"} ${body}`),
    );
    const server = await serve((req, res, body) => {
      if (req.url === "/keep") res.writeHead(307, { location: "/final" }).end();
      else if (req.url === "/see-other") res.writeHead(303, { location: "/final" }).end();
      else if (req.url === "/away") res.writeHead(308, { location: `${other.url}/x` }).end();
      else res.end(`${req.method} ${req.headers.authorization ?? "-"} ${body}`);
    });
    const fetch = new HttpConnections().fetch(bounds);
    const init = {
      method: "POST",
      body: "payload",
      headers: { authorization: "Bearer k" },
    };
    expect(await (await fetch(`${server.url}/keep`, init)).text()).toBe("POST Bearer k payload");
    expect(await (await fetch(`${server.url}/see-other`, init)).text()).toBe("GET Bearer k ");
    expect(await (await fetch(`${server.url}/away`, init)).text()).toBe("POST - payload");
  });

  it("decodes a body the server compressed", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(gzipSync("hello, compressed"));
    });
    const response = await new HttpConnections().fetch(bounds)(server.url, {
      method: "POST",
      body: "",
    });
    expect(await response.text()).toBe("hello, compressed");
  });

  it("a null-body status gives a Response without a body", async () => {
    const server = await serve((_req, res) => res.writeHead(204).end());
    const response = await new HttpConnections().fetch(bounds)(server.url, {
      method: "POST",
      body: "",
    });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });
});

async function afterEachClose(): Promise<void> {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
