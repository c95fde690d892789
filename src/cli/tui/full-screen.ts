// The full screen's layout: the state, and the components drawing it, top to bottom — header,
// transcript, spinner, queued prompts, the prompt's place (the editor or a question), status.
import { Editor } from "@mariozechner/pi-tui/dist/components/editor.js";
import { ProcessTerminal, type Terminal } from "@mariozechner/pi-tui/dist/terminal.js";
import { type Component, TUI } from "@mariozechner/pi-tui/dist/tui.js";
import type { AgentEvent } from "../../core/events.js";
import { agentEvent, createScreenState, type InputOwner, type ScreenState } from "./screen-state.js";
import { Activity, Frame, Header, QueuedView, Slot, StatusBar } from "./screen-views.js";
import type { Theme } from "./theme.js";
import type { ChangePreview } from "./transcript.js";
import { MarkdownSlot, TranscriptView } from "./transcript-view.js";

/** The most often live output (a running command's lines) is drawn. */
const LIVE_RENDER_MS = 100;

/** A running call's output, the session's or a subagent's. */
function isProgress(event: AgentEvent): boolean {
  return event.type === "tool_progress" || (event.type === "subagent" && isProgress(event.event));
}

export class FullScreen {
  readonly tui: TUI;
  readonly state: ScreenState;
  readonly editor: Editor;
  readonly markdown = new MarkdownSlot();
  private readonly transcript: TranscriptView;
  private readonly activity: Activity;
  private readonly slot = new Slot();
  private liveRender?: NodeJS.Timeout;
  /** Nothing is drawn before start: lines logged before it wait in the state. */
  private started = false;

  constructor(
    readonly theme: Theme,
    readonly cwd: string,
    preview: ChangePreview,
    terminal: Terminal = new ProcessTerminal(),
  ) {
    this.tui = new TUI(terminal);
    this.state = createScreenState(preview);
    this.editor = new Editor(this.tui, theme.editor, { paddingX: 0 });
    this.transcript = new TranscriptView(this.state.transcript, theme, this.state, this.markdown);
    this.activity = new Activity(this.tui, this.state, theme);
    const frame = new Frame();
    for (const part of [
      new Header(this.state, theme, cwd),
      this.transcript,
      this.activity,
      new QueuedView(this.state, theme),
      this.slot,
      new StatusBar(this.state, theme),
    ])
      frame.addChild(part);
    this.tui.addChild(frame);
  }

  /** Draws the state as it now is. */
  update(): void {
    if (!this.started) return;
    this.activity.sync();
    this.tui.requestRender();
  }

  /** Draws every line afresh (Ctrl-O changed what each block shows). */
  redrawAll(): void {
    this.transcript.invalidate();
    this.tui.requestRender(true);
  }

  /**
   * An agent event. Live output comes in bursts (a command printing 100,000 lines): drawn at most
   * every LIVE_RENDER_MS, so the screen keeps up and the CPU stays with the command.
   */
  handle(event: AgentEvent): void {
    agentEvent(this.state, event);
    if (!isProgress(event)) {
      this.update();
      return;
    }
    if (this.liveRender) return;
    this.liveRender = setTimeout(() => {
      this.liveRender = undefined;
      this.tui.requestRender();
    }, LIVE_RENDER_MS);
  }

  /** Puts `component` in the prompt's place; `focus` gets the keys. */
  show(component: Component, owner: InputOwner, focus: Component = component): void {
    this.slot.show(component);
    this.tui.setFocus(focus);
    this.state.input = owner;
    this.update();
  }

  /** The prompt editor back in its place, with the keys. */
  showEditor(): void {
    this.show(this.editor, "editor");
  }

  start(): void {
    this.started = true;
    this.showEditor();
    this.tui.start();
  }

  stop(): void {
    this.activity.stop();
    this.tui.stop();
  }
}
