import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { LoopExtension } from "../agent/extension.js";
import { formatCount } from "../core/format-count.js";
import type { ToolOutput } from "../core/tool.js";
import { DEFAULT_SPILL_LIMIT_CHARS, toolResultFile } from "../tools/tool-results.js";
import { keepsWhole } from "./skill-bodies.js";

export interface SpillOptions {
  /** The workspace root; files go to `<root>/.hx/tool-results/`. */
  workspaceRoot: string;
  /** Outputs longer than this many characters are spilled. Default 30,000. */
  /** Outputs longer than this are spilled; a function is read at each call (the window can change). */
  limitChars?: number | (() => number);
  /** Characters of the output kept in the conversation as a preview. Default 2,000. */
  previewChars?: number;
  /** How the model can read on; default names read_file with an offset and grep. */
  howToRead?: ReadHint;
}

/** The sentence telling the model how to read the saved file from line `nextLine`. */
export type ReadHint = (relativePath: string, nextLine: number) => string;

const defaultReadHint: ReadHint = (file, nextLine) =>
  `read the rest with read_file (path "${file}", offset ${nextLine}), or search it with grep.`;

const DEFAULT_PREVIEW_CHARS = 2_000;

/**
 * Keeps one huge tool output from filling the context: the full text is saved under
 * `.hx/tool-results/<callId>.txt` and the conversation gets a preview plus the path, relative
 * to the workspace so a file-reading tool can open it, and the line to continue from.
 * Skill bodies are never spilled (compaction must be able to find them in the conversation).
 */
export function createToolOutputSpill(options: SpillOptions): LoopExtension {
  const limitOf = () =>
    typeof options.limitChars === "function"
      ? options.limitChars()
      : (options.limitChars ?? DEFAULT_SPILL_LIMIT_CHARS);
  const previewChars = options.previewChars ?? DEFAULT_PREVIEW_CHARS;
  return {
    name: "tool-output-spill",
    afterToolCall(prepared, output, state) {
      const limit = limitOf();
      if (output.content.length <= limit || keepsWhole(output.meta)) return undefined;
      const spilled = spillToolOutput(
        options.workspaceRoot,
        prepared.call.id,
        output,
        previewChars,
        options.howToRead ?? defaultReadHint,
      );
      state.emit({
        type: "notice",
        level: "info",
        text: `${prepared.call.name} output (${formatCount(output.content.length)} chars) saved to ${spilled.relativePath}; the model sees a preview`,
      });
      return spilled.output;
    },
  };
}

/** Writes the full output and returns the replacement the model sees. */
export function spillToolOutput(
  workspaceRoot: string,
  callId: string,
  output: ToolOutput,
  previewChars: number,
  howToRead: ReadHint = defaultReadHint,
): { output: ToolOutput; relativePath: string } {
  const { absolute, relativePath } = toolResultFile(workspaceRoot, callId);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, output.content);

  const preview = headLines(output.content, previewChars);
  const shownLines = preview === "" ? 0 : preview.split("\n").length;
  const endsMidLine = output.content[preview.length] !== "\n";
  const nextLine = endsMidLine ? Math.max(1, shownLines) : shownLines + 1;
  const totalLines = output.content.split("\n").length;
  const note =
    `[Output too long for the conversation: ${formatCount(output.content.length)} chars, ${formatCount(totalLines)} lines. ` +
    `Above: the first ${shownLines} line(s). The full output is saved in ${relativePath}; ${howToRead(relativePath, nextLine)}]`;
  const content = preview === "" ? note : `${preview}\n${note}`;
  return { output: output.isError ? { content, isError: true } : { content }, relativePath };
}

/** Whole lines from the start, at most `maxChars` (one cut line when the first is longer). */
function headLines(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf("\n", maxChars);
  return cut > 0 ? text.slice(0, cut) : text.slice(0, maxChars);
}
