// Prompts and commands sent from the full screen, one turn at a time: the queue, the running
// turn's abort, and the host the slash commands act through (/clear, /model, /resume, /exit).
import { errorMessage } from "../../core/error-message.js";
import type { AgentEvent } from "../../core/events.js";
import type { SessionRunResult } from "../../session/agent-session.js";
import type { InteractiveHost } from "../interactive-commands.js";
import type { PendingContext } from "../interactive-turn.js";
import { runOutcomeLines } from "../run-outcome.js";
import type { FullScreen } from "./full-screen.js";
import { type Askers, createAskers } from "./questions.js";
import type { ScreenSession } from "./screen-session.js";
import {
  conversationCleared,
  endTurn,
  queuePrompt,
  sessionChanged,
  showConversation,
  showLine,
  showPrint,
  startTurn,
} from "./screen-state.js";

/** The keys /help lists. */
const KEYS: InteractiveHost["keys"] = [
  ["Enter", "send (while a turn runs: queue it)"],
  ["Shift+Enter, Alt+Enter, \\ Enter", "new line"],
  ["Esc, Ctrl-C", "cancel the running turn (at a question: decline and stop)"],
  ["Esc Esc", "rewind: the list of turns to go back to (on an empty prompt)"],
  ["Ctrl-C twice, Ctrl-D", "leave (on an empty prompt)"],
  ["Shift+Tab", "permission mode: default → acceptEdits → plan"],
  ["Ctrl-O", "expand or collapse tool output"],
  ["Ctrl-R", "search prompt history"],
  ["Tab", "complete commands, skills, paths"],
];

export class TurnRunner {
  /** Set when hx is to leave (Ctrl-D, /exit, Ctrl-C twice): resolves `exited`. */
  readonly exited: Promise<void>;
  readonly host: InteractiveHost;
  private readonly askers: Askers;
  private running?: AbortController;
  private readonly pending: PendingContext = { shell: [] };
  private resolveExit?: () => void;

  constructor(
    private readonly screen: FullScreen,
    private readonly sessions: ScreenSession,
    private readonly log: (line: string) => void,
  ) {
    this.exited = new Promise<void>((resolve) => {
      this.resolveExit = resolve;
    });
    this.host = this.createHost();
    this.askers = createAskers(screen, sessions, {
      interrupt: () => this.interrupt(),
      refresh: () => this.refresh(),
    });
  }

  /** The session's facts read again into the status line. */
  refresh(): void {
    const facts = this.sessions.facts();
    if (facts) sessionChanged(this.screen.state, facts);
    this.screen.update();
  }

  /** A prompt or command, sent now or after the running turn. */
  send(text: string): void {
    queuePrompt(this.screen.state, text);
    if (!this.running && this.sessions.session) void this.processQueue();
    else this.screen.update();
  }

  /** Runs the queue while there is a session; a turn started meanwhile waits for it. */
  startQueue(): void {
    if (!this.running && this.screen.state.queue.length > 0) void this.processQueue();
  }

  interrupt(): void {
    this.running?.abort();
  }

  /** Leaves once the running turn has stopped (now when none runs). */
  leave(): void {
    this.screen.state.exitRequested = true;
    if (this.running) this.running.abort();
    else this.resolveExit?.();
  }

  emit = (event: AgentEvent): void => {
    this.screen.handle(event);
    if (event.type === "assistant_message") this.refresh();
  };

  private async processQueue(): Promise<void> {
    const { state } = this.screen;
    while (state.queue.length > 0 && !state.exitRequested) {
      const text = startTurn(state, Date.now()) ?? "";
      this.running = new AbortController();
      this.screen.update();
      await this.runOne(text, this.running.signal);
      this.running = undefined;
      endTurn(state);
      this.refresh();
    }
    if (state.exitRequested) this.resolveExit?.();
  }

  private async runOne(text: string, signal: AbortSignal): Promise<void> {
    try {
      const { runSubmission } = await import("../interactive-turn.js");
      const io = { emit: this.emit, signal, print: (out: string) => this.print(out) };
      const result = await runSubmission(this.host, text, io, this.pending);
      if (result) this.report(result);
    } catch (error) {
      showLine(this.screen.state, "error", `error: ${errorMessage(error)}`);
    }
  }

  private print(text: string): void {
    showPrint(this.screen.state, text);
    this.screen.update();
  }

  private report(result: SessionRunResult): void {
    for (const line of runOutcomeLines(result)) showLine(this.screen.state, line.level, line.text);
  }

  private createHost(): InteractiveHost {
    const { sessions, screen } = this;
    return {
      session: () => sessions.current(),
      get prices() {
        return sessions.ready().prices;
      },
      newConversation: async () => {
        await sessions.session?.close();
        sessions.session = await sessions.ready().openSession(this.openers(), { fresh: true });
        conversationCleared(screen.state);
        this.refresh();
      },
      showConversation: (messages) => {
        showConversation(screen.state, messages);
        screen.update();
      },
      sendPrompt: async (text, signal) => {
        this.report(await sessions.current().run(text, { emit: this.emit, signal }));
      },
      switchModel: async (name) => {
        await sessions.ready().switchModel(sessions.current(), name);
        this.refresh();
      },
      modeChanged: () => this.refresh(),
      exit: () => {
        screen.state.exitRequested = true;
      },
      keys: KEYS,
    };
  }

  /** What a session is opened with: the log and the askers. */
  openers() {
    return { log: this.log, ...this.askers };
  }
}
