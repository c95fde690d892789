import type { FileHandle } from "node:fs/promises";

const CHUNK_BYTES = 1024 * 1024;

export interface WindowLine {
  /** The line's first bytes (at most `maxLineBytes`), decoded; no line ending. */
  text: string;
  /** The whole line's length in bytes, line ending excluded. */
  bytes: number;
  /** True when `text` holds only the start of the line. */
  cut: boolean;
}

export interface LineWindow {
  lines: WindowLine[];
  /** Lines in the file; undefined when counting stopped after the window (`countAll` false). */
  total?: number;
}

/**
 * Reads lines [start, start + limit) of an open file in fixed-size chunks, keeping at most
 * `maxLineBytes` of each, so a file of any size, or one line of gigabytes, takes bounded
 * memory. Lines end at "\n" (a "\r" before it is dropped); a final newline does not start
 * another line. With `countAll`, reads on to count every line.
 */
export async function readLineWindow(
  handle: FileHandle,
  options: { start: number; limit: number; maxLineBytes: number; countAll: boolean; signal?: AbortSignal },
): Promise<LineWindow> {
  const { start, limit, maxLineBytes } = options;
  const end = start + limit;
  const lines: WindowLine[] = [];
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let number = 1;
  let kept: Buffer[] = [];
  let keptBytes = 0;
  let lineBytes = 0;
  let pendingCr = false;
  let position = 0;

  const finish = () => {
    if (number >= start && number < end) {
      const whole = Buffer.concat(kept, keptBytes);
      const cut = lineBytes > keptBytes;
      const body = !cut && pendingCr ? whole.subarray(0, whole.length - 1) : whole;
      lines.push({
        text: new TextDecoder().decode(body, { stream: cut }),
        bytes: lineBytes - (pendingCr ? 1 : 0),
        cut,
      });
    }
    number++;
    kept = [];
    keptBytes = 0;
    lineBytes = 0;
    pendingCr = false;
  };
  const take = (piece: Buffer) => {
    if (piece.length === 0) return;
    if (number >= start && number < end && keptBytes < maxLineBytes) {
      const room = Math.min(piece.length, maxLineBytes - keptBytes);
      kept.push(Buffer.from(piece.subarray(0, room)));
      keptBytes += room;
    }
    lineBytes += piece.length;
    pendingCr = piece[piece.length - 1] === 0x0d;
  };

  for (;;) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const chunk = buffer.subarray(0, bytesRead);
    let from = 0;
    for (let newline = chunk.indexOf(0x0a, from); newline !== -1; newline = chunk.indexOf(0x0a, from)) {
      take(chunk.subarray(from, newline));
      finish();
      from = newline + 1;
      if (!options.countAll && number >= end) return { lines };
    }
    take(chunk.subarray(from));
  }
  if (lineBytes > 0) finish();
  return { lines, total: number - 1 };
}
