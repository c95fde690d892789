import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** What the reader makes of the bytes: a message, a line too long to keep, or a bad line. */
export type LineEvent =
  | { type: "message"; message: JSONRPCMessage }
  | { type: "oversized"; bytes: number; id?: string | number }
  | { type: "error"; error: Error };

/** The JSON-RPC error code hx answers an oversized response with (its own, in the server range). */
export const OVERSIZED_MESSAGE_CODE = -32097;

/** Bytes kept of an oversized line's start and end, where a JSON-RPC response names its id. */
const EDGE = 256;

/**
 * Newline-delimited JSON-RPC with a cap on one message. A line over `maxBytes` is not kept:
 * the reader skips to its end, keeping only its first and last bytes to find the response's
 * `id`, so the call it answers can fail at once ("oversized") instead of waiting for its
 * timeout, and the lines after it are read as before.
 */
export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private skipping = false;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly maxBytes: number,
    private readonly parse: (line: string) => JSONRPCMessage,
  ) {}

  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let rest = chunk;
    while (rest.length > 0) {
      const newline = rest.indexOf(10);
      const piece = newline === -1 ? rest : rest.subarray(0, newline);
      rest = newline === -1 ? Buffer.alloc(0) : rest.subarray(newline + 1);
      this.take(piece);
      if (newline !== -1) events.push(...this.endLine());
    }
    return events;
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.skipping = false;
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
  }

  private take(piece: Buffer): void {
    if (!this.skipping && this.size + piece.length > this.maxBytes) {
      const kept = Buffer.concat(this.chunks);
      this.head = Buffer.concat([kept, piece]).subarray(0, EDGE);
      this.tail = lastBytes(Buffer.concat([kept.subarray(-EDGE), piece]));
      this.chunks = [];
      this.skipping = true;
    } else if (this.skipping) {
      this.tail = lastBytes(Buffer.concat([this.tail, piece]));
    } else {
      this.chunks.push(piece);
    }
    this.size += piece.length;
  }

  private endLine(): LineEvent[] {
    if (this.skipping) {
      const event: LineEvent = { type: "oversized", bytes: this.size, id: responseId(this.head, this.tail) };
      this.clear();
      return [event];
    }
    const line = Buffer.concat(this.chunks).toString("utf8").replace(/\r$/, "");
    this.clear();
    if (line.trim() === "") return [];
    try {
      return [{ type: "message", message: this.parse(line) }];
    } catch (error) {
      return [{ type: "error", error: error as Error }];
    }
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length > EDGE ? buffer.subarray(buffer.length - EDGE) : buffer;
}

const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`;

/** The `id` of a response from its first or last bytes (`{"jsonrpc":"2.0","id":7,…` or `…,"id":7}`). */
function responseId(head: Buffer, tail: Buffer): string | number | undefined {
  const match =
    new RegExp(`^\\s*\\{\\s*(?:"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*)?${ID}`).exec(head.toString("utf8")) ??
    new RegExp(`${ID}\\s*\\}\\s*$`).exec(tail.toString("utf8").replace(/\r$/, ""));
  if (!match) return undefined;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return undefined;
  }
}
