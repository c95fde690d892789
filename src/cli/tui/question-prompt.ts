import { Input } from "@mariozechner/pi-tui/dist/components/input.js";
import { matchesKey } from "@mariozechner/pi-tui/dist/keys.js";
import type { Component } from "@mariozechner/pi-tui/dist/tui.js";
import { truncateToWidth, wrapTextWithAnsi } from "@mariozechner/pi-tui/dist/utils.js";
import type { PermissionRequest } from "../../permissions/index.js";
import { changeCounts, renderDiff } from "../diff-view.js";
import { type PromptChoiceLike, questionText } from "../permission-choices.js";
import { screenText } from "./screen-text.js";
import type { Theme } from "./theme.js";

/**
 * A key answers only when it stands alone: no other key this long before it (the question's
 * appearance counts as a key) and none this long after it. A sentence typed ahead, however late
 * it starts, holds no lone key, so it never answers; it goes to the prompt.
 */
export const ANSWER_GRACE_MS = 300;

/** The most diff lines shown, even when Ctrl-O has expanded the diff. */
const EXPANDED_DIFF_LINES = 400;

/** The approval question's body: the call, why it is asked, the diff of a file change. */
export function permissionBody(request: PermissionRequest, theme: Theme): QuestionBody {
  return (width) => {
    const question = `${theme.c.bold(screenText(questionText(request)))} ${theme.muted(screenText(request.reason))}`;
    const lines = wrapTextWithAnsi(question, width);
    if (!request.preview) return lines;
    const { added, removed } = changeCounts(request.preview);
    lines.push(theme.muted(`${screenText(request.preview.path)}: +${added} -${removed}`));
    for (const line of renderDiff(request.preview, theme.diff, EXPANDED_DIFF_LINES))
      lines.push(truncateToWidth(line.replace(/\t/g, "    "), width, "…"));
    return lines;
  };
}

/** One answer a question offers: picked by its key, its number, or ↑↓ and Enter. */
export type PromptChoice<C extends string> = PromptChoiceLike<C>;

/** What a question shows above its choices; `expanded`: Ctrl-O pressed (a long diff in full). */
export type QuestionBody = (width: number, expanded: boolean) => string[];

export interface QuestionOptions<C extends string> {
  body: QuestionBody;
  choices: readonly PromptChoice<C>[];
  /** The choice that opens a line for text (what to do instead), and that line's title. */
  text?: { choice: C; title: string; hint: string };
  /** Rows the body may take before it is cut (the screen's, less the question's own lines). */
  maxBodyLines: () => number;
}

export interface PermissionPromptHandlers<C extends string = string> {
  /** A choice made deliberately; `text`: what was typed on the text choice's line. */
  choose(choice: C, text?: string): void;
  /** Esc or Ctrl-C: decline and cancel the turn. */
  cancel(): void;
  /** Keys that are not an answer: given back to the prompt editor, so typing is not lost. */
  passThrough(data: string): void;
  /** What the prompt editor holds (shown under the question, so typing is seen). */
  draft(): string;
  /** Redraw (a held key turned into an answer or into typing). */
  requestRender(): void;
}

/** The clock and timer the question uses (tests pass fake ones). */
export interface PromptClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const REAL_CLOCK: PromptClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/**
 * A question drawn where the prompt editor was (an approval, a plan): its body (Ctrl-O shows
 * all of a long one) and the choices — picked with ↑↓ and Enter or by their key; the text
 * choice opens a line. Esc or Ctrl-C declines and cancels the turn. Answers never reach the
 * prompt's history.
 */
export class QuestionPrompt<C extends string> implements Component {
  focused = false;
  private selected = 0;
  private diffExpanded = false;
  /** When the last key came; the question's appearance counts as one. */
  private lastKeyAt: number;
  /** An answer key waiting to see whether another key follows it. */
  private held?: { data: string; choice: C; timer: unknown };
  /** The line for "what to do instead", once that choice is taken. */
  private instead?: Input;

  private readonly choices: readonly PromptChoice<C>[];

  constructor(
    private readonly options: QuestionOptions<C>,
    private readonly theme: Theme,
    private readonly handlers: PermissionPromptHandlers<C>,
    private readonly clock: PromptClock = REAL_CLOCK,
  ) {
    this.choices = options.choices;
    this.lastKeyAt = clock.now();
  }

  invalidate(): void {}

  handleInput(data: string): void {
    if (this.instead) {
      this.handleInsteadInput(data);
      return;
    }
    if (matchesKey(data, "ctrl+c") || matchesKey(data, "escape")) {
      this.drop();
      this.handlers.cancel();
      return;
    }
    // Moving the selection and Ctrl-O are never typing: they neither answer nor count as a key
    // next to one (↓ then Enter at once confirms).
    const up = matchesKey(data, "up");
    if (up || matchesKey(data, "down") || matchesKey(data, "ctrl+o")) {
      if (this.held) {
        this.handlers.passThrough(this.held.data);
        this.drop();
      }
      if (matchesKey(data, "ctrl+o")) this.diffExpanded = !this.diffExpanded;
      else this.selected = (this.selected + (up ? -1 : 1) + this.choices.length) % this.choices.length;
      return;
    }
    const now = this.clock.now();
    const alone = now - this.lastKeyAt >= ANSWER_GRACE_MS;
    this.lastKeyAt = now;
    if (this.held) {
      // The held key had company: it and this key are typing.
      const { data: first } = this.held;
      this.drop();
      this.handlers.passThrough(first);
      this.handlers.passThrough(data);
      return;
    }
    const choice = this.choiceFor(data);
    if (alone && choice) {
      const timer = this.clock.setTimeout(() => this.commit(), ANSWER_GRACE_MS);
      this.held = { data, choice, timer };
      return;
    }
    this.handlers.passThrough(data);
  }

  render(width: number): string[] {
    if (this.instead) return this.renderInstead(width);
    const { theme } = this;
    const border = theme.muted("─".repeat(Math.max(1, width)));
    const lines = [border];
    const body = this.options.body(width, this.diffExpanded);
    const max = Math.max(2, this.options.maxBodyLines());
    if (this.diffExpanded || body.length <= max) lines.push(...body);
    else {
      lines.push(...body.slice(0, max - 1));
      lines.push(theme.muted(`… ${body.length - (max - 1)} more lines (Ctrl-O: the whole of it)`));
    }
    if (this.diffExpanded && body.length > max) lines.push(theme.muted("(Ctrl-O: shorter)"));
    const draft = this.handlers.draft();
    if (draft)
      lines.push(
        theme.muted(`prompt: ${screenText(draft).split("\n").join(" ⏎ ")} (typing goes to the prompt)`),
      );
    this.choices.forEach((option, index) => {
      const mark = index === this.selected ? theme.accent("❯") : " ";
      const label = `${index + 1}. ${screenText(option.label)}`;
      lines.push(
        `${mark} ${index === this.selected ? theme.c.bold(label) : label} ${theme.muted(`[${option.key}]`)}`,
      );
    });
    lines.push(theme.muted("↑↓ and Enter, or a key · Esc: no, and stop the turn"));
    lines.push(border);
    return lines.map((line) => truncateToWidth(line, width, "…"));
  }

  /**
   * The choice a key picks: its letter, its number, or Enter on the selected one — unless the
   * prompt holds typing: then Enter sends that (it is queued), as it would without a question.
   */
  private choiceFor(data: string): C | undefined {
    if (matchesKey(data, "enter"))
      return this.handlers.draft() ? undefined : this.choices[this.selected]?.choice;
    if (data.length !== 1) return undefined;
    const key = data.toLowerCase();
    const byNumber = Number(key);
    if (Number.isInteger(byNumber) && byNumber >= 1) return this.choices[byNumber - 1]?.choice;
    return this.choices.find((option) => option.key === key)?.choice;
  }

  /** The held key stood alone: it is the answer. */
  private commit(): void {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    if (held.choice === this.options.text?.choice) {
      this.openInstead();
      this.handlers.requestRender();
      return;
    }
    this.handlers.choose(held.choice);
  }

  private drop(): void {
    if (this.held) this.clock.clearTimeout(this.held.timer);
    this.held = undefined;
  }

  private openInstead(): void {
    const input = new Input();
    input.focused = this.focused;
    input.onSubmit = (text) => {
      const choice = this.options.text?.choice;
      if (choice && text.trim()) this.handlers.choose(choice, text);
    };
    input.onEscape = () => {
      this.instead = undefined;
    };
    this.instead = input;
  }

  private handleInsteadInput(data: string): void {
    if (matchesKey(data, "ctrl+c")) {
      this.handlers.cancel();
      return;
    }
    this.instead?.handleInput(data);
  }

  private renderInstead(width: number): string[] {
    const { theme } = this;
    const border = theme.muted("─".repeat(Math.max(1, width)));
    const lines = [
      border,
      ...wrapTextWithAnsi(this.options.text?.title ?? "", width),
      ...(this.instead?.render(width) ?? []),
      theme.muted(this.options.text?.hint ?? ""),
      border,
    ];
    return lines.map((line) => truncateToWidth(line, width, "…"));
  }
}
