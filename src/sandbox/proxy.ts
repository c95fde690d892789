import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { normalizeHost } from "./domains.js";

/**
 * The HTTP/HTTPS proxy between sandboxed commands and the network, run by hx in-process on a
 * Unix socket that the sandbox's bridge (`net-bridge.ts`) forwards to. It reads one request
 * head per connection: `CONNECT host:port` (HTTPS, any TLS: the proxy never sees inside) or an
 * absolute-form request (`GET http://host/path`, plain HTTP: forwarded with `Connection: close`,
 * so one connection carries one host). Each host is judged before any DNS lookup: a refused
 * host gets `403` at once with a body that names it and says how to allow it.
 */
export interface NetworkProxy {
  /** The Unix socket the bridge connects to. */
  socketPath: string;
  /** Hosts refused so far, in order (for the model's note after a command). */
  refusals(): readonly string[];
  close(): void;
}

/** What the proxy does with one request's host. */
export type ProxyVerdict = { allow: true } | { allow: false; message: string };

export interface ProxyOptions {
  /** Judges a host (already normalized); may ask the user, so it is awaited. */
  decide(host: string, port: number): Promise<ProxyVerdict>;
  /** Where the socket's private folder goes. */
  tempRoot: string;
  /** Opens the upstream connection; default `net.connect`. */
  connect?: (port: number, host: string) => net.Socket;
}

const MAX_HEAD = 64 * 1024;

/** Starts the proxy (listening when the promise resolves). */
export async function startProxy(options: ProxyOptions): Promise<NetworkProxy> {
  const dir = mkdtempSync(path.join(options.tempRoot, `hx-proxy-${process.pid}-`));
  chmodSync(dir, 0o700);
  const socketPath = path.join(dir, "proxy.sock");
  const refused: string[] = [];
  const sockets = new Set<net.Socket>();
  const connect = options.connect ?? ((port, host) => net.connect(port, host));

  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > MAX_HEAD) reply(client, 431, "hx sandbox proxy: request head too large\n");
        return;
      }
      client.off("data", onData);
      client.pause();
      void handle(client, head.subarray(0, end).toString("latin1"), head.subarray(end + 4));
    };
    client.on("data", onData);
  });

  const handle = async (client: net.Socket, headText: string, rest: Buffer) => {
    const [requestLine, ...headerLines] = headText.split("\r\n");
    const target = parseTarget(requestLine ?? "");
    if (!target) {
      reply(
        client,
        400,
        "hx sandbox proxy: send requests as a proxy client does (HTTP_PROXY / HTTPS_PROXY)\n",
      );
      return;
    }
    const verdict = await options
      .decide(target.host, target.port)
      .catch(
        (error: unknown): ProxyVerdict => ({ allow: false, message: `hx sandbox proxy: ${String(error)}\n` }),
      );
    if (client.destroyed) return;
    if (!verdict.allow) {
      refused.push(target.host);
      reply(client, 403, verdict.message);
      return;
    }
    const upstream = connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on("close", () => {
      sockets.delete(upstream);
      client.destroy();
    });
    client.on("close", () => upstream.destroy());
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (!client.destroyed && client.bytesWritten === 0)
        reply(
          client,
          502,
          `hx sandbox proxy: cannot reach ${target.host}:${target.port} (${error.code ?? error.message})\n`,
        );
      else client.destroy();
    });
    upstream.on("connect", () => {
      if (target.connect) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      else upstream.write(forwardHead(target, headerLines));
      if (rest.length > 0) upstream.write(rest);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    socketPath,
    refusals: () => refused,
    close() {
      server.close();
      for (const socket of sockets) socket.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Target {
  connect: boolean;
  method: string;
  host: string;
  port: number;
  /** Origin-form path for a plain HTTP request. */
  path: string;
  version: string;
}

/** `CONNECT host:443 HTTP/1.1` or `GET http://host[:port]/path HTTP/1.1`; undefined otherwise. */
export function parseTarget(line: string): Target | undefined {
  const match = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/.exec(line);
  if (!match) return undefined;
  const [, method, uri, version] = match;
  if (method === "CONNECT") {
    const authority = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(uri);
    if (!authority) return undefined;
    const port = Number(authority[2]);
    if (port < 1 || port > 65535) return undefined;
    return { connect: true, method, host: normalizeHost(authority[1]), port, path: "", version };
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" || url.username || url.password) return undefined;
  return {
    connect: false,
    method,
    host: normalizeHost(url.hostname),
    port: url.port ? Number(url.port) : 80,
    path: `${url.pathname}${url.search}`,
    version,
  };
}

/** The request head sent upstream: origin-form, proxy headers dropped, one request per connection. */
function forwardHead(target: Target, headerLines: string[]): string {
  const kept = headerLines.filter(
    (line) => !/^(proxy-connection|proxy-authorization|connection|keep-alive):/i.test(line),
  );
  return `${target.method} ${target.path} ${target.version}\r\n${[...kept, "Connection: close"].join("\r\n")}\r\n\r\n`;
}

function reply(client: net.Socket, status: number, body: string): void {
  const reason = {
    400: "Bad Request",
    403: "Forbidden",
    431: "Request Header Fields Too Large",
    502: "Bad Gateway",
  }[status];
  client.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Hx-Sandbox: ${status === 403 ? "refused" : "error"}\r\nConnection: close\r\n\r\n${body}`,
  );
}
