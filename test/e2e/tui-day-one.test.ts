// The full-screen session in tmux against the fake model server: what a day of real use found
// (issue 20). Each test drives the built binary as a person does and checks the screen and what
// reached the model.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { type Screen, startScreen, TMUX_AVAILABLE } from "../support/tmux-screen.js";
import { KEYS, messagesOf, toolNamesOf, toolResultsOf, useHarness } from "./harness-support.js";

const h = useHarness();
let screen: Screen | undefined;
afterEach(() => {
  screen?.close();
  screen = undefined;
});

const open = (extra: string[] = [], env: Record<string, string | undefined> = KEYS) => {
  screen = startScreen([...h.args(), ...extra], { cwd: h.work, env });
  return screen;
};
/** The session is open once the status line says how commands run. */
const opened = (s: Screen) => s.waitFor(/sandboxed|no sandbox/);
const send = (s: Screen, text: string) => {
  s.type(text);
  s.keys("Enter");
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!TMUX_AVAILABLE)("the full-screen session, round two", () => {
  it("without a key hx leaves the screen with the message and exit 1; an unreachable server keeps it usable", async () => {
    const noKey = startScreen(["-C", h.work], { cwd: h.work, env: { DEEPSEEK_API_KEY: undefined } });
    screen = noKey;
    const shown = await noKey.waitFor("DEEPSEEK_API_KEY is not set");
    expect(shown).toContain("--provider openai");
    expect(await noKey.exited()).toBe(1);
    noKey.close();

    const s = open(["--base-url", "http://127.0.0.1:9/v1"], { ...KEYS, HX_MAX_RETRIES: "0" });
    await opened(s);
    send(s, "hello");
    await s.waitFor("Could not reach http://127.0.0.1:9/v1");
    send(s, "/mode plan");
    await s.waitFor("Permission mode: plan.");
    s.keys("C-d");
    expect(await s.exited()).toBe(0);
  });

  it("/clear keeps the permission mode and the model, and says so", async () => {
    h.server.reply().text("first answer");
    h.server.reply().tool("write_file", { path: "new.txt", content: "x\n" });
    h.server.reply().text("declined");
    const s = open(["--permission-mode", "bypassPermissions"]);
    await opened(s);
    send(s, "/mode default");
    await s.waitFor("Permission mode: default.");
    send(s, "/model other-model");
    await s.waitFor("other-model from the next prompt on");
    send(s, "hi");
    await s.waitFor("first answer");
    send(s, "/clear");
    // The screen is redrawn in steps: wait for the frame with the notice and the old turn gone
    // (a screen that keeps the old turn fails here after the timeout).
    const cleared = await s.waitFor(
      (screen) =>
        screen.includes("New conversation. Kept: permission mode default, model openai/other-model.") &&
        !screen.includes("first answer"),
    );
    expect(cleared).toMatch(/other-model · default ·/);
    send(s, "write it");
    // default mode asks: the write does not run on its own.
    await s.waitFor("Allow write_file(new.txt)?");
    expect(existsSync(path.join(h.work, "new.txt"))).toBe(false);
    expect(h.server.requests[1]?.body.model).toBe("other-model");
    // The new conversation starts empty.
    expect(messagesOf(h.server.requests[1]).filter((m: { role: string }) => m.role === "user")).toHaveLength(
      1,
    );
    await pause(400);
    s.type("n");
    await s.waitFor("declined");
  });
});

describe.skipIf(!TMUX_AVAILABLE)("approval questions in the full screen", () => {
  /** Sends a prompt whose answer is `tool(args)` and waits at its question, past the grace. */
  const askFor = async (s: Screen, question: string) => {
    await opened(s);
    send(s, "go");
    const shown = await s.waitFor(question);
    await pause(400);
    return shown;
  };

  it("a sentence typed while a question is up never answers it, however late it starts", async () => {
    h.server.reply().tool("bash", { command: "sleep 30" });
    h.server.reply().text("refused, fine");
    h.server.reply().text("sentence answered");
    const s = open();
    await askFor(s, "Allow bash(sleep 30)?");
    await pause(700);
    s.type("yes do it");
    await s.waitFor("prompt: yes do it (typing goes to the prompt)");
    await pause(500);
    expect(s.capture().join("\n")).toContain("Allow bash(sleep 30)?");
    // Enter with typing in the prompt queues the typing; the question stays.
    s.keys("Enter");
    await s.waitFor("queued: yes do it");
    expect(s.capture().join("\n")).toContain("Allow bash(sleep 30)?");
    await pause(400);
    s.type("n");
    await s.waitFor("sentence answered");
    expect(messagesOf(h.server.requests[2]).at(-1)).toMatchObject({ role: "user", content: "yes do it" });
  });

  it("'yes, and allow all edits this session' runs the write and switches to acceptEdits", async () => {
    h.server.reply().tool("write_file", { path: "a.txt", content: "a\n" });
    h.server.reply().tool("write_file", { path: "b.txt", content: "b\n" });
    h.server.reply().text("both written");
    const s = open();
    const asked = await askFor(s, "Allow write_file(a.txt)?");
    expect(asked).toContain("Yes, and allow all edits this session (acceptEdits)");
    expect(asked).toContain("Yes, always: save write_file(a.txt)");
    s.type("e");
    await s.waitFor("both written");
    expect(s.capture().join("\n")).not.toContain("Allow write_file(b.txt)?");
    expect(existsSync(path.join(h.work, "b.txt"))).toBe(true);
    await s.waitFor("· acceptEdits ·");
  });

  it("'no, and tell the model' sends the text with the refusal; ↑↓ Enter picks; Ctrl-O shows a long diff", async () => {
    const long = `${Array.from({ length: 80 }, (_, i) => `row ${i + 1}`).join("\n")}\n`;
    h.server.reply().tool("write_file", { path: "long.txt", content: long });
    h.server.reply().text("will use a temp file");
    const s = open();
    const asked = await askFor(s, "Allow write_file(long.txt)?");
    expect(asked).toMatch(/… \d+ more lines \(Ctrl-O: the whole of it\)/);
    expect(asked).not.toContain("+row 80");
    s.keys("C-o");
    await s.waitFor("+row 80");
    s.keys("C-o");
    await s.waitFor("Ctrl-O: the whole of it");
    await pause(400);
    for (let i = 0; i < 4; i++) {
      s.keys("Down");
      await pause(350);
    }
    await s.waitFor(/❯ 5\. No, and tell the model what to do instead/);
    s.keys("Enter");
    await s.waitFor("What should the model do instead?");
    s.type("write it under /tmp instead");
    s.keys("Enter");
    await s.waitFor("will use a temp file");
    expect(existsSync(path.join(h.work, "long.txt"))).toBe(false);
    const result = messagesOf(h.server.requests[1]).find((m: { role: string }) => m.role === "tool");
    expect(result.content).toContain("the user declined write_file(long.txt)");
    expect(result.content).toContain("write it under /tmp instead");
  });
});

describe.skipIf(!TMUX_AVAILABLE)("live output in the full screen", () => {
  it("a running bash call shows its latest lines as they come, the count of the rest; Ctrl-O shows more", async () => {
    h.server
      .reply()
      .tool("bash", { command: "for i in $(seq 1 12); do echo tick $i; sleep 0.4; done; echo finished" });
    h.server.reply().text("all ticked");
    const s = open(["--permission-mode", "bypassPermissions"]);
    await opened(s);
    send(s, "count");
    // While it runs (no result yet): the latest lines under the call.
    const early = await s.waitFor(/○ bash[^\n]*\n\s+⎿ [^\n]*tick [1-4]\b/);
    expect(early).toContain("Working…");
    const later = await s.waitFor(
      /… \+\d+ lines \(Ctrl-O to expand\)\n\s+tick \d+\n\s+tick \d+\n\s+tick \d+/,
    );
    expect(later).not.toContain("all ticked");
    expect(later).not.toContain("tick 1\n");
    s.keys("C-o");
    await s.waitFor((text) => /^\s+(⎿ )?tick 1$/m.test(text) && text.includes("Working…"));
    await s.waitFor("all ticked");
  });

  it("a subagent's work shows as its latest lines under its task line, the rest counted", async () => {
    h.server.reply().tool("task", { description: "six steps", prompt: "Run six steps." });
    h.server.reply().tool("bash", { command: "echo step-1" }).tool("bash", { command: "echo step-2" });
    h.server.reply().tool("bash", { command: "echo step-3" }).tool("bash", { command: "echo step-4" });
    h.server.reply().text("steps done");
    h.server.reply().text("the task finished");
    const s = open(["--permission-mode", "bypassPermissions"]);
    await opened(s);
    send(s, "delegate");
    const shown = await s.waitFor("the task finished");
    expect(shown).toContain("task: six steps");
    expect(shown).toMatch(/task: six steps\n\s+… \+\d+ lines \(Ctrl-O to expand\)/);
    expect(shown).toContain("step-4");
    expect(shown).not.toContain('command="echo step-1"');
    s.keys("C-o");
    await s.waitFor('command="echo step-1"');
  });
});

describe.skipIf(!TMUX_AVAILABLE)("!cmd in the full screen", () => {
  it("is the user's own command: no question in default mode, its output shown and sent with the next prompt, still in the sandbox", async () => {
    const outside = tempDir("hx-outside-");
    h.server.reply().text("noted");
    const s = open();
    const status = await opened(s);
    send(s, "!touch made-by-me && echo user-ran-it");
    await s.waitFor(/⎿ .*user-ran-it/);
    expect(s.capture().join("\n")).not.toContain("Allow bash");
    expect(existsSync(path.join(h.work, "made-by-me"))).toBe(true);
    if (/sandboxed/.test(status)) {
      // The OS sandbox still holds: a write outside the workspace fails.
      send(s, `!touch ${outside}/escaped`);
      await s.waitFor(/Read-only file system|Permission denied|cannot touch/);
      expect(existsSync(path.join(outside, "escaped"))).toBe(false);
    }
    send(s, "what did I run?");
    await s.waitFor("noted");
    expect(h.server.requests).toHaveLength(1);
    expect(messagesOf(h.server.requests[0]).at(-1).content).toMatch(/^what did I run\?[\s\S]*user-ran-it/);
  });
});

describe.skipIf(!TMUX_AVAILABLE)("leaving plan mode in the full screen", () => {
  const plan = "# Plan\n\n1. Write **a.txt** with one line\n2. Check it";

  it("exit_plan_mode shows the plan rendered; approving sets the chosen mode and the model carries on", async () => {
    h.server.reply().tool("exit_plan_mode", { plan });
    h.server.reply().tool("write_file", { path: "a.txt", content: "one\n" });
    h.server.reply().text("plan carried out");
    const s = open(["--permission-mode", "plan"]);
    await opened(s);
    send(s, "plan it");
    const shown = await s.waitFor("The model's plan:");
    expect(shown).toContain("Write a.txt with one line");
    expect(shown).not.toContain("**a.txt**");
    expect(shown).toContain("Yes, and allow all edits (acceptEdits)");
    await pause(400);
    s.type("y");
    await s.waitFor("plan carried out");
    await s.waitFor("· acceptEdits ·");
    expect(existsSync(path.join(h.work, "a.txt"))).toBe(true);
    // Offered in plan mode only.
    expect(toolNamesOf(h.server.requests[0])).toContain("exit_plan_mode");
    expect(toolNamesOf(h.server.requests[1])).not.toContain("exit_plan_mode");
    expect(toolResultsOf(h.server.requests[1])[0]).toMatch(
      /approved the plan\. The permission mode is now acceptEdits/,
    );
  });

  it("'keep planning' sends the feedback; the mode stays plan", async () => {
    h.server.reply().tool("exit_plan_mode", { plan });
    h.server.reply().text("revising");
    const s = open(["--permission-mode", "plan"]);
    await opened(s);
    send(s, "plan it");
    await s.waitFor("The model's plan:");
    await pause(400);
    s.type("n");
    await s.waitFor("What should change in the plan?");
    s.type("add a test first");
    s.keys("Enter");
    await s.waitFor("revising");
    expect(s.capture().join("\n")).toMatch(/· plan ·/);
    expect(toolResultsOf(h.server.requests[1])[0]).toMatch(/keep planning: add a test first/);
    expect(toolNamesOf(h.server.requests[1])).toContain("exit_plan_mode");
  });
});

describe("plan mode headless", () => {
  it("exit_plan_mode cannot be approved: the mode stays plan and the model ends with the plan", async () => {
    h.server.reply().tool("exit_plan_mode", { plan: "1. do it" });
    h.server.reply().text("1. do it");
    const run = await h.agent("plan it", ["--permission-mode", "plan"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("1. do it");
    expect(toolResultsOf(h.server.requests[1])[0]).toMatch(/Nobody can approve the plan in this run/);
    expect(toolNamesOf(h.server.requests[1])).toContain("exit_plan_mode");
  });
});

describe.skipIf(!TMUX_AVAILABLE)("the small ones", () => {
  it("the status line follows /model's context window; /mcp is known with no server; /compact prints once; Tab after typing completes the text typed", async () => {
    h.server.reply().text("first").usage({ input: 5_000, output: 10 });
    h.server.replyWith((_request, reply) => reply.text("a summary of it all"));
    const s = open(["--model", "gpt-4.1"]);
    await s.waitFor(/gpt-4\.1 · default · [^·]+ · ctx 0% of 1M/);
    send(s, "/model gpt-4o");
    await s.waitFor("context window 128,000 tokens");
    await s.waitFor(/gpt-4o · default · [^·]+ · ctx 0% of 128k/);
    send(s, "/mcp");
    await s.waitFor("No MCP server is configured.");
    send(s, "hello");
    await s.waitFor("first");
    send(s, "/compact");
    await s.waitFor(/summarised/);
    await pause(300);
    expect(
      s
        .capture()
        .join("\n")
        .match(/message\(s\) summarised/g),
    ).toHaveLength(1);
    // Typed and Tab at once: the completion is of "/rel", never a list made for less.
    // In one write, as a fast typist's terminal may send them: Tab comes before the editor's list.
    s.keys("/", "r", "e", "l", "Tab");
    await s.waitFor("/reload-skills");
    expect(s.capture().join("\n")).not.toMatch(/^\/resume/m);
  });
});

describe("options before the subcommand", () => {
  it("are the subcommand's; one it does not take, or a conflict, is exit 2", async () => {
    h.server.reply().text("from the fake server");
    const before = await runHx(
      [
        "--provider",
        "openai",
        "--base-url",
        `${h.server.url}/v1`,
        "--model",
        "fake",
        "agent",
        "hi",
        "-C",
        h.work,
      ],
      { env: KEYS },
    );
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain("from the fake server");
    expect(h.server.requests[0]?.body.model).toBe("fake");
    const wrong = await runHx(["--verbose", "sessions", "list"], { env: KEYS });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--verbose does not apply to hx sessions list");
    const twice = await runHx(["--model", "a", "agent", "--model", "b", "hi"], { env: KEYS });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("--model is given twice");
  });
});
