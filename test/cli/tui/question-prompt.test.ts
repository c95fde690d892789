import { describe, expect, it } from "vitest";
import { type QuestionChoice, questionChoices } from "../../../src/cli/permission-choices.js";
import {
  ANSWER_GRACE_MS,
  type PromptClock,
  permissionBody,
  QuestionPrompt,
} from "../../../src/cli/tui/question-prompt.js";
import { createTheme } from "../../../src/cli/tui/theme.js";
import type { PermissionRequest } from "../../../src/permissions/ask.js";

/** A clock the test moves by hand: what counts is the time between keys, not this machine's speed. */
function fakeClock(): PromptClock & { advance(ms: number): void } {
  let now = 1_000_000;
  let timers: Array<{ at: number; run: () => void; id: number }> = [];
  let next = 0;
  return {
    now: () => now,
    setTimeout(run, ms) {
      const id = ++next;
      timers.push({ at: now + ms, run, id });
      return id;
    },
    clearTimeout(id) {
      timers = timers.filter((timer) => timer.id !== id);
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((timer) => timer.at <= now);
      timers = timers.filter((timer) => timer.at > now);
      for (const timer of due) timer.run();
    },
  };
}

const writeRequest: PermissionRequest = {
  tool: "write_file",
  effect: "write",
  rule: "write_file(new.txt)",
  alwaysRules: ["write_file(new.txt)"],
  reason: "writes a file",
  preview: {
    path: "new.txt",
    before: "",
    after: `${Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join("\n")}\n`,
  },
  signal: new AbortController().signal,
};

function question(request: PermissionRequest = writeRequest) {
  const clock = fakeClock();
  const chosen: Array<{ choice: QuestionChoice; instead?: string }> = [];
  let draft = "";
  let cancelled = 0;
  const choices = questionChoices(request, { allowEdits: () => {} });
  const theme = createTheme(false);
  const prompt = new QuestionPrompt<QuestionChoice>(
    {
      body: permissionBody(request, theme),
      choices,
      text: { choice: "instead", title: "What should the model do instead?", hint: "" },
      maxBodyLines: () => 12,
    },
    theme,
    {
      choose: (choice, instead) => chosen.push({ choice, instead }),
      cancel: () => {
        cancelled++;
      },
      passThrough: (data) => {
        draft += data;
      },
      draft: () => draft,
      requestRender: () => {},
    },
    clock,
  );
  /** Keys `gapMs` apart; then the clock runs on past the grace, as it would with nothing typed. */
  const press = (keys: string[] | string, gapMs = 10) => {
    for (const key of keys) {
      clock.advance(gapMs);
      prompt.handleInput(key);
    }
  };
  const settle = () => clock.advance(ANSWER_GRACE_MS);
  return {
    prompt,
    chosen: () => chosen.map((c) => c.choice),
    instead: () => chosen.map((c) => c.instead),
    press,
    settle,
    draft: () => draft,
    cancelled: () => cancelled,
    screen: () => prompt.render(100).join("\n"),
  };
}

describe("the approval question in the full-screen session", () => {
  it("takes a lone key as the answer once nothing follows it: y, e, a, n and the numbers", () => {
    for (const [key, choice] of [
      ["y", "yes"],
      ["E", "allowEdits"],
      ["a", "always"],
      ["n", "no"],
      ["1", "yes"],
      ["4", "no"],
    ] as const) {
      const q = question();
      q.press(key, ANSWER_GRACE_MS);
      expect(q.chosen()).toEqual([]); // held: a key may follow
      q.settle();
      expect(q.chosen()).toEqual([choice]);
      expect(q.draft()).toBe("");
    }
  });

  it("↑↓ and Enter pick a choice; Enter too must stand alone", () => {
    const q = question();
    q.press(["\x1b[B", "\x1b[B"], ANSWER_GRACE_MS); // down twice: "always"
    expect(q.screen()).toMatch(/❯ 3\. Yes, always: save write_file\(new\.txt\)/);
    q.press("\r", ANSWER_GRACE_MS);
    q.settle();
    expect(q.chosen()).toEqual(["always"]);
    // Moving is not typing: ↓ then Enter at once confirms.
    const quick = question();
    quick.press(["\x1b[B"], ANSWER_GRACE_MS);
    quick.press("\r", 10);
    quick.settle();
    expect(quick.chosen()).toEqual(["allowEdits"]);
  });

  it("a key typed as the question appears, or one with a key right after it, goes to the prompt", () => {
    const early = question();
    early.press("y", ANSWER_GRACE_MS - 1);
    early.settle();
    expect(early.chosen()).toEqual([]);
    expect(early.draft()).toBe("y");

    // "yes do it" typed a second after the question: the y stood alone before, not after.
    const late = question();
    late.press("y", 1_000);
    late.press("es do it");
    late.settle();
    expect(late.chosen()).toEqual([]);
    expect(late.draft()).toBe("yes do it");
    expect(late.screen()).toContain("prompt: yes do it (typing goes to the prompt)");
    // Enter with typing in the prompt sends the typing, even after a pause.
    late.press("\r", ANSWER_GRACE_MS);
    late.settle();
    expect(late.chosen()).toEqual([]);
    expect(late.draft()).toBe("yes do it\r");
    // After a pause, a lone key answers again.
    late.press("n", ANSWER_GRACE_MS);
    late.settle();
    expect(late.chosen()).toEqual(["no"]);
  });

  it("'no, and tell the model' opens a line whose text goes with the refusal", () => {
    const q = question();
    q.press("t", ANSWER_GRACE_MS);
    q.settle();
    expect(q.screen()).toContain("What should the model do instead?");
    q.press("use a temp file");
    q.press("\r");
    expect(q.chosen()).toEqual(["instead"]);
    expect(q.instead()).toEqual(["use a temp file"]);
    expect(q.draft()).toBe("");
  });

  it("a long diff is cut with a count; Ctrl-O shows all of it before answering", () => {
    const q = question();
    expect(q.screen()).toMatch(/… \d+ more lines \(Ctrl-O: the whole of it\)/);
    expect(q.screen()).not.toContain("+line 60");
    q.press("\x0f", ANSWER_GRACE_MS);
    expect(q.screen()).toContain("+line 60");
    expect(q.chosen()).toEqual([]);
  });

  it("offers no 'always' when no rule can cover the call, and says which rule 'always' saves", () => {
    expect(question({ ...writeRequest, alwaysRules: [] }).screen()).not.toContain("always");
    expect(question().screen()).toContain("Yes, always: save write_file(new.txt)");
  });

  it("shows no prompt line while nothing is typed; Esc declines and cancels, even with a key held", () => {
    const q = question();
    expect(q.screen()).not.toContain("prompt:");
    q.press("y", ANSWER_GRACE_MS);
    q.prompt.handleInput("\x1b");
    q.settle();
    expect(q.cancelled()).toBe(1);
    expect(q.chosen()).toEqual([]);
  });
});
