// What the full screen shows, as one state object: the transcript, the running turn, the queue,
// the status line's facts, who has the keys, the expanded output. Agent events and keys change
// it through the functions below; the components draw it; app.ts carries out what a key asks
// for (stop the turn, leave, open the rewind list). Nothing here knows the terminal or a session.
import type { AgentEvent } from "../../core/events.js";
import { addUsage, emptyUsage, type Message, type Usage } from "../../core/messages.js";
import { compact, formatStatusLine, type StatusFacts } from "../session-status.js";
import { screenText } from "./screen-text.js";
import {
  addLine,
  addPrint,
  addUser,
  applyEvent,
  type ChangePreview,
  clearTranscript,
  createTranscript,
  type LineLevel,
  showMessages,
  type TranscriptState,
} from "./transcript.js";

/** Two Ctrl-C on an empty prompt within this long leave the session. */
export const EXIT_CONFIRM_MS = 2000;
/** Two Esc on an idle, empty prompt within this long open the rewind list. */
export const DOUBLE_ESCAPE_MS = 800;

/** Who has the keys: the prompt editor, a question, a line of free text, the history search. */
export type InputOwner = "editor" | "question" | "line" | "search";

/** The session's side of the status line (the model, the mode, ...); the screen adds the rest. */
export type SessionFacts = Omit<StatusFacts, "contextTokens">;

/** The running turn, as the spinner tells it. */
export interface TurnShown {
  startedAt: number;
  /** What the turn's finished requests used. */
  usage: Usage;
  /** Characters streamed by the request in flight (a token estimate until it ends). */
  streamedChars: number;
}

export interface ScreenState {
  transcript: TranscriptState;
  /** Ctrl-O: every tool's output and every subagent's work shown in full. */
  expanded: boolean;
  /** Prompts sent while a turn runs, sent after it in order. */
  queue: string[];
  /** Undefined when no turn runs. */
  turn?: TurnShown;
  /** Tokens the last request held (its prompt plus its answer). */
  contextTokens: number;
  /** Undefined while hx starts (before the settings are read). */
  session?: SessionFacts;
  /** `provider/model` in the header, once the settings are read. */
  headerModel?: string;
  input: InputOwner;
  /** When the last lone Ctrl-C and Esc came (0: none waiting for a second one). */
  lastCtrlC: number;
  lastEscape: number;
  exitRequested: boolean;
  /** The diff a call will make, found before it runs (the session answers it). */
  readonly preview: ChangePreview;
}

export function createScreenState(preview: ChangePreview = () => undefined): ScreenState {
  return {
    transcript: createTranscript(),
    expanded: false,
    queue: [],
    contextTokens: 0,
    input: "editor",
    lastCtrlC: 0,
    lastEscape: 0,
    exitRequested: false,
    preview,
  };
}

// ---- events

/** An agent event: the transcript, and the turn's figures (tokens so far, context held). */
export function agentEvent(state: ScreenState, event: AgentEvent): void {
  applyEvent(state.transcript, event, state.preview);
  const turn = state.turn;
  if (event.type === "delta" && turn) turn.streamedChars += event.delta.text.length;
  if (event.type === "assistant_message") {
    if (turn) {
      turn.usage = addUsage(turn.usage, event.usage);
      turn.streamedChars = 0;
    }
    state.contextTokens = event.usage.inputTokens + event.usage.outputTokens;
  }
}

/** A line of hx's own (a warning, a notice, an error). */
export function showLine(state: ScreenState, level: LineLevel, text: string): void {
  addLine(state.transcript, level, text);
}

/** What a command printed (/help, /context, ...). */
export function showPrint(state: ScreenState, text: string): void {
  addPrint(state.transcript, text);
}

/** A saved conversation, shown after what is on screen (/resume, --continue). */
export function showConversation(state: ScreenState, messages: readonly Message[]): void {
  showMessages(state.transcript, messages);
}

/** A new conversation (/clear): the transcript and the context go; the session's facts stay. */
export function conversationCleared(state: ScreenState): void {
  clearTranscript(state.transcript);
  state.contextTokens = 0;
}

/** The session's facts changed (opened, /model, a mode, the sandbox probed, a turn ended). */
export function sessionChanged(state: ScreenState, facts: SessionFacts): void {
  state.session = facts;
}

// ---- turns

export function queuePrompt(state: ScreenState, text: string): void {
  state.queue.push(text);
}

/** The next queued prompt starts: shown as the user's, the spinner's clock started. */
export function startTurn(state: ScreenState, now: number): string | undefined {
  const text = state.queue.shift();
  if (text === undefined) return undefined;
  addUser(state.transcript, text);
  state.turn = { startedAt: now, usage: emptyUsage(), streamedChars: 0 };
  return text;
}

export function endTurn(state: ScreenState): void {
  state.turn = undefined;
}

// ---- what the screen draws from it

/** The status line; undefined while hx starts. */
export function statusLine(state: ScreenState): string | undefined {
  if (!state.session) return undefined;
  const usage = addUsage(state.session.usage, state.turn?.usage ?? emptyUsage());
  return formatStatusLine({ ...state.session, contextTokens: state.contextTokens, usage });
}

/** The spinner's text while a turn runs. */
export function spinnerLine(turn: TurnShown, now: number): string {
  const seconds = Math.floor((now - turn.startedAt) / 1000);
  const tokens = turn.usage.outputTokens + Math.round(turn.streamedChars / 4);
  return `Working… ${seconds}s · ${compact(tokens)} tokens · Esc to interrupt`;
}

/** The queued prompts' lines, one each (their first line). */
export function queuedLines(state: ScreenState): string[] {
  return state.queue.map((text) => `⏎ queued: ${screenText(text).split("\n")[0]}`);
}

// ---- keys

/** The keys the screen itself answers; the rest go to whoever has the keys. */
export type ScreenKey =
  | "escape"
  /** Two Esc in one read (a terminal may send them together). */
  | "escape-escape"
  | "ctrl+c"
  | "ctrl+d"
  | "shift+tab"
  | "ctrl+o"
  | "ctrl+r"
  | "other";

/** What the prompt looks like when a key comes. */
export interface KeyContext {
  draft: string;
  /** The completion menu is open (Esc closes it). */
  completing: boolean;
  now: number;
}

/**
 * What a key asks of the app: `pass` gives it to the focused component; `leave` ends the
 * session; `hint` only redraws (a line was added).
 */
export type KeyEffect =
  | "pass"
  | "interrupt"
  | "clear-draft"
  | "leave"
  | "hint"
  | "cycle-mode"
  | "redraw-all"
  | "history-search"
  | "rewind";

/** A key pressed while the prompt editor has the keys: the state it changes, what it asks. */
export function pressKey(state: ScreenState, key: ScreenKey, context: KeyContext): KeyEffect {
  if (state.input !== "editor") return "pass";
  if (key !== "escape" && key !== "escape-escape") state.lastEscape = 0;
  switch (key) {
    case "escape":
    case "escape-escape":
      return pressEscape(state, key, context);
    case "ctrl+c":
      return pressCtrlC(state, context);
    case "ctrl+d":
      if (context.draft) return "pass";
      state.exitRequested = true;
      return state.turn ? "interrupt" : "leave";
    case "shift+tab":
      return "cycle-mode";
    case "ctrl+o":
      state.expanded = !state.expanded;
      return "redraw-all";
    case "ctrl+r":
      state.input = "search";
      return "history-search";
    case "other":
      return "pass";
  }
}

/**
 * Esc stops a running turn or closes the completion menu; on an idle, empty prompt a second Esc
 * soon after the first opens the rewind list (and the first does what it always did: nothing).
 */
function pressEscape(state: ScreenState, key: ScreenKey, context: KeyContext): KeyEffect {
  if (context.completing) {
    state.lastEscape = 0;
    return "pass";
  }
  if (state.turn) {
    state.lastEscape = 0;
    return "interrupt";
  }
  if (context.draft) {
    state.lastEscape = 0;
    return "pass";
  }
  const second = key === "escape-escape" || context.now - state.lastEscape < DOUBLE_ESCAPE_MS;
  state.lastEscape = second ? 0 : context.now;
  return second ? "rewind" : "pass";
}

/** Ctrl-C stops the turn, else empties the prompt, else leaves when pressed twice. */
function pressCtrlC(state: ScreenState, context: KeyContext): KeyEffect {
  if (state.turn) return "interrupt";
  if (context.draft) return "clear-draft";
  if (context.now - state.lastCtrlC < EXIT_CONFIRM_MS) {
    state.exitRequested = true;
    return "leave";
  }
  state.lastCtrlC = context.now;
  showLine(state, "info", "Press Ctrl-C again to leave (or Ctrl-D, /exit).");
  return "hint";
}
