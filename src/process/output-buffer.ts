import { StringDecoder } from "node:string_decoder";

/**
 * Collects a process's output in bounded memory: the first `keepEach` chars and roughly the
 * last `keepEach` chars; whatever falls in between is only counted. Pass `dropped()` to
 * `truncate` as `alreadyCut` so the note stays exact.
 */
export class OutputBuffer {
  private head = "";
  private readonly tail: string[] = [];
  private tailLength = 0;
  private droppedChars = 0;
  private droppedLines = 0;
  private readonly decoders = new Map<string, StringDecoder>();

  constructor(private readonly keepEach: number) {}

  /** Appends raw bytes from one stream; each stream keeps its own decoder so UTF-8 survives chunking. */
  write(stream: string, chunk: Buffer): void {
    let decoder = this.decoders.get(stream);
    if (!decoder) {
      decoder = new StringDecoder("utf8");
      this.decoders.set(stream, decoder);
    }
    this.append(decoder.write(chunk));
  }

  append(text: string): void {
    let rest = text;
    if (this.head.length < this.keepEach) {
      const room = this.keepEach - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest === "") return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    while (this.tail.length > 1 && this.tailLength - this.tail[0].length >= this.keepEach) {
      const old = this.tail.shift()!;
      this.tailLength -= old.length;
      this.droppedChars += old.length;
      this.droppedLines += countNewlines(old);
    }
  }

  /** The kept text (head + tail); flushes any bytes the decoders still hold. */
  text(): string {
    for (const decoder of this.decoders.values()) {
      const rest = decoder.end();
      if (rest) this.append(rest);
    }
    this.decoders.clear();
    return this.head + this.tail.join("");
  }

  dropped(): { chars: number; lines: number } {
    return { chars: this.droppedChars, lines: this.droppedLines };
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return count;
}
