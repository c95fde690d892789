import type { Component } from "@mariozechner/pi-tui/dist/tui.js";
import { truncateToWidth } from "@mariozechner/pi-tui/dist/utils.js";
import type { ToolCall } from "../../core/messages.js";
import type { FileChange } from "../../tools/file-change.js";
import { changeCounts, renderDiff } from "../diff-view.js";
import { formatToolCallTrace } from "../trace-format.js";
import { screenText } from "./screen-text.js";
import type { Theme } from "./theme.js";

/** Result lines shown under a collapsed call. */
const PREVIEW_LINES = 3;
/** Diff lines shown under a collapsed edit. */
const DIFF_PREVIEW_LINES = 12;
/** At most this many lines even when expanded (the full text is in the transcript). */
const EXPANDED_LINES = 400;

type ToolState = { kind: "running" } | { kind: "done"; content: string; isError: boolean; blocked: boolean };

/**
 * The output of a running call, as it comes: its last lines (at most EXPANDED_LINES kept), the
 * line still being written, and how many lines came in all. Bounded whatever the call prints.
 */
export class LiveOutput {
  private lines: string[] = [];
  private partial = "";
  private total = 0;

  append(text: string): void {
    const parts = (this.partial + text).split("\n");
    this.partial = parts.pop() ?? "";
    this.total += parts.length;
    // Only the tail can be shown: older lines are counted, not kept.
    const keep = parts.length > EXPANDED_LINES ? parts.slice(-EXPANDED_LINES) : parts;
    this.lines.push(...keep);
    if (this.lines.length > EXPANDED_LINES) this.lines.splice(0, this.lines.length - EXPANDED_LINES);
  }

  /** The last `max` lines, and how many came before them. */
  tail(max: number): { lines: string[]; hidden: number } {
    const all = this.partial ? [...this.lines.slice(-max), this.partial] : this.lines;
    const lines = all.slice(-max);
    const count = this.total + (this.partial ? 1 : 0);
    return { lines, hidden: count - lines.length };
  }
}

/**
 * One tool call on screen: a header line (`● bash command="npm test"`), then a short preview of
 * its result (first lines) or, for a file change, a coloured diff. Ctrl-O expands every block.
 */
export class ToolBlock implements Component {
  private state: ToolState = { kind: "running" };
  private live?: LiveOutput;

  constructor(
    private readonly call: ToolCall,
    private readonly args: unknown,
    private readonly theme: Theme,
    private readonly view: { expanded: boolean },
    private readonly change: FileChange | undefined,
    private readonly indent = "",
  ) {}

  /** Output of the running call (a command's lines as they come). */
  progress(text: string): void {
    if (this.state.kind !== "running") return;
    this.live ??= new LiveOutput();
    this.live.append(text);
  }

  finish(content: string, isError: boolean, blocked: boolean): void {
    this.state = { kind: "done", content: screenText(content), isError, blocked };
    this.live = undefined;
  }

  invalidate(): void {}

  render(width: number): string[] {
    const { theme } = this;
    const trace = screenText(formatToolCallTrace(this.call, this.args).replace(/^> /, ""));
    const state = this.state;
    const marker =
      state.kind === "running"
        ? theme.muted("○")
        : state.blocked
          ? theme.warn("⊘")
          : state.isError
            ? theme.error("●")
            : theme.c.green("●");
    const lines = [`${this.indent}${marker} ${theme.tool(trace)}`];
    const body: string[] = [];
    if (state.kind === "running" && this.live) {
      // The latest lines, newest last; the count of the rest above them.
      const { lines: latest, hidden } = this.live.tail(this.view.expanded ? EXPANDED_LINES : PREVIEW_LINES);
      if (hidden > 0)
        body.push(theme.muted(`… +${hidden} lines${this.view.expanded ? "" : " (Ctrl-O to expand)"}`));
      body.push(...latest.map((line) => theme.muted(screenText(lastRewrite(line)).replace(/\t/g, "    "))));
    }
    if (state.kind === "done") {
      if (this.change && !state.isError) {
        const { added, removed } = changeCounts(this.change);
        body.push(theme.muted(`${this.change.path}: +${added} -${removed}`));
        body.push(
          ...renderDiff(
            this.change,
            theme.diff,
            this.view.expanded ? EXPANDED_LINES : DIFF_PREVIEW_LINES,
          ).map((line) => line.replace(/\t/g, "    ")),
        );
      } else {
        const style = state.blocked ? theme.warn : state.isError ? theme.error : theme.muted;
        const all = state.content.replace(/\n+$/, "").split("\n");
        const shown = all.slice(0, this.view.expanded ? EXPANDED_LINES : PREVIEW_LINES);
        body.push(...shown.map((line) => style(line)));
        if (all.length > shown.length)
          body.push(
            theme.muted(
              `… +${all.length - shown.length} lines${this.view.expanded ? "" : " (Ctrl-O to expand)"}`,
            ),
          );
      }
    }
    body.forEach((line, index) => {
      lines.push(`${this.indent}${theme.muted(index === 0 ? "  ⎿ " : "    ")}${line}`);
    });
    return lines.map((line) => truncateToWidth(line, width, "…"));
  }
}

/** What a line shows after carriage returns (a progress bar redrawing itself): its last rewrite. */
function lastRewrite(line: string): string {
  const text = line.replace(/\r+$/, "");
  return text.slice(text.lastIndexOf("\r") + 1);
}
