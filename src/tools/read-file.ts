import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { z } from "zod";
import { ToolError } from "../core/tool.js";
import { defineTool } from "./tool.js";
import { truncate } from "./truncate.js";
import { pathRuleSubject } from "./workspace.js";

const MAX_LINES = 2000;
const MAX_LINE_CHARS = 2000;
const MAX_OUTPUT_CHARS = 50_000;
/** Bytes sniffed for a NUL to tell binary from text. */
const SNIFF_BYTES = 8192;

const parameters = z.object({
  path: z.string().min(1).describe("File path, relative to the workspace root or absolute"),
  offset: z.number().int().min(1).optional().describe("First line to read, 1-based (default 1)"),
  limit: z.number().int().min(1).optional().describe(`How many lines to read (default and max ${MAX_LINES})`),
});

export const readFileTool = defineTool({
  name: "read_file",
  description:
    `Reads a text file with line numbers. At most ${MAX_LINES} lines and ${MAX_OUTPUT_CHARS.toLocaleString("en-US")} chars per call; ` +
    `lines over ${MAX_LINE_CHARS} chars are cut. When more remains the result ends with the offset to continue from. ` +
    `Binary files are refused; use glob to list a directory.`,
  parameters,
  effect: "read",
  ruleSubject: (args, workspace) => pathRuleSubject(args.path, workspace),
  async execute(args, ctx) {
    const file = ctx.workspace.resolveForRead(args.path);
    const shown = ctx.workspace.relative(file);
    const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
      throw new ToolError(`file not found: ${shown}. Use glob to find the right path.`);
    });
    if (info.isDirectory()) {
      throw new ToolError(
        `${shown} is a directory, not a file. Use glob (e.g. pattern "*" with path "${shown}") to list it.`,
      );
    }
    if (await isBinary(file)) {
      throw new ToolError(`${shown} is a binary file (${info.size} bytes); read_file only shows text.`);
    }

    const start = args.offset ?? 1;
    const limit = Math.min(args.limit ?? MAX_LINES, MAX_LINES);
    const { lines, total } = await readLineWindow(file, start, limit, ctx.signal);
    if (total === 0) return `(${shown} is empty)`;
    if (start > total) {
      throw new ToolError(`offset ${start} is past the end of ${shown}, which has ${total} lines.`);
    }

    const body = lines.map((line, i) => formatLine(start + i, line)).join("\n");
    const truncated = truncate(body, {
      maxChars: MAX_OUTPUT_CHARS,
      keep: "head",
      nextStep: (cut) => `Use offset=${start + cut.keptHeadLines} to continue (${total} lines in total).`,
    });
    if (truncated.cut) return truncated.text;
    const end = start + lines.length - 1;
    if (end >= total) return body;
    return `${body}\n[… ${total - end} more lines. Use offset=${end + 1} to continue (${total} lines in total).]`;
  },
});

function formatLine(number: number, line: string): string {
  const text =
    line.length > MAX_LINE_CHARS
      ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${line.length - MAX_LINE_CHARS} more chars]`
      : line;
  return `${String(number).padStart(6)}\t${text}`;
}

async function isBinary(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/** Streams the file, keeping only lines [start, start + limit) and counting all of them. */
async function readLineWindow(
  file: string,
  start: number,
  limit: number,
  signal: AbortSignal,
): Promise<{ lines: string[]; total: number }> {
  const stream = createReadStream(file, { encoding: "utf8", signal });
  const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const lines: string[] = [];
  let total = 0;
  try {
    for await (const line of reader) {
      total++;
      if (total >= start && total < start + limit) lines.push(line);
    }
  } finally {
    reader.close();
    stream.destroy();
  }
  return { lines, total };
}
