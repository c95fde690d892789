import { formatCount } from "../core/format-count.js";
import { ToolError } from "../core/tool.js";
import { binaryKind, invalidUtf8Offset, SNIFF_BYTES } from "../fs/file-signature.js";
import { formatBytes } from "../fs/regular-file.js";
import { builtSchema } from "./built-schemas.js";
import { absolutePath, defined, text } from "./claude-shape.js";
import { openForTool } from "./file-open.js";
import { readLineWindow, type WindowLine } from "./line-window.js";
import { defineTool, type Zod } from "./tool.js";
import { truncate } from "./truncate.js";
import { pathRuleSubject } from "./workspace.js";

const MAX_LINES = 2000;
const MAX_LINE_CHARS = 2000;
const MAX_OUTPUT_CHARS = 50_000;
/** Bytes kept of each line: enough for MAX_LINE_CHARS characters of any script. */
const MAX_LINE_BYTES = MAX_LINE_CHARS * 4;
/** Larger files are not scanned to the end just to count their lines. */
const COUNT_ALL_BYTES = 64 * 1024 * 1024;

export const readFileParameters = (z: Zod) =>
  z.object({
    path: z.string().min(1),
    offset: z.number().int().min(1).optional().describe("First line, 1-based"),
    limit: z.number().int().min(1).optional().describe(`At most ${MAX_LINES}`),
  });

export const readFileTool = defineTool({
  name: "read_file",
  description:
    `Reads a text file with line numbers, ${MAX_LINES} lines at most (long lines cut); ` +
    "if more remains, the result gives the next offset. Use glob to list a folder.",
  parameters: readFileParameters,
  jsonSchema: builtSchema("read_file"),
  effect: "read",
  ruleSubject: (args, workspace) => pathRuleSubject(args.path, workspace),
  claude: {
    name: "Read",
    input: (args, workspace) =>
      defined({ file_path: absolutePath(workspace, args.path), offset: args.offset, limit: args.limit }),
    args: (input) => defined({ path: text(input, "file_path"), offset: input.offset, limit: input.limit }),
    response: (args, output, workspace) => ({
      type: "text",
      file: { filePath: absolutePath(workspace, args.path), content: output.content },
    }),
  },
  async execute(args, ctx) {
    const file = ctx.workspace.resolveForRead(args.path);
    const shown = ctx.workspace.relative(file);
    const { handle, stats } = await openForTool(file, shown, {
      missing: "Use glob to find the right path.",
      directory: `Use glob (e.g. pattern "*" with path "${shown}") to list it.`,
    });
    try {
      const head = Buffer.alloc(Math.min(SNIFF_BYTES, stats.size));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      const kind = binaryKind(head.subarray(0, bytesRead));
      if (kind !== undefined) {
        throw new ToolError(
          `${shown} is a binary file (${kind}, ${formatBytes(stats.size)}); read_file only shows text. ` +
            "Use bash (e.g. file, xxd | head) to inspect it.",
        );
      }

      const start = args.offset ?? 1;
      const limit = Math.min(args.limit ?? MAX_LINES, MAX_LINES);
      const window = await readLineWindow(handle, {
        start,
        limit,
        maxLineBytes: MAX_LINE_BYTES,
        countAll: stats.size <= COUNT_ALL_BYTES,
        signal: ctx.signal,
      });
      const total = window.total;
      if (total === 0) return `(${shown} is empty)`;
      if (total !== undefined && start > total) {
        throw new ToolError(`offset ${start} is past the end of ${shown}, which has ${total} lines.`);
      }

      const text = renderWindow(
        window.lines,
        start,
        total,
        total === undefined ? `${shown} is ${formatBytes(stats.size)}` : `${total} lines in total`,
      );
      const notUtf8 = invalidUtf8Offset(head.subarray(0, bytesRead), bytesRead < stats.size) !== -1;
      return notUtf8
        ? `${text}\n[${shown} is not valid UTF-8 (latin-1 or another encoding?): bytes that are not UTF-8 show as \uFFFD. edit_file will refuse it.]`
        : text;
    } finally {
      await handle.close();
    }
  },
});

/** Numbered lines, cut to the output cap, with the offset to continue from when more remain. */
function renderWindow(
  lines: WindowLine[],
  start: number,
  total: number | undefined,
  totalNote: string,
): string {
  // Numbers as wide as the window's last one: aligned, without cat -n's six columns per line.
  const width = String(start + lines.length - 1).length;
  const body = lines.map((line, i) => formatLine(start + i, width, line)).join("\n");
  const truncated = truncate(body, {
    maxChars: MAX_OUTPUT_CHARS,
    keep: "head",
    nextStep: (cut) => `Use offset=${start + cut.keptHeadLines} to continue (${totalNote}).`,
  });
  if (truncated.cut) return truncated.text;
  const end = start + lines.length - 1;
  if (total === undefined)
    return `${body}\n[… more lines follow. Use offset=${end + 1} to continue (${totalNote}).]`;
  if (end >= total) return body;
  return `${body}\n[… ${total - end} more lines. Use offset=${end + 1} to continue (${totalNote}).]`;
}

function formatLine(number: number, width: number, line: WindowLine): string {
  let text = line.text;
  if (text.length > MAX_LINE_CHARS) {
    text = text.slice(0, MAX_LINE_CHARS);
    // The first MAX_LINE_CHARS chars were cut from bytes we kept whole, or from a longer line.
    const rest = line.cut
      ? `${formatCount(line.bytes - Buffer.byteLength(text))} more bytes`
      : `${line.text.length - MAX_LINE_CHARS} more chars`;
    text = `${text}… [line cut: ${rest}]`;
  } else if (line.cut) {
    text = `${text}… [line cut: ${formatCount(line.bytes - Buffer.byteLength(text))} more bytes]`;
  }
  return `${String(number).padStart(width)}\t${text}`;
}
