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
 * One tool call on screen: a header line (`● bash command="npm test"`), then a short preview of
 * its result (first lines) or, for a file change, a coloured diff. Ctrl-O expands every block.
 */
export class ToolBlock implements Component {
  private state: ToolState = { kind: "running" };

  constructor(
    private readonly call: ToolCall,
    private readonly args: unknown,
    private readonly theme: Theme,
    private readonly view: { expanded: boolean },
    private readonly change: FileChange | undefined,
    private readonly indent = "",
  ) {}

  finish(content: string, isError: boolean, blocked: boolean): void {
    this.state = { kind: "done", content: screenText(content), isError, blocked };
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
