import { decodeKittyPrintable, matchesKey } from "@mariozechner/pi-tui/dist/keys.js";
import type { Component } from "@mariozechner/pi-tui/dist/tui.js";
import { truncateToWidth } from "@mariozechner/pi-tui/dist/utils.js";
import type { PromptHistory } from "./prompt-history.js";
import { screenText } from "./screen-text.js";
import type { Theme } from "./theme.js";

/**
 * Ctrl-R: search the prompt history as a shell does. Typing narrows, Ctrl-R again goes to an
 * older match, Enter takes the match into the prompt, Esc or Ctrl-C (or Ctrl-G) gives up.
 */
export class HistorySearch implements Component {
  focused = false;
  private query = "";
  private match?: { index: number; text: string };

  constructor(
    private readonly history: PromptHistory,
    private readonly theme: Theme,
    private readonly done: (text: string | undefined) => void,
  ) {}

  invalidate(): void {}

  handleInput(data: string): void {
    if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c") || matchesKey(data, "ctrl+g")) {
      this.done(undefined);
    } else if (matchesKey(data, "enter")) {
      this.done(this.match?.text);
    } else if (matchesKey(data, "ctrl+r")) {
      const older = this.history.search(this.query, this.match?.index ?? this.history.entries.length);
      if (older) this.match = older;
    } else if (matchesKey(data, "backspace")) {
      this.query = this.query.slice(0, -1);
      this.match = this.history.search(this.query);
    } else {
      const printable = decodeKittyPrintable(data) ?? (data.length === 1 && data >= " " ? data : undefined);
      if (!printable) return;
      this.query += printable;
      this.match = this.history.search(this.query);
    }
  }

  render(width: number): string[] {
    const found = this.match ? screenText(this.match.text).split("\n")[0] : this.query ? "(no match)" : "";
    const line = `${this.theme.accent("(history search)")} '${this.query}': ${found}`;
    return [
      truncateToWidth(line, width, "…"),
      truncateToWidth(this.theme.muted("Enter: use it · Ctrl-R: older · Esc: cancel"), width, "…"),
    ];
  }
}
