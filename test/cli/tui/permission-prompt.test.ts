import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ANSWER_GRACE_MS, PermissionPrompt } from "../../../src/cli/tui/permission-prompt.js";
import { createTheme } from "../../../src/cli/tui/theme.js";
import type { PermissionAnswer } from "../../../src/permissions/ask.js";

// The clock is faked: what counts is the time between keys, not how fast this machine is.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(1_000_000);
});
afterEach(() => {
  vi.useRealTimers();
});

function question() {
  const answers: PermissionAnswer[] = [];
  let draft = "";
  let cancelled = 0;
  const prompt = new PermissionPrompt(
    {
      tool: "write_file",
      effect: "write",
      rule: "write_file(new.txt)",
      reason: "writes a file",
      signal: new AbortController().signal,
    },
    createTheme(false),
    () => 10,
    {
      answer: (answer) => answers.push(answer),
      cancel: () => {
        cancelled++;
      },
      passThrough: (data) => {
        draft += data;
      },
      draft: () => draft,
    },
  );
  const press = (keys: string, gapMs = 10) => {
    for (const key of keys) {
      vi.advanceTimersByTime(gapMs);
      prompt.handleInput(key);
    }
  };
  return { prompt, answers, press, draft: () => draft, cancelled: () => cancelled };
}

describe("the approval question in the full-screen session", () => {
  it("takes y, a or n as the answer after a pause", () => {
    for (const [key, answer] of [
      ["y", "yes"],
      ["A", "always"],
      ["n", "no"],
    ] as const) {
      const q = question();
      q.press(key, ANSWER_GRACE_MS);
      expect(q.answers).toEqual([answer]);
      expect(q.draft()).toBe("");
    }
  });

  it("gives a key typed as the question appears to the prompt", () => {
    const q = question();
    q.press("y", ANSWER_GRACE_MS - 1);
    expect(q.answers).toEqual([]);
    expect(q.draft()).toBe("y");
  });

  it("never answers from a sentence typed in one go, however long after the question it starts", () => {
    const q = question();
    q.press("s", 5_000);
    q.press("ay yes and any");
    expect(q.answers).toEqual([]);
    expect(q.draft()).toBe("say yes and any");
    // Shown under the question, so the typing is seen.
    expect(q.prompt.render(80).join("\n")).toContain("prompt: say yes and any (typing goes to the prompt)");
    // After a pause, a key answers again.
    q.press("n", ANSWER_GRACE_MS);
    expect(q.answers).toEqual(["no"]);
    expect(q.draft()).toBe("say yes and any");
  });

  it("shows no prompt line while nothing is typed; Esc declines and cancels", () => {
    const q = question();
    expect(q.prompt.render(80).join("\n")).not.toContain("prompt:");
    q.prompt.handleInput("\x1b");
    expect(q.cancelled()).toBe(1);
    expect(q.answers).toEqual([]);
  });
});
