// The small parts of the full screen around the transcript, each drawn from the screen's state:
// the header, the spinner, the queued prompts, the status line; and the frame holding them.
import { Loader } from "@mariozechner/pi-tui/dist/components/loader.js";
import { Text } from "@mariozechner/pi-tui/dist/components/text.js";
import { type Component, Container, type TUI } from "@mariozechner/pi-tui/dist/tui.js";
import { truncateToWidth } from "@mariozechner/pi-tui/dist/utils.js";
import { VERSION } from "../version.js";
import { queuedLines, type ScreenState, spinnerLine, statusLine } from "./screen-state.js";
import { screenText } from "./screen-text.js";
import type { Theme } from "./theme.js";

/** Every line of its children cut at the screen's width: nothing is ever drawn past the edge. */
export class Frame extends Container {
  override render(width: number): string[] {
    return super.render(width).map((line) => truncateToWidth(line, width, "…"));
  }
}

/** A slot showing one component at a time (the prompt editor, a question, the history search). */
export class Slot extends Container {
  show(component: Component): void {
    this.clear();
    this.addChild(component);
  }
}

/** `hx VERSION · provider/model · folder`, and the keys to know. */
export class Header implements Component {
  private readonly text = new Text("", 0, 0);
  private shown?: string;

  constructor(
    private readonly state: ScreenState,
    private readonly theme: Theme,
    private readonly cwd: string,
  ) {}

  invalidate(): void {
    this.text.invalidate();
  }

  render(width: number): string[] {
    const model = this.state.headerModel;
    const text = `${this.theme.c.bold("hx")} ${VERSION} · ${model ? `${model} · ` : ""}${screenText(this.cwd)}\n${this.theme.muted(
      "/help for commands · Shift+Tab: mode · Esc: interrupt · Ctrl-D: leave",
    )}`;
    if (text !== this.shown) {
      this.shown = text;
      this.text.setText(text);
    }
    return this.text.render(width);
  }
}

/** The status line, cut at the screen's width. */
export class StatusBar implements Component {
  constructor(
    private readonly state: ScreenState,
    private readonly theme: Theme,
  ) {}
  invalidate(): void {}
  render(width: number): string[] {
    return [truncateToWidth(this.theme.muted(statusLine(this.state) ?? "starting…"), width, "…")];
  }
}

/** The prompts waiting for the running turn to end. */
export class QueuedView implements Component {
  constructor(
    private readonly state: ScreenState,
    private readonly theme: Theme,
  ) {}
  invalidate(): void {}
  render(width: number): string[] {
    return queuedLines(this.state).map((line) => truncateToWidth(this.theme.muted(line), width, "…"));
  }
}

/**
 * The spinner, shown while a turn runs and the prompt has the keys (a question takes its
 * place); its time and tokens count up each second.
 */
export class Activity implements Component {
  private readonly loader: Loader;
  private ticker?: NodeJS.Timeout;

  constructor(
    tui: TUI,
    private readonly state: ScreenState,
    theme: Theme,
  ) {
    this.loader = new Loader(tui, theme.accent, theme.muted, "");
    this.loader.stop(); // a Loader starts animating when made; it runs only while a turn does
  }

  /** Starts or stops the spinner to match the state. */
  sync(): void {
    const turn = this.state.input === "editor" ? this.state.turn : undefined;
    if (!turn) {
      this.stop();
      return;
    }
    this.loader.setMessage(spinnerLine(turn, Date.now()));
    if (this.ticker) return;
    this.loader.start();
    this.ticker = setInterval(() => {
      if (this.state.turn) this.loader.setMessage(spinnerLine(this.state.turn, Date.now()));
    }, 1000);
  }

  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    this.loader.stop();
  }

  invalidate(): void {
    this.loader.invalidate();
  }

  render(width: number): string[] {
    return this.ticker ? this.loader.render(width) : [];
  }
}
