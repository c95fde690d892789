import { describeHtml, firstLine } from "./sdk-api-errors.js";
import { ProtocolError } from "./stream-errors.js";

/** How much of a body that is not an event stream is read to describe it. */
const PREVIEW_BYTES = 4096;

/**
 * Checks that a 2xx answer to a streaming request is an event stream. A JSON body (a server
 * that ignored `"stream": true`, or an error sent with status 200) or an HTML page (a proxy,
 * a login page) throws a ProtocolError describing what came instead. Other or missing
 * content types are read as a stream: some local servers label their events loosely.
 */
export async function expectEventStream(response: Response): Promise<void> {
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  const json = /\bjson\b/.test(type);
  const html = type.includes("text/html");
  if (!json && !html) return;
  const text = await readPrefix(response);
  if (html) throw new ProtocolError(`${describeHtml(text)} where an event stream was expected`);
  throw new ProtocolError(`JSON where an event stream was expected${jsonDetail(text)}`);
}

/** The body's first bytes; stopping the iteration closes the rest (a web stream or hx's own body). */
async function readPrefix(response: Response): Promise<string> {
  const body = response.body as AsyncIterable<Uint8Array> | null;
  if (!body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= PREVIEW_BYTES) break;
    }
  } catch {
    // What arrived is enough to describe it.
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Quotes a JSON error's message; says so when the body is a whole (non-streamed) answer. */
function jsonDetail(text: string): string {
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return text.trim() ? ` (${firstLine(text.trim()).slice(0, 120)})` : " (empty)";
  }
  const error = body?.error as Record<string, unknown> | string | undefined;
  const message = typeof error === "string" ? error : error?.message;
  if (typeof message === "string" && message) return ` (error: ${firstLine(message)})`;
  if (body && ("choices" in body || "content" in body))
    return " (a whole answer: the server ignored streaming)";
  return "";
}
