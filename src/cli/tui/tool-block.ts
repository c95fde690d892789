import type { Component } from "@mariozechner/pi-tui/dist/tui.js";
import { truncateToWidth } from "@mariozechner/pi-tui/dist/utils.js";
import { changeCounts, renderDiff } from "../diff-view.js";
import { formatToolCallTrace } from "../trace-format.js";
import { KEPT_LINES } from "./live-output.js";
import { screenText } from "./screen-text.js";
import type { Theme } from "./theme.js";
import type { ToolEntry, ToolResultShown } from "./transcript.js";

/** Result lines shown under a collapsed call. */
const PREVIEW_LINES = 3;
/** Diff lines shown under a collapsed edit. */
const DIFF_PREVIEW_LINES = 12;
/** At most this many lines even when expanded (the full text is in the transcript). */
const EXPANDED_LINES = KEPT_LINES;

/** Whether output is shown in full (Ctrl-O). */
export interface ExpandedView {
  readonly expanded: boolean;
}

/**
 * One tool call on screen: a header line (`● bash command="npm test"`), then a short preview of
 * its result (first lines) or, for a file change, a coloured diff. Ctrl-O expands every block.
 */
export class ToolBlock implements Component {
  constructor(
    private readonly entry: ToolEntry,
    private readonly theme: Theme,
    private readonly view: ExpandedView,
  ) {}

  invalidate(): void {}

  render(width: number): string[] {
    const { entry, theme } = this;
    const trace = screenText(formatToolCallTrace(entry.call, entry.args).replace(/^> /, ""));
    const lines = [`${entry.indent}${this.marker()} ${theme.tool(trace)}`];
    const body = entry.result ? this.resultLines(entry.result) : this.liveLines();
    body.forEach((line, index) => {
      lines.push(`${entry.indent}${theme.muted(index === 0 ? "  ⎿ " : "    ")}${line}`);
    });
    return lines.map((line) => truncateToWidth(line, width, "…"));
  }

  private marker(): string {
    const { result } = this.entry;
    const { theme } = this;
    if (!result) return theme.muted("○");
    if (result.blocked) return theme.warn("⊘");
    return result.isError ? theme.error("●") : theme.c.green("●");
  }

  /** A running call's latest lines, newest last; the count of the rest above them. */
  private liveLines(): string[] {
    const { live } = this.entry;
    if (!live) return [];
    const { theme, view } = this;
    const { lines, hidden } = live.tail(view.expanded ? EXPANDED_LINES : PREVIEW_LINES);
    const body =
      hidden > 0 ? [theme.muted(`… +${hidden} lines${view.expanded ? "" : " (Ctrl-O to expand)"}`)] : [];
    body.push(...lines.map((line) => theme.muted(screenText(lastRewrite(line)).replace(/\t/g, "    "))));
    return body;
  }

  /** A finished call: the diff of its file change, or the first lines of its result. */
  private resultLines(result: ToolResultShown): string[] {
    const { theme, view } = this;
    const { change } = this.entry;
    if (change && !result.isError) {
      const { added, removed } = changeCounts(change);
      const diff = renderDiff(change, theme.diff, view.expanded ? EXPANDED_LINES : DIFF_PREVIEW_LINES);
      return [
        theme.muted(`${change.path}: +${added} -${removed}`),
        ...diff.map((line) => line.replace(/\t/g, "    ")),
      ];
    }
    const style = result.blocked ? theme.warn : result.isError ? theme.error : theme.muted;
    const all = result.content.replace(/\n+$/, "").split("\n");
    const shown = all.slice(0, view.expanded ? EXPANDED_LINES : PREVIEW_LINES);
    const body = shown.map((line) => style(line));
    if (all.length > shown.length)
      body.push(
        theme.muted(`… +${all.length - shown.length} lines${view.expanded ? "" : " (Ctrl-O to expand)"}`),
      );
    return body;
  }
}

/** What a line shows after carriage returns (a progress bar redrawing itself): its last rewrite. */
function lastRewrite(line: string): string {
  const text = line.replace(/\r+$/, "");
  return text.slice(text.lastIndexOf("\r") + 1);
}
