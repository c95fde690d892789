// The full screen's parts wired together over a terminal that keeps what is written and takes
// keys from the test: an approval question takes the prompt's place and the keys, and gives
// both back once answered. The clock is vitest's: what counts is the time between keys.
import type { Terminal } from "@mariozechner/pi-tui/dist/terminal.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FullScreen } from "../../../src/cli/tui/full-screen.js";
import { ANSWER_GRACE_MS } from "../../../src/cli/tui/question-prompt.js";
import { createAskers } from "../../../src/cli/tui/questions.js";
import { ScreenSession } from "../../../src/cli/tui/screen-session.js";
import { createTheme } from "../../../src/cli/tui/theme.js";
import type { PermissionRequest } from "../../../src/permissions/ask.js";

/** A terminal of 80×30 that drops what is drawn; `type` sends keys as a terminal would. */
function fakeTerminal(): Terminal & { type(data: string): void } {
  let onInput: (data: string) => void = () => {};
  return {
    start: (input) => {
      onInput = input;
    },
    stop: () => {},
    drainInput: async () => {},
    write: () => {},
    columns: 80,
    rows: 30,
    kittyProtocolActive: false,
    moveBy: () => {},
    hideCursor: () => {},
    showCursor: () => {},
    clearLine: () => {},
    clearFromCursor: () => {},
    clearScreen: () => {},
    setTitle: () => {},
    setProgress: () => {},
    type: (data) => onInput(data),
  };
}

function openScreen() {
  const terminal = fakeTerminal();
  const screen = new FullScreen(createTheme(false), "/work", () => undefined, terminal);
  let interrupted = 0;
  const askers = createAskers(screen, new ScreenSession(), {
    interrupt: () => {
      interrupted++;
    },
    refresh: () => {},
  });
  screen.start();
  const shown = () => screen.tui.render(80).map((line) => line.trimEnd());
  return { screen, terminal, askers, shown, interrupted: () => interrupted };
}

const request = (signal = new AbortController().signal): PermissionRequest => ({
  tool: "bash",
  effect: "execute",
  rule: "bash(make)",
  alwaysRules: ["bash(make)"],
  reason: "runs a command and no rule allows it",
  signal,
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("an approval question in the full screen", () => {
  it("takes the prompt's place and the keys; a lone y answers yes and gives both back", async () => {
    const { screen, terminal, askers, shown } = openScreen();
    const answer = askers.ask(request());
    expect(screen.state.input).toBe("question");
    expect(shown().join("\n")).toContain("Allow bash(make)?");

    vi.advanceTimersByTime(ANSWER_GRACE_MS + 1);
    terminal.type("y");
    vi.advanceTimersByTime(ANSWER_GRACE_MS + 1);
    await expect(answer).resolves.toBe("yes");
    expect(screen.state.input).toBe("editor");
    expect(shown().join("\n")).not.toContain("Allow bash(make)?");
    screen.stop();
  });

  it("a key that does not stand alone never answers: typing goes to the prompt, shown under the question", async () => {
    const { screen, terminal, askers, shown } = openScreen();
    let settled = false;
    const answer = askers.ask(request()).then((value) => {
      settled = true;
      return value;
    });
    vi.advanceTimersByTime(ANSWER_GRACE_MS + 1);
    for (const key of "yes") {
      terminal.type(key);
      vi.advanceTimersByTime(20);
    }
    vi.advanceTimersByTime(ANSWER_GRACE_MS + 1);
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(screen.editor.getText()).toBe("yes");
    expect(shown().join("\n")).toContain("prompt: yes (typing goes to the prompt)");

    // Esc declines and stops the turn; the draft stays in the prompt.
    terminal.type("\x1b");
    await expect(answer).resolves.toBe("no");
    expect(screen.state.input).toBe("editor");
    expect(screen.editor.getText()).toBe("yes");
    screen.stop();
  });

  it("Esc at the question declines and asks the app to stop the turn; a cancelled run answers no", async () => {
    const first = openScreen();
    const declined = first.askers.ask(request());
    first.terminal.type("\x1b");
    await expect(declined).resolves.toBe("no");
    expect(first.interrupted()).toBe(1);
    first.screen.stop();

    const second = openScreen();
    const run = new AbortController();
    const cancelled = second.askers.ask(request(run.signal));
    run.abort();
    await expect(cancelled).resolves.toBe("no");
    expect(second.screen.state.input).toBe("editor");
    expect(second.interrupted()).toBe(0);
    second.screen.stop();
  });
});
