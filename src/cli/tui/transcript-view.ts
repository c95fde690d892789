// The conversation on screen, drawn from the transcript's entries (transcript.ts): prompts,
// answers as markdown, reasoning dimmed, one block per tool call, subagents under their task,
// hx's own lines. One component per entry, kept while the entry lives (they cache their lines).
import { Text } from "@mariozechner/pi-tui/dist/components/text.js";
import type { Component } from "@mariozechner/pi-tui/dist/tui.js";
import { truncateToWidth, wrapTextWithAnsi } from "@mariozechner/pi-tui/dist/utils.js";
import { screenText } from "./screen-text.js";
import type { Theme } from "./theme.js";
import { type ExpandedView, ToolBlock } from "./tool-block.js";
import type { Entry, SubagentEntry, TextEntry, TranscriptState } from "./transcript.js";

/** Makes a markdown view of a text (the renderer is loaded after the first draw). */
export type MarkdownFactory = (text: string) => Component & { setText(text: string): void };

/** The markdown renderer, once loaded; shared by every answer and the plan question. */
export class MarkdownSlot {
  factory?: MarkdownFactory;

  /** `text` as markdown lines, or wrapped plain text before the renderer has loaded. */
  render(text: string, width: number): string[] {
    return this.factory?.(screenText(text)).render(width) ?? wrapTextWithAnsi(screenText(text), width);
  }
}

/** Lines of a subagent's work shown while collapsed (its latest). */
const SUBAGENT_LINES = 4;
/** A prompt longer than this is shown by its first PROMPT_HEAD lines. */
const PROMPT_LINES = 12;
const PROMPT_HEAD = 10;

/** What the views of entries share: the theme, Ctrl-O's state, the markdown renderer. */
interface ViewContext {
  theme: Theme;
  view: ExpandedView;
  markdown: MarkdownSlot;
  /** The component drawing each live entry. */
  components: WeakMap<Entry, Component>;
}

/** A line of text cut at the screen's width (hx's own lines, already safe). */
class Line implements Component {
  constructor(private readonly text: string) {}
  invalidate(): void {}
  render(width: number): string[] {
    return this.text.split("\n").map((line) => truncateToWidth(line, width, "…"));
  }
}

/** A text that may still grow (an answer, reasoning): redrawn only when it changed. */
class GrowingText implements Component {
  private shown?: string;
  private readonly plain = new Text("", 0, 0);
  private rendered?: Component & { setText(text: string): void };

  constructor(
    private readonly entry: { text: string },
    private readonly style: (text: string) => string,
    private readonly markdown?: MarkdownSlot,
  ) {}

  invalidate(): void {
    this.plain.invalidate();
    this.rendered?.invalidate();
  }

  render(width: number): string[] {
    const text = this.style(this.entry.text);
    if (text !== this.shown) {
      this.shown = text;
      this.plain.setText(text);
      this.rendered?.setText(text);
    }
    // Markdown once the renderer has loaded, wrapped plain text until then.
    const make = this.markdown?.factory;
    if (make && !this.rendered) this.rendered = make(text);
    return (this.rendered ?? this.plain).render(width);
  }
}

/** A blank line, then the component (prompts and answers stand apart). */
class Spaced implements Component {
  constructor(private readonly inner: Component) {}
  invalidate(): void {
    this.inner.invalidate();
  }
  render(width: number): string[] {
    return ["", ...this.inner.render(width)];
  }
}

function promptText(text: string): string {
  const lines = text.split("\n");
  const shown =
    lines.length > PROMPT_LINES
      ? [...lines.slice(0, PROMPT_HEAD), `… (${lines.length - PROMPT_HEAD} more lines)`]
      : lines;
  return `> ${shown.join("\n  ")}`;
}

function textView(entry: TextEntry, context: ViewContext): Component {
  const { theme } = context;
  switch (entry.kind) {
    case "user":
      return new Spaced(new Text(theme.user(promptText(entry.text)), 0, 0));
    case "answer":
      return new Spaced(new GrowingText(entry, screenText, context.markdown));
    case "reasoning":
      return new GrowingText(entry, (text) => theme.reasoning(screenText(text.trim())));
    case "line":
      return new Line(entry.level === "info" ? theme.muted(entry.text) : theme[entry.level](entry.text));
    case "print":
      return new Text(entry.text, 0, 0);
  }
}

function entryView(entry: Entry, context: ViewContext): Component {
  if (entry.kind === "tool") return new ToolBlock(entry, context.theme, context.view);
  if (entry.kind === "subagent") return new SubagentView(entry, context);
  return textView(entry, context);
}

/** The lines of a list of entries, each drawn by its own component. */
function renderEntries(entries: readonly Entry[], context: ViewContext, width: number): string[] {
  const lines: string[] = [];
  for (const entry of entries) {
    let component = context.components.get(entry);
    if (!component) {
      component = entryView(entry, context);
      context.components.set(entry, component);
    }
    lines.push(...component.render(width));
  }
  return lines;
}

/**
 * What one subagent does, under its `task:` line: its latest lines as they come, the count of
 * the rest above them; all of it once Ctrl-O expands.
 */
class SubagentView implements Component {
  constructor(
    private readonly entry: SubagentEntry,
    private readonly context: ViewContext,
  ) {}

  invalidate(): void {}

  render(width: number): string[] {
    const { theme, view } = this.context;
    const header = truncateToWidth(theme.accent(`${this.entry.indent}task: ${this.entry.label}`), width, "…");
    const lines = renderEntries(this.entry.entries, this.context, width);
    if (view.expanded || lines.length <= SUBAGENT_LINES) return [header, ...lines];
    const hidden = lines.length - SUBAGENT_LINES;
    return [
      header,
      truncateToWidth(theme.muted(`${this.entry.indent}  … +${hidden} lines (Ctrl-O to expand)`), width, "…"),
      ...lines.slice(-SUBAGENT_LINES),
    ];
  }
}

/** The conversation part of the screen: the transcript's entries, top to bottom. */
export class TranscriptView implements Component {
  private context: ViewContext;

  constructor(
    private readonly transcript: TranscriptState,
    theme: Theme,
    view: ExpandedView,
    markdown: MarkdownSlot,
  ) {
    this.context = { theme, view, markdown, components: new WeakMap() };
  }

  /** Every entry drawn afresh (Ctrl-O, the markdown renderer loaded). */
  invalidate(): void {
    this.context = { ...this.context, components: new WeakMap() };
  }

  render(width: number): string[] {
    return renderEntries(this.transcript.entries, this.context, width);
  }
}
