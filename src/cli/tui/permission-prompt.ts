import { matchesKey } from "@mariozechner/pi-tui/dist/keys.js";
import type { Component } from "@mariozechner/pi-tui/dist/tui.js";
import { truncateToWidth, wrapTextWithAnsi } from "@mariozechner/pi-tui/dist/utils.js";
import type { PermissionAnswer, PermissionRequest } from "../../permissions/ask.js";
import { changeCounts, renderDiff } from "../diff-view.js";
import { screenText } from "./screen-text.js";
import type { Theme } from "./theme.js";

/**
 * A key is an answer only after this long without typing: since the question appeared and
 * since the key before it. Typing ahead (a sentence holding y, a or n) never answers.
 */
export const ANSWER_GRACE_MS = 300;

export interface PermissionPromptHandlers {
  answer(answer: PermissionAnswer): void;
  /** Esc or Ctrl-C: decline and cancel the turn. */
  cancel(): void;
  /** A key that is not an answer: given back to the prompt editor, so typing is not lost. */
  passThrough(data: string): void;
  /** What the prompt editor holds (shown under the question, so typing is seen). */
  draft(): string;
}

/**
 * The approval question, drawn where the prompt editor was: what the call is, why it is asked,
 * the diff of a file change, and the keys. `y` yes, `a` always, `n` no; Esc or Ctrl-C declines
 * and cancels the turn. Answers never reach the prompt's history.
 */
export class PermissionPrompt implements Component {
  focused = false;
  /** When the last key came; the question's appearance counts as one. */
  private lastKeyAt = Date.now();

  constructor(
    private readonly request: PermissionRequest,
    private readonly theme: Theme,
    private readonly maxDiffLines: () => number,
    private readonly handlers: PermissionPromptHandlers,
  ) {}

  invalidate(): void {}

  handleInput(data: string): void {
    if (matchesKey(data, "ctrl+c") || matchesKey(data, "escape")) {
      this.handlers.cancel();
      return;
    }
    const key = data.length === 1 ? data.toLowerCase() : "";
    const now = Date.now();
    const typing = now - this.lastKeyAt < ANSWER_GRACE_MS;
    this.lastKeyAt = now;
    if (!typing && (key === "y" || key === "a" || key === "n")) {
      this.handlers.answer(key === "y" ? "yes" : key === "a" ? "always" : "no");
      return;
    }
    this.handlers.passThrough(data);
  }

  render(width: number): string[] {
    const { theme, request } = this;
    const border = theme.muted("─".repeat(Math.max(1, width)));
    const lines = [border];
    const question = `${theme.c.bold(`Allow ${screenText(request.rule)}?`)} ${theme.muted(screenText(request.reason))}`;
    lines.push(...wrapTextWithAnsi(question, width));
    if (request.preview) {
      const { added, removed } = changeCounts(request.preview);
      lines.push(theme.muted(`${screenText(request.preview.path)}: +${added} -${removed}`));
      for (const line of renderDiff(request.preview, theme.diff, this.maxDiffLines()))
        lines.push(truncateToWidth(line.replace(/\t/g, "    "), width, "…"));
    }
    const draft = this.handlers.draft();
    if (draft)
      lines.push(
        theme.muted(`prompt: ${screenText(draft).split("\n").join(" ⏎ ")} (typing goes to the prompt)`),
      );
    lines.push(
      `${theme.c.green("[y]")} yes  ${theme.c.cyan("[a]")} always (save the rule)  ${theme.c.red("[n]")} no  ${theme.muted("Esc: no, and stop the turn")}`,
    );
    lines.push(border);
    return lines.map((line) => truncateToWidth(line, width, "…"));
  }
}
