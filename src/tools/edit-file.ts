import type { Stats } from "node:fs";
import { ToolError } from "../core/tool.js";
import { binaryKind, invalidUtf8Offset, SNIFF_BYTES } from "../fs/file-signature.js";
import { formatBytes, readAllCapped } from "../fs/regular-file.js";
import { builtSchema } from "./built-schemas.js";
import { absolutePath, defined, succeeded, text } from "./claude-shape.js";
import { previewEdit } from "./file-change.js";
import { openForTool } from "./file-open.js";
import { writeForTool } from "./file-write.js";
import { findLooseMatch, findOccurrences, lineAt, replaceAt } from "./text-match.js";
import { defineTool, type Zod } from "./tool.js";
import { truncate } from "./truncate.js";
import { pathRuleSubject } from "./workspace.js";

const MAX_DIFF_CHARS = 8_000;
/** Larger files are edited with bash (sed, a script), not read whole into memory. */
const MAX_EDIT_BYTES = 16 * 1024 * 1024;
/** How many match locations a "several matches" error lists. */
const MAX_LISTED_MATCHES = 10;

export const editFileParameters = (z: Zod) =>
  z.object({
    path: z.string().min(1),
    old_text: z.string(),
    new_text: z.string(),
    replace_all: z.boolean().optional().describe("All occurrences"),
  });

export const editFileTool = defineTool({
  name: "edit_file",
  description:
    "Replaces old_text with new_text in a file; returns the diff. old_text must match exactly (whitespace too) " +
    "and occur once unless replace_all (add nearby lines to make it unique). Read the file first.",
  parameters: editFileParameters,
  jsonSchema: builtSchema("edit_file"),
  effect: "write",
  ruleSubject: (args, workspace) => pathRuleSubject(args.path, workspace),
  preview: (args, workspace) => previewEdit(workspace, args),
  claude: {
    name: "Edit",
    aliases: ["MultiEdit"],
    input: (args, workspace) =>
      defined({
        file_path: absolutePath(workspace, args.path),
        old_string: args.old_text,
        new_string: args.new_text,
        replace_all: args.replace_all ?? false,
      }),
    args: (input) =>
      defined({
        path: text(input, "file_path"),
        old_text: text(input, "old_string"),
        new_text: text(input, "new_string"),
        replace_all: input.replace_all,
      }),
    response: (args, output, workspace) => ({
      filePath: absolutePath(workspace, args.path),
      oldString: args.old_text,
      newString: args.new_text,
      replaceAll: args.replace_all ?? false,
      success: succeeded(output),
    }),
  },
  async execute(args, ctx) {
    const file = ctx.workspace.resolveForWrite(args.path);
    const shown = ctx.workspace.relative(file);
    if (args.old_text === "")
      throw new ToolError("old_text is empty. To create or replace a whole file, use write_file.");
    if (args.old_text === args.new_text)
      throw new ToolError("old_text and new_text are identical; nothing to change.");

    const { raw, stats } = await readUtf8ForEdit(file, shown);
    const { bom, text, crlf } = decodeText(raw);
    const oldText = toLf(args.old_text);
    const newText = toLf(args.new_text);

    const offsets = findOccurrences(text, oldText);
    if (offsets.length === 0) throw new ToolError(noMatchMessage(shown, text, oldText));
    if (offsets.length > 1 && !args.replace_all) {
      const lines = offsets.slice(0, MAX_LISTED_MATCHES).map((offset) => lineAt(text, offset));
      const more = offsets.length > MAX_LISTED_MATCHES ? ", …" : "";
      throw new ToolError(
        `old_text occurs ${offsets.length} times in ${shown} (at lines ${lines.join(", ")}${more}). ` +
          "Add surrounding lines to old_text so it matches once, or set replace_all to change every occurrence.",
      );
    }

    const updated = replaceAt(text, offsets, oldText.length, newText);
    await writeForTool(ctx.workspace, file, shown, encodeText(updated, bom, crlf), stats);
    const count = offsets.length === 1 ? "1 occurrence" : `${offsets.length} occurrences`;
    return `Edited ${shown}: replaced ${count}.\n${await diffOf(shown, text, updated)}`;
  },
});

/**
 * The file's text, only when editing it cannot damage it: a regular file, at most
 * MAX_EDIT_BYTES, no binary content, valid UTF-8 throughout (so decoding and encoding again
 * gives back every byte outside the edited text).
 */
async function readUtf8ForEdit(file: string, shown: string): Promise<{ raw: string; stats: Stats }> {
  const { handle, stats } = await openForTool(file, shown, {
    missing: "To create it, use write_file.",
    directory: "Give the path of a file in it.",
  });
  let bytes: Buffer | undefined;
  try {
    bytes = await readAllCapped(handle, MAX_EDIT_BYTES);
  } finally {
    await handle.close();
  }
  if (bytes === undefined) {
    throw new ToolError(
      `${shown} is ${formatBytes(stats.size)}; edit_file edits files up to ${formatBytes(MAX_EDIT_BYTES)}. Use bash (sed or a short script) for larger files.`,
    );
  }
  const kind = binaryKind(bytes.subarray(0, SNIFF_BYTES));
  if (kind !== undefined) {
    throw new ToolError(
      `${shown} is a binary file (${kind}, ${formatBytes(bytes.length)}); edit_file only edits UTF-8 text, so it was not touched.`,
    );
  }
  const bad = invalidUtf8Offset(bytes);
  if (bad !== -1) {
    const line = bytes.subarray(0, bad).filter((byte) => byte === 0x0a).length + 1;
    throw new ToolError(
      `${shown} is not valid UTF-8 (byte 0x${bytes[bad].toString(16).toUpperCase().padStart(2, "0")} on line ${line}; it may be latin-1 or another encoding). ` +
        "edit_file refuses it rather than corrupt those bytes; it was not touched. Convert it first " +
        `(e.g. iconv -f latin1 -t utf-8) or change it with bash.`,
    );
  }
  return { raw: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), stats };
}

interface DecodedText {
  bom: string;
  /** The content with "\n" line endings. */
  text: string;
  /** True when every line ending in the file was "\r\n"; mixed files are edited as they are. */
  crlf: boolean;
}

function decodeText(raw: string): DecodedText {
  const bom = raw.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = raw.slice(bom.length);
  const crlf = body.includes("\r\n") && !/(^|[^\r])\n/.test(body);
  return { bom, text: crlf ? body.replaceAll("\r\n", "\n") : body, crlf };
}

function encodeText(text: string, bom: string, crlf: boolean): string {
  return bom + (crlf ? text.replaceAll("\n", "\r\n") : text);
}

function toLf(text: string): string {
  return text.replaceAll("\r\n", "\n");
}

function noMatchMessage(shown: string, text: string, oldText: string): string {
  const base = `old_text was not found in ${shown}.`;
  const loose = findLooseMatch(text, oldText);
  if (!loose) return `${base} Read the file again and copy the text exactly, whitespace included.`;
  const where = loose.first === loose.last ? `line ${loose.first}` : `lines ${loose.first}-${loose.last}`;
  const excerpt = truncate(loose.text, { maxChars: 2_000, keep: "head" }).text;
  return `${base} It matches ${where} if whitespace is ignored, so the indentation or spacing differs. The file has:\n${excerpt}`;
}

/** The hunks of a unified diff (no file header), capped. `diff` loads on the first edit. */
async function diffOf(shown: string, before: string, after: string): Promise<string> {
  const { createPatch } = await import("diff");
  const patch = createPatch(shown, before, after, undefined, undefined, { context: 3 });
  const hunks = patch.slice(Math.max(0, patch.indexOf("@@"))).replace(/\n$/, "");
  return truncate(hunks, {
    maxChars: MAX_DIFF_CHARS,
    keep: "head",
    nextStep: "Use read_file to check the rest of the change.",
  }).text;
}
