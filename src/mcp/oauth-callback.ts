import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const PAGE = (text: string) =>
  `<!doctype html><meta charset="utf-8"><title>hx</title><body style="font-family:sans-serif"><p>${text}</p></body>`;

/**
 * The redirect target of an authorization: an HTTP server on 127.0.0.1 (never another
 * interface) that takes one `GET /callback?code=…&state=…` whose state matches, answers the
 * browser, and hands the code over. Anything else gets 404 or 400 and is ignored.
 */
export class LoopbackCallback {
  private server?: Server;
  private waiting?: { state: string; resolve: (code: string) => void; reject: (error: Error) => void };

  /** Listens on `port` (0: any free port; a busy preferred port falls back to any). */
  async listen(port = 0): Promise<string> {
    if (this.server) return this.url;
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/callback" || !this.waiting) {
        response.writeHead(404, { "content-type": "text/html" }).end(PAGE("Nothing is waiting here."));
        return;
      }
      const { state, resolve, reject } = this.waiting;
      if (url.searchParams.get("state") !== state) {
        response
          .writeHead(400, { "content-type": "text/html" })
          .end(PAGE("This answer is not for hx's request."));
        return;
      }
      this.waiting = undefined;
      const code = url.searchParams.get("code");
      if (code) {
        response
          .writeHead(200, { "content-type": "text/html" })
          .end(PAGE("hx is authorized. You can close this tab."));
        resolve(code);
      } else {
        const error = url.searchParams.get("error") ?? "no code";
        const description = url.searchParams.get("error_description");
        response
          .writeHead(400, { "content-type": "text/html" })
          .end(PAGE("The authorization was not granted."));
        reject(
          new Error(`the authorization server answered ${error}${description ? `: ${description}` : ""}`),
        );
      }
    });
    const bind = (p: number) =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(p, "127.0.0.1", () => {
          server.off("error", reject);
          resolve();
        });
      });
    try {
      await bind(port);
    } catch (error) {
      if (port === 0) throw error;
      await bind(0);
    }
    server.unref();
    this.server = server;
    return this.url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    return `http://127.0.0.1:${address?.port ?? 0}/callback`;
  }

  /** The code of the next callback carrying `state`; rejects after `timeoutMs`. */
  waitForCode(state: string, timeoutMs: number): Promise<string> {
    this.waiting?.reject(new Error("a newer authorization replaced this one"));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      timer.unref();
      this.waiting = {
        state,
        resolve: (code) => {
          clearTimeout(timer);
          resolve(code);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  close(): void {
    this.waiting?.reject(new Error("closed"));
    this.waiting = undefined;
    this.server?.close();
    this.server = undefined;
  }
}
