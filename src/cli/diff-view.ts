import { structuredPatch } from "diff";
import type { FileChange } from "../tools/file-change.js";
import { neutraliseTerminalText } from "./terminal-safe.js";

export interface DiffStyle {
  added: (text: string) => string;
  removed: (text: string) => string;
  context: (text: string) => string;
  header: (text: string) => string;
}

export const PLAIN_DIFF_STYLE: DiffStyle = {
  added: (t) => t,
  removed: (t) => t,
  context: (t) => t,
  header: (t) => t,
};

/** Lines added and removed by a change. */
export function changeCounts(change: FileChange): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of hunksOf(change)) {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
    }
  }
  return { added, removed };
}

/**
 * A change as diff lines for the screen: `@@ -1,3 +1,4 @@` hunk headers, `+`/`-` lines
 * coloured, 3 lines of context; at most `maxLines` lines, then `… N more lines`. File text is
 * neutralised, so a diff cannot drive the terminal.
 */
export function renderDiff(
  change: FileChange,
  style: DiffStyle,
  maxLines = Number.POSITIVE_INFINITY,
): string[] {
  const out: string[] = [];
  const hunks = hunksOf(change);
  if (hunks.length === 0) return [style.context("(no changes)")];
  for (const hunk of hunks) {
    // As `diff -u` writes it: an empty side counts from the line before it (`-0,0` for a new file).
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    out.push(style.header(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`));
    for (const line of hunk.lines) {
      if (line.startsWith("\\")) continue; // "\ No newline at end of file"
      const text = neutraliseTerminalText(line);
      if (line.startsWith("+")) out.push(style.added(text));
      else if (line.startsWith("-")) out.push(style.removed(text));
      else out.push(style.context(text));
    }
  }
  if (out.length <= maxLines) return out;
  const kept = out.slice(0, Math.max(1, maxLines - 1));
  kept.push(style.context(`… ${out.length - kept.length} more lines`));
  return kept;
}

function hunksOf(change: FileChange) {
  return structuredPatch(change.path, change.path, change.before, change.after, undefined, undefined, {
    context: 3,
  }).hunks;
}
