import { Spacer } from "@mariozechner/pi-tui/dist/components/spacer.js";
import { Text } from "@mariozechner/pi-tui/dist/components/text.js";
import { type Component, Container } from "@mariozechner/pi-tui/dist/tui.js";
import { truncateToWidth } from "@mariozechner/pi-tui/dist/utils.js";
import type { AgentEvent } from "../../core/events.js";
import type { Message } from "../../core/messages.js";
import type { FileChange } from "../../tools/file-change.js";
import { screenText } from "./screen-text.js";
import type { Theme } from "./theme.js";
import { ToolBlock } from "./tool-block.js";

/** Finds the file change a call will make (for the diff under it), before it runs. */
export type ChangePreview = (name: string, args: unknown) => FileChange | undefined;

/** Makes a markdown view of a text (the renderer is loaded after the first draw). */
export type MarkdownFactory = (text: string) => Component & { setText(text: string): void };

/**
 * A model's answer: markdown once the renderer has loaded, wrapped plain text until then (so
 * the first frame does not wait for the markdown library).
 */
class AnswerView implements Component {
  private text = "";
  private readonly plain = new Text("", 0, 0);
  private rendered?: Component & { setText(text: string): void };

  constructor(private readonly markdown: () => MarkdownFactory | undefined) {}

  setText(text: string): void {
    this.text = text;
    this.plain.setText(text);
    this.rendered?.setText(text);
  }

  invalidate(): void {
    this.plain.invalidate();
    this.rendered?.invalidate();
  }

  render(width: number): string[] {
    const make = this.markdown();
    if (make && !this.rendered) this.rendered = make(this.text);
    return (this.rendered ?? this.plain).render(width);
  }
}

/** A line of text cut at the screen's width (hx's own lines, already safe). */
class Line implements Component {
  constructor(private readonly text: string) {}
  invalidate(): void {}
  render(width: number): string[] {
    return this.text.split("\n").map((line) => truncateToWidth(line, width, "…"));
  }
}

/** Lines of a subagent's work shown while collapsed (its latest). */
const SUBAGENT_LINES = 4;

/**
 * What one subagent does, under its `task:` line: its latest lines as they come, the count of
 * the rest above them; all of it once Ctrl-O expands.
 */
class SubagentView extends Container {
  constructor(
    private readonly header: string,
    private readonly view: { expanded: boolean },
    private readonly theme: Theme,
  ) {
    super();
  }

  override render(width: number): string[] {
    const header = truncateToWidth(this.header, width, "…");
    const lines = super.render(width);
    if (this.view.expanded || lines.length <= SUBAGENT_LINES) return [header, ...lines];
    const hidden = lines.length - SUBAGENT_LINES;
    const indent = /^\s*/.exec(this.header)?.[0] ?? "";
    return [
      header,
      truncateToWidth(this.theme.muted(`${indent}  … +${hidden} lines (Ctrl-O to expand)`), width, "…"),
      ...lines.slice(-SUBAGENT_LINES),
    ];
  }
}

/**
 * The conversation on screen: prompts, answers as markdown, reasoning dimmed, one block per
 * tool call, notices. It turns agent events into components; it never writes to the terminal.
 */
export class ChatLog extends Container {
  /** Shared by every tool block: Ctrl-O flips it. */
  readonly view = { expanded: false };
  private answer?: { component: AnswerView; text: string };
  private markdown?: MarkdownFactory;
  private reasoning?: { component: Text; text: string };
  /** What this turn has put on screen since its last model request began (a retry drops it). */
  private partial: Component[] = [];
  private readonly blocks = new Map<string, ToolBlock>();
  /** hx's lines shown since the last tool call began (the todo list a tool prints, ...). */
  private infoSinceCall: string[] = [];
  /** The running subagents' views, by label; `into`: where the event being handled goes. */
  private readonly subagents = new Map<string, SubagentView>();
  private into?: SubagentView;

  constructor(
    private readonly theme: Theme,
    private readonly preview: ChangePreview,
  ) {
    super();
  }

  addUser(text: string): void {
    this.addChild(new Spacer(1));
    const lines = screenText(text).split("\n");
    const shown = lines.length > 12 ? [...lines.slice(0, 10), `… (${lines.length - 10} more lines)`] : lines;
    this.addChild(new Text(this.theme.user(`> ${shown.join("\n  ")}`), 0, 0));
  }

  info(text: string): void {
    this.infoSinceCall.push(text);
    this.add(new Line(this.theme.muted(screenText(text))));
  }

  print(text: string): void {
    this.add(new Text(screenText(text), 0, 0));
  }

  warn(text: string): void {
    this.add(new Line(this.theme.warn(screenText(text))));
  }

  error(text: string): void {
    this.add(new Line(this.theme.error(screenText(text))));
  }

  /** Answers are drawn as markdown from now on (the renderer has loaded). */
  setMarkdown(factory: MarkdownFactory): void {
    this.markdown = factory;
  }

  /** `text` as markdown lines, once the renderer has loaded; undefined before. */
  renderMarkdown(text: string, width: number): string[] | undefined {
    return this.markdown?.(screenText(text)).render(width);
  }

  setExpanded(expanded: boolean): void {
    this.view.expanded = expanded;
  }

  /** Renders one agent event; subagent events go indented under their task. */
  handle(event: AgentEvent, indent = ""): void {
    switch (event.type) {
      case "turn_start":
        if (!indent) this.partial = [];
        return;
      case "delta":
        if (indent) return;
        if (event.delta.type === "reasoning") this.appendReasoning(event.delta.text);
        else this.appendAnswer(event.delta.text);
        return;
      case "assistant_message":
        if (indent) return;
        // Providers that do not stream still send the whole message.
        if (!this.answer && event.message.content) this.appendAnswer(event.message.content);
        this.answer = undefined;
        this.reasoning = undefined;
        return;
      case "tool_call": {
        this.answer = undefined;
        this.reasoning = undefined;
        const block = new ToolBlock(
          event.call,
          event.args,
          this.theme,
          this.view,
          this.preview(event.call.name, event.args),
          indent,
        );
        this.blocks.set(event.call.id, block);
        this.add(block);
        this.infoSinceCall = [];
        return;
      }
      case "tool_progress":
        this.blocks.get(event.callId)?.progress(event.text);
        return;
      case "tool_result": {
        // A result the tool already put on screen (the todo list) is not shown twice.
        const shown = this.infoSinceCall.includes(event.result.content);
        this.blocks
          .get(event.call.id)
          ?.finish(shown ? "" : event.result.content, event.result.isError === true, event.blocked);
        return;
      }
      case "retry":
        if (!indent) this.discardPartial();
        this.warn(
          `${indent}retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt}): ${event.reason}`,
        );
        return;
      case "notice":
        if (event.level === "warn") this.warn(`${indent}warning: ${event.text}`);
        else this.info(`${indent}${event.text}`);
        return;
      case "subagent": {
        let view = this.subagents.get(event.label);
        if (!view) {
          view = new SubagentView(
            this.theme.accent(`${indent}task: ${screenText(event.label)}`),
            this.view,
            this.theme,
          );
          this.add(view);
          this.subagents.set(event.label, view);
        }
        const outer = this.into;
        this.into = view;
        try {
          this.handle(event.event, `${indent}  `);
        } finally {
          this.into = outer;
        }
        if (event.event.type === "end") this.subagents.delete(event.label);
        return;
      }
      case "end":
        this.answer = undefined;
        this.reasoning = undefined;
        return;
    }
  }

  /** A saved conversation (after /resume, --continue): prompts, answers and tool calls. */
  showMessages(messages: readonly Message[]): void {
    for (const message of messages) {
      if (message.role === "user") this.addUser(message.content);
      else if (message.role === "assistant") {
        if (message.content) {
          this.addChild(new Spacer(1));
          this.addChild(this.answerView(screenText(message.content)));
        }
        for (const call of message.toolCalls) {
          let args: unknown;
          try {
            args = JSON.parse(call.arguments);
          } catch {
            args = undefined;
          }
          const block = new ToolBlock(call, args, this.theme, this.view, undefined);
          this.blocks.set(call.id, block);
          this.addChild(block);
        }
      } else {
        this.blocks.get(message.toolCallId)?.finish(message.content, message.isError === true, false);
      }
    }
    this.answer = undefined;
  }

  private appendAnswer(text: string): void {
    this.reasoning = undefined;
    if (!this.answer) {
      this.add(new Spacer(1));
      const component = this.answerView("");
      this.answer = { component, text: "" };
      this.add(component);
    }
    this.answer.text += text;
    this.answer.component.setText(screenText(this.answer.text));
  }

  private answerView(text: string): AnswerView {
    const view = new AnswerView(() => this.markdown);
    view.setText(text);
    return view;
  }

  private appendReasoning(text: string): void {
    if (!this.reasoning) {
      const component = new Text("", 0, 0);
      this.reasoning = { component, text: "" };
      this.add(component);
    }
    this.reasoning.text += text;
    this.reasoning.component.setText(this.theme.reasoning(screenText(this.reasoning.text.trim())));
  }

  /** A retried request starts over: what its first attempt streamed is taken off the screen. */
  private discardPartial(): void {
    for (const component of this.partial) this.removeChild(component);
    this.partial = [];
    this.answer = undefined;
    this.reasoning = undefined;
  }

  private add(component: Component): void {
    if (this.into) {
      this.into.addChild(component);
      return;
    }
    this.addChild(component);
    this.partial.push(component);
  }
}
