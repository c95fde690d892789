// The full screen's state: agent events and keys in, what the screen shows out. The components
// draw it (TranscriptView here at 80 columns, without colour); tmux tests cover the terminal.
import { describe, expect, it } from "vitest";
import {
  agentEvent,
  conversationCleared,
  createScreenState,
  DOUBLE_ESCAPE_MS,
  EXIT_CONFIRM_MS,
  endTurn,
  type KeyContext,
  pressKey,
  queuePrompt,
  type ScreenState,
  type SessionFacts,
  sessionChanged,
  showConversation,
  showLine,
  spinnerLine,
  startTurn,
  statusLine,
} from "../../../src/cli/tui/screen-state.js";
import { createTheme } from "../../../src/cli/tui/theme.js";
import { MarkdownSlot, TranscriptView } from "../../../src/cli/tui/transcript-view.js";
import type { AgentEvent } from "../../../src/core/events.js";
import { emptyUsage, type Usage } from "../../../src/core/messages.js";

const call = { id: "c1", name: "bash", arguments: '{"command":"make"}' };
const usage = (inputTokens: number, outputTokens: number): Usage => ({
  ...emptyUsage(),
  inputTokens,
  outputTokens,
});
const facts = (over: Partial<SessionFacts> = {}): SessionFacts => ({
  model: "gpt-4.1",
  mode: "default",
  contextWindow: 100_000,
  usage: emptyUsage(),
  prices: { priceOf: () => undefined },
  ...over,
});

function screen() {
  const state = createScreenState();
  const view = new TranscriptView(state.transcript, createTheme(false), state, new MarkdownSlot());
  const send = (...events: AgentEvent[]) => {
    for (const event of events) agentEvent(state, event);
  };
  return { state, send, lines: () => view.render(80).map((line) => line.trimEnd()) };
}

/** The prompt as it is when a key comes: empty, no menu open, at `now`. */
const idle = (now: number, over: Partial<KeyContext> = {}): KeyContext => ({
  draft: "",
  completing: false,
  now,
  ...over,
});

function running(state: ScreenState): void {
  queuePrompt(state, "go");
  startTurn(state, 0);
}

describe("a tool call on screen", () => {
  it("shows a running call's latest 3 lines and the count of the rest; Ctrl-O shows all; the result replaces them", () => {
    const { state, send, lines } = screen();
    send({ type: "tool_call", call, args: { command: "make" } });
    send({ type: "tool_progress", callId: "c1", text: "one\ntwo\nthree\n" });
    send({ type: "tool_progress", callId: "c1", text: "four\nfive" });
    expect(lines()).toEqual([
      "○ bash command=make",
      "  ⎿ … +2 lines (Ctrl-O to expand)",
      "    three",
      "    four",
      "    five",
    ]);

    expect(pressKey(state, "ctrl+o", idle(1))).toBe("redraw-all");
    expect(state.expanded).toBe(true);
    expect(lines().slice(1)).toEqual(["  ⎿ one", "    two", "    three", "    four", "    five"]);

    send({
      type: "tool_result",
      call,
      result: { role: "tool", toolCallId: "c1", toolName: "bash", content: "built", isError: false },
      blocked: false,
    });
    expect(lines()).toEqual(["● bash command=make", "  ⎿ built"]);
    expect(pressKey(state, "ctrl+o", idle(2))).toBe("redraw-all");
    expect(state.expanded).toBe(false);
  });

  it("a subagent's calls go under its task line; a retry takes the partial answer off, keeping the prompt", () => {
    const { state, send, lines } = screen();
    queuePrompt(state, "do it");
    startTurn(state, 0);
    send({ type: "turn_start", turn: 1 }, { type: "delta", delta: { type: "text", text: "half an ans" } });
    send({ type: "retry", attempt: 2, delayMs: 1000, reason: "HTTP 500" } as AgentEvent);
    send({
      type: "subagent",
      label: "look around",
      event: { type: "tool_call", call, args: { command: "make" } },
    });
    const shown = lines().join("\n");
    expect(shown).toContain("> do it");
    expect(shown).not.toContain("half an ans");
    expect(shown).toContain("retrying in 1.0s (attempt 2): HTTP 500");
    expect(lines().slice(-2)).toEqual(["task: look around", "  ○ bash command=make"]);
  });
});

describe("the transcript", () => {
  it("a result the tool already put on screen (the todo list) is not shown twice", () => {
    const { state, send, lines } = screen();
    const todo = { id: "t1", name: "todo_write", arguments: "{}" };
    send({ type: "tool_call", call: todo, args: {} });
    showLine(state, "info", "[ ] read the code");
    send({
      type: "tool_result",
      call: todo,
      result: { role: "tool", toolCallId: "t1", toolName: "todo_write", content: "[ ] read the code" },
      blocked: false,
    });
    expect(lines().join("\n").split("[ ] read the code").length - 1).toBe(1);
  });

  it("a resumed conversation shows its prompts, answers and calls with their results", () => {
    const { state, lines } = screen();
    showConversation(state, [
      { role: "user", content: "build it" },
      { role: "assistant", content: "On it.", toolCalls: [call] },
      { role: "tool", toolCallId: "c1", toolName: "bash", content: "failed: no Makefile", isError: true },
    ]);
    expect(lines()).toEqual([
      "",
      "> build it",
      "",
      "On it.",
      "● bash command=make",
      "  ⎿ failed: no Makefile",
    ]);
  });
});

describe("a turn", () => {
  it("takes the queue in order; the spinner counts streamed tokens; the answer's usage reaches the status line", () => {
    const { state, send, lines } = screen();
    sessionChanged(state, facts());
    queuePrompt(state, "first");
    queuePrompt(state, "second");
    expect(startTurn(state, 1_000)).toBe("first");
    expect(state.queue).toEqual(["second"]);
    send({ type: "delta", delta: { type: "text", text: "x".repeat(400) } });
    expect(spinnerLine(state.turn!, 3_500)).toBe("Working… 2s · 100 tokens · Esc to interrupt");
    send({
      type: "assistant_message",
      message: { role: "assistant", content: "x".repeat(400), toolCalls: [] },
      usage: usage(10_000, 2_000),
    });
    expect(spinnerLine(state.turn!, 3_500)).toBe("Working… 2s · 2k tokens · Esc to interrupt");
    expect(statusLine(state)).toBe("gpt-4.1 · default · ctx 12% of 100k · 12k tokens");
    endTurn(state);
    expect(state.turn).toBeUndefined();
    expect(lines()[1]).toBe("> first");
  });
});

describe("the status line", () => {
  it("says starting… until the settings are read (undefined)", () => {
    expect(statusLine(createScreenState())).toBeUndefined();
  });

  it("/model: the new model and its context window", () => {
    const { state } = screen();
    sessionChanged(state, facts());
    state.contextTokens = 50_000;
    expect(statusLine(state)).toBe("gpt-4.1 · default · ctx 50% of 100k · 0 tokens");
    sessionChanged(state, facts({ model: "gpt-4.1-mini", contextWindow: 1_000_000 }));
    expect(statusLine(state)).toBe("gpt-4.1-mini · default · ctx 5% of 1M · 0 tokens");
  });

  it("/clear: the transcript and the context go; the mode, the model and Ctrl-O's state stay", () => {
    const { state, send, lines } = screen();
    sessionChanged(state, facts({ mode: "acceptEdits", model: "gpt-4.1-mini" }));
    send({ type: "tool_call", call, args: { command: "make" } });
    state.contextTokens = 30_000;
    state.expanded = true;
    conversationCleared(state);
    expect(lines()).toEqual([]);
    expect(state.transcript.tools.size).toBe(0);
    expect(statusLine(state)).toBe("gpt-4.1-mini · acceptEdits · ctx 0% of 100k · 0 tokens");
    expect(state.expanded).toBe(true);
  });
});

describe("keys", () => {
  it("Esc Esc on an idle, empty prompt opens the rewind list; a lone Esc does nothing of the sort", () => {
    const { state } = screen();
    expect(pressKey(state, "escape", idle(10_000))).toBe("pass");
    expect(pressKey(state, "escape", idle(10_000 + DOUBLE_ESCAPE_MS - 1))).toBe("rewind");
    // A third Esc starts over.
    expect(pressKey(state, "escape", idle(10_000 + DOUBLE_ESCAPE_MS))).toBe("pass");
    // Too far apart: two lone Escs.
    expect(pressKey(state, "escape", idle(20_000 + 2 * DOUBLE_ESCAPE_MS))).toBe("pass");
    // Two Escs in one read.
    expect(pressKey(state, "escape-escape", idle(30_000))).toBe("rewind");
  });

  it("Esc Esc is not a rewind with a key between, text in the prompt, the menu open, or a turn running", () => {
    const { state } = screen();
    pressKey(state, "escape", idle(1_000));
    pressKey(state, "other", idle(1_001));
    expect(pressKey(state, "escape", idle(1_002))).toBe("pass");

    pressKey(state, "escape", idle(2_000, { draft: "half" }));
    expect(pressKey(state, "escape", idle(2_001, { draft: "half" }))).toBe("pass");

    pressKey(state, "escape", idle(3_000, { completing: true }));
    expect(pressKey(state, "escape", idle(3_001))).toBe("pass");

    running(state);
    expect(pressKey(state, "escape", idle(4_000))).toBe("interrupt");
    endTurn(state);
    // The Esc that stopped the turn does not count as the first of two.
    expect(pressKey(state, "escape", idle(4_001))).toBe("pass");
  });

  it("keys go to a question while it is up: Esc there is the question's (decline), not the screen's", () => {
    const { state } = screen();
    running(state);
    state.input = "question";
    expect(pressKey(state, "escape", idle(1))).toBe("pass");
    expect(pressKey(state, "ctrl+c", idle(2))).toBe("pass");
    state.input = "editor";
    expect(pressKey(state, "escape", idle(3))).toBe("interrupt");
  });

  it("Ctrl-C stops a turn, else empties the prompt, else leaves when pressed twice (and says so once)", () => {
    const { state, lines } = screen();
    running(state);
    const t = 1_000_000;
    expect(pressKey(state, "ctrl+c", idle(t))).toBe("interrupt");
    endTurn(state);
    expect(pressKey(state, "ctrl+c", idle(t + 100, { draft: "typed" }))).toBe("clear-draft");
    expect(pressKey(state, "ctrl+c", idle(t + 200))).toBe("hint");
    expect(lines().at(-1)).toBe("Press Ctrl-C again to leave (or Ctrl-D, /exit).");
    expect(state.exitRequested).toBe(false);
    expect(pressKey(state, "ctrl+c", idle(t + 200 + EXIT_CONFIRM_MS))).toBe("hint");
    expect(pressKey(state, "ctrl+c", idle(t + 300 + EXIT_CONFIRM_MS))).toBe("leave");
    expect(state.exitRequested).toBe(true);
  });

  it("Ctrl-D leaves on an empty prompt (stopping a turn first) and deletes a character otherwise", () => {
    const { state } = screen();
    expect(pressKey(state, "ctrl+d", idle(1, { draft: "x" }))).toBe("pass");
    expect(state.exitRequested).toBe(false);
    running(state);
    expect(pressKey(state, "ctrl+d", idle(2))).toBe("interrupt");
    expect(state.exitRequested).toBe(true);
  });

  it("Shift+Tab asks for the next mode; Ctrl-R hands the keys to the history search", () => {
    const { state } = screen();
    expect(pressKey(state, "shift+tab", idle(1))).toBe("cycle-mode");
    expect(pressKey(state, "ctrl+r", idle(2))).toBe("history-search");
    expect(state.input).toBe("search");
    expect(pressKey(state, "escape", idle(3))).toBe("pass");
  });

  it("a line of hx's own lands in the transcript", () => {
    const { state, lines } = screen();
    showLine(state, "warn", "careful");
    expect(lines()).toEqual(["careful"]);
  });
});
