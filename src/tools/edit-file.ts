import { readFile, writeFile } from "node:fs/promises";
import { createPatch } from "diff";
import { z } from "zod";
import { ToolError } from "../core/tool.js";
import { findLooseMatch, findOccurrences, lineAt, replaceAt } from "./text-match.js";
import { defineTool } from "./tool.js";
import { truncate } from "./truncate.js";
import { pathRuleSubject } from "./workspace.js";

const MAX_DIFF_CHARS = 8_000;
/** How many match locations a "several matches" error lists. */
const MAX_LISTED_MATCHES = 10;

const parameters = z.object({
  path: z.string().min(1).describe("File path, relative to the workspace root or absolute"),
  old_text: z.string().describe("The exact text to replace, whitespace included"),
  new_text: z.string().describe("The text to put in its place"),
  replace_all: z
    .boolean()
    .optional()
    .describe("Replace every occurrence (default: old_text must occur exactly once)"),
});

export const editFileTool = defineTool({
  name: "edit_file",
  description:
    "Replaces exact text in a file and returns a diff of the change. old_text must match the file exactly " +
    "(whitespace and indentation included) and occur once, unless replace_all is set; add surrounding lines to make it unique. " +
    "Read the file first. To create a file, use write_file.",
  parameters,
  effect: "write",
  ruleSubject: (args, workspace) => pathRuleSubject(args.path, workspace),
  async execute(args, ctx) {
    const file = ctx.workspace.resolveForWrite(args.path);
    const shown = ctx.workspace.relative(file);
    if (args.old_text === "")
      throw new ToolError("old_text is empty. To create or replace a whole file, use write_file.");
    if (args.old_text === args.new_text)
      throw new ToolError("old_text and new_text are identical; nothing to change.");

    const raw = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT")
        throw new ToolError(`file not found: ${shown}. To create it, use write_file.`);
      if (error.code === "EISDIR") throw new ToolError(`${shown} is a directory, not a file.`);
      throw error;
    });
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
    await writeFile(file, encodeText(updated, bom, crlf), "utf8");
    const count = offsets.length === 1 ? "1 occurrence" : `${offsets.length} occurrences`;
    return `Edited ${shown}: replaced ${count}.\n${diffOf(shown, text, updated)}`;
  },
});

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

/** The hunks of a unified diff (no file header), capped. */
function diffOf(shown: string, before: string, after: string): string {
  const patch = createPatch(shown, before, after, undefined, undefined, { context: 3 });
  const hunks = patch.slice(Math.max(0, patch.indexOf("@@"))).replace(/\n$/, "");
  return truncate(hunks, {
    maxChars: MAX_DIFF_CHARS,
    keep: "head",
    nextStep: "Use read_file to check the rest of the change.",
  }).text;
}
