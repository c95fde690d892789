// The full-screen session in a real terminal (tmux), against the fake model server: what a
// person sees and what reaches the model.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { type Screen, startScreen, TMUX_AVAILABLE } from "../support/tmux-screen.js";

let server: FakeModelServer;
let work: string;
let screen: Screen | undefined;
beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-tui-");
});
afterEach(async () => {
  screen?.close();
  screen = undefined;
  await server.close();
});

const args = (...extra: string[]) => [
  "--provider",
  "openai",
  "--base-url",
  `${server.url}/v1`,
  "--model",
  "gpt-4.1",
  "-C",
  work,
  ...extra,
];
const env = { OPENAI_API_KEY: "sk-test" };
const open = (
  options: { columns?: number; rows?: number; extra?: string[]; env?: Record<string, string> } = {},
) => {
  screen = startScreen(args(...(options.extra ?? [])), {
    cwd: work,
    env: { ...env, ...options.env },
    columns: options.columns,
    rows: options.rows,
  });
  return screen;
};
/** The user messages of request `n`. */
const userMessages = (n: number): string[] =>
  (server.requests[n]?.body.messages ?? [])
    .filter((m: { role: string }) => m.role === "user")
    .map((m: { content: string }) => m.content);
const prompt = "/help for commands";
/**
 * Opens the session, sends "write" and waits at the approval question for write_file(new.txt),
 * past the 300 ms in which typing cannot answer it.
 */
const askToWrite = async () => {
  const s = open();
  await s.waitFor(prompt);
  s.type("write");
  s.keys("Enter");
  await s.waitFor("Allow write_file(new.txt)?");
  await new Promise((resolve) => setTimeout(resolve, 400));
  return s;
};

describe.skipIf(!TMUX_AVAILABLE)("hx full-screen session", () => {
  it("a pasted block is one prompt, shown collapsed when long", async () => {
    server.reply().text("got it");
    server.reply().text("got the long one");
    const s = open();
    await s.waitFor(prompt);
    s.paste("line one\nline two\nline three");
    await s.waitFor("line three");
    s.keys("Enter");
    await s.waitFor("got it");
    expect(server.requests).toHaveLength(1);
    expect(userMessages(0).at(-1)).toBe("line one\nline two\nline three");

    const long = Array.from({ length: 40 }, (_, i) => `row ${i + 1}`).join("\n");
    s.paste(long);
    await s.waitFor(/\[paste #\d+ \+40 lines\]/);
    s.keys("Enter");
    await s.waitFor("got the long one");
    expect(server.requests).toHaveLength(2);
    expect(userMessages(1).at(-1)).toBe(long);
  });

  it("Alt+Enter and a trailing backslash start a new line instead of sending", async () => {
    server.reply().text("two lines received");
    const s = open();
    await s.waitFor(prompt);
    s.type("first line");
    s.keys("M-Enter");
    s.type("second line\\");
    s.keys("Enter");
    s.type("third line");
    await s.waitFor("third line");
    expect(server.requests).toHaveLength(0);
    s.keys("Enter");
    await s.waitFor("two lines received");
    expect(userMessages(0).at(-1)).toBe("first line\nsecond line\nthird line");
  });

  it("renders markdown: bold without asterisks, headings, lists; the spinner shows while waiting", async () => {
    server
      .reply()
      .text("# Summary\n\nThis is **bold** and *quiet*.\n\n- alpha\n- beta", { chunks: 12 })
      .delay(250);
    const s = open();
    await s.waitFor(prompt);
    s.type("explain");
    s.keys("Enter");
    const waiting = await s.waitFor(/Working… \d+s · .* tokens · Esc to interrupt/);
    expect(waiting).toContain("> explain");
    const done = await s.waitFor((text) => text.includes("beta") && !text.includes("Working…"));
    expect(done).toContain("This is bold and quiet.");
    expect(done).not.toContain("**bold**");
    expect(done).toContain("Summary");
    expect(done).not.toContain("# Summary");
    expect(done).toMatch(/- alpha|• alpha/);
  });

  it("colours code blocks by language and diffs by line; NO_COLOR draws no colour at all", async () => {
    server.reply().text("Here:\n\n```ts\nconst answer: number = 42; // the answer\n```\n");
    const s = open();
    await s.waitFor(prompt);
    // The highlighter loads after the first draw: give it a moment before the answer arrives.
    await new Promise((resolve) => setTimeout(resolve, 300));
    s.type("code please");
    s.keys("Enter");
    await s.waitFor("the answer");
    const styled = s.captureStyled();
    const codeLine = styled.split("\n").find((line) => line.includes("answer") && line.includes("42")) ?? "";
    // `const` as a keyword, 42 as a number, the comment dimmed: three different styles.
    expect(codeLine).toMatch(/\x1b\[[0-9;]*m\s*const/);
    expect(codeLine).toMatch(/\x1b\[[0-9;]*m42/);
    s.close();

    server.reply().text("Plain **bold** here.\n\n```ts\nconst x = 1;\n```");
    const plain = open({ env: { NO_COLOR: "1" } });
    await plain.waitFor(prompt);
    plain.type("again");
    plain.keys("Enter");
    await plain.waitFor("const x = 1;");
    // tmux reports colours as SGR 30-37/38/90-97 (foreground) and 40-47/48 (background).
    expect(plain.captureStyled()).not.toMatch(/\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7])(?:;[0-9;]*)?m/);
    expect(plain.capture().join("\n")).toContain("Plain bold here.");
  });

  it("shows the diff in the approval prompt; Ctrl-C there declines, cancels, and keeps what was typed", async () => {
    writeFileSync(path.join(work, "notes.txt"), "keep\nold line\nend\n");
    server.reply().tool("edit_file", { path: "notes.txt", old_text: "old line", new_text: "new line" });
    server.reply().text("second prompt answered");
    const s = open();
    await s.waitFor(prompt);
    s.type("edit it");
    s.keys("Enter");
    const asked = await s.waitFor("Allow edit_file(notes.txt)?");
    expect(asked).toContain("notes.txt: +1 -1");
    expect(asked).toMatch(/^-old line$/m);
    expect(asked).toMatch(/^\+new line$/m);
    expect(asked).toMatch(/^ keep$/m);
    s.keys("C-c");
    await s.waitFor("cancelled.");
    expect(readFileSync(path.join(work, "notes.txt"), "utf8")).toBe("keep\nold line\nend\n");
    // The prompt is back and takes typing at once; nothing typed is lost.
    s.type("what now");
    await s.waitFor("what now");
    s.keys("Enter");
    await s.waitFor("second prompt answered");
    expect(userMessages(1).at(-1)).toBe("what now");
    const results = server.requests[1].body.messages.filter((m: { role: string }) => m.role === "tool");
    expect(results.at(-1).content).toMatch(/cancelled/);
  });

  it("y at the approval prompt runs the call, and the diff stays under it; answers stay out of history", async () => {
    server.reply().tool("write_file", { path: "new.txt", content: "fresh\n" });
    server.reply().text("written");
    const s = await askToWrite();
    s.type("y");
    const done = await s.waitFor("written");
    expect(readFileSync(path.join(work, "new.txt"), "utf8")).toBe("fresh\n");
    expect(done).toMatch(/new\.txt: \+1 -0/);
    expect(done).toMatch(/\+fresh/);
    s.keys("Up");
    await s.waitFor((text) => text.split("\n").some((line) => line === "write"));
  });

  it("typing ahead at a question never answers it: the letters go to the prompt, shown under the question", async () => {
    server.reply().tool("write_file", { path: "new.txt", content: "fresh\n" });
    server.reply().text("declined, fine");
    server.reply().text("next one answered");
    const s = await askToWrite();
    // A sentence typed in one go holds y, a and n: none of them is an answer.
    s.type("say yes and any");
    const asked = await s.waitFor("prompt: say yes and any");
    expect(asked).toContain("Allow write_file(new.txt)?");
    expect(existsSync(path.join(work, "new.txt"))).toBe(false);
    expect(existsSync(path.join(work, ".hx", "settings.local.json"))).toBe(false);
    // A key after a pause is an answer.
    await new Promise((resolve) => setTimeout(resolve, 400));
    s.type("n");
    await s.waitFor("declined, fine");
    expect(existsSync(path.join(work, "new.txt"))).toBe(false);
    await s.waitFor((text) => text.split("\n").some((line) => line === "say yes and any"));
    s.keys("Enter");
    await s.waitFor("next one answered");
    expect(userMessages(2).at(-1)).toBe("say yes and any");
  });

  it("the status line shows model, mode and context; Shift+Tab cycles the mode", async () => {
    server.reply().text("counted").usage({ input: 10_484, output: 20 });
    const s = open();
    const first = await s.waitFor(/gpt-4\.1 · default · (sandboxed|no sandbox) · ctx 0% of 1M/);
    expect(first).toBeTruthy();
    s.type("count");
    s.keys("Enter");
    await s.waitFor("counted");
    // 10,504 of a 1,047,576-token window: 1%; tokens and the list price of gpt-4.1.
    await s.waitFor(/gpt-4\.1 · default · [^·]+ · ctx 1% of 1M · 10\.5k tokens · \$0\.02/);
    s.keys("BTab");
    await s.waitFor("· acceptEdits ·");
    s.keys("BTab");
    await s.waitFor("· plan ·");
    s.keys("BTab");
    await s.waitFor("· default ·");
  });

  it("an unknown slash command is an error listing commands and skills; nothing is sent", async () => {
    const skill = path.join(work, ".agents", "skills", "deploy");
    mkdirSync(skill, { recursive: true });
    writeFileSync(path.join(skill, "SKILL.md"), "---\nname: deploy\ndescription: Ship it.\n---\nSteps.\n");
    server.reply().text("deploying");
    const s = open();
    await s.waitFor(prompt);
    s.type("/nope");
    s.keys("Enter");
    const shown = await s.waitFor("Unknown command /nope");
    expect(shown).toMatch(/\/help/);
    expect(shown).toMatch(/\/deploy/);
    expect(server.requests).toHaveLength(0);
    s.type("/deploy now");
    s.keys("Enter");
    await s.waitFor("deploying");
    expect(server.requests).toHaveLength(1);
  });

  it("redraws on resize and never draws past the edge (40 columns)", async () => {
    server.reply().text(`A long answer ${"word ".repeat(40)}end.`);
    const s = open({ columns: 100 });
    await s.waitFor(prompt);
    s.type("go");
    s.keys("Enter");
    await s.waitFor("end.");
    s.resize(40, 30);
    const narrow = await s.waitFor((text) =>
      text.split("\n").some((l) => /^gpt-4\.1 · default · /.test(l) && l.endsWith("…")),
    );
    for (const line of narrow.split("\n")) expect(line.length).toBeLessThanOrEqual(40);
    expect(narrow).toContain("end.");
    s.resize(100, 30);
    await s.waitFor(/gpt-4\.1 · default · [^·]+ · ctx \d+% of 1M · \S+ tokens/);
  });

  it("type-ahead during a turn is queued, shown as queued, and sent after it", async () => {
    server.reply().text("slow answer done", { chunks: 8 }).delay(300);
    server.reply().text("queued one answered");
    const s = open();
    await s.waitFor(prompt);
    s.type("first");
    s.keys("Enter");
    await s.waitFor("Working…");
    s.type("second");
    s.keys("Enter");
    await s.waitFor("queued: second");
    await s.waitFor("queued one answered");
    expect(userMessages(1).at(-1)).toBe("second");
  });

  it("escape sequences in tool output and model text are shown inert", async () => {
    writeFileSync(path.join(work, "evil.txt"), "before\x1b]0;pwned\x07\x1b[2Jafter\x07bell\n");
    server.reply().tool("read_file", { path: "evil.txt" });
    server.reply().text("model says \x1b[31mred\x1b[0m and \x1b]0;title\x07done");
    const s = open();
    await s.waitFor(prompt);
    s.type("read it");
    s.keys("Enter");
    const shown = await s.waitFor("done");
    expect(shown).toContain("beforeafter^Gbell");
    expect(shown).toContain("model says red and done");
  });

  it("!cmd output goes with the next prompt; Ctrl-R finds old prompts", async () => {
    server.reply().text("saw the listing");
    const s = open({ extra: ["--permission-mode", "bypassPermissions"] });
    await s.waitFor(prompt);
    s.type("!echo shell-said-hi");
    s.keys("Enter");
    await s.waitFor(/⎿ .*shell-said-hi/);
    expect(server.requests).toHaveLength(0);
    s.type("what did it print?");
    s.keys("Enter");
    await s.waitFor("saw the listing");
    expect(userMessages(0).at(-1)).toMatch(/^what did it print\?[\s\S]*shell-said-hi/);
    s.keys("C-r");
    s.type("echo");
    await s.waitFor("(history search) 'echo': !echo shell-said-hi");
    s.keys("Enter");
    await s.waitFor((text) => text.split("\n").some((l) => l === "!echo shell-said-hi"));
    s.keys("C-u");
    s.keys("C-d");
    expect(await s.exited()).toBe(0);
  });

  it('hx "task" opens the session with that prompt; two Ctrl-C on an empty prompt leave', async () => {
    server.reply().text("started with the task");
    screen = startScreen([...args(), "fix", "the bug"], { cwd: work, env });
    const s = screen;
    await s.waitFor("started with the task");
    expect(userMessages(0).at(-1)).toBe("fix the bug");
    s.keys("C-c");
    await s.waitFor("Press Ctrl-C again");
    s.keys("C-c");
    expect(await s.exited()).toBe(0);
    expect(existsSync(work)).toBe(true);
  });

  it("Esc Esc on an empty prompt opens the rewind list; a lone Esc does not; Esc Esc in a turn only stops it", async () => {
    server.reply().text("first done");
    const s = open();
    await s.waitFor(prompt);
    s.type("make the first file");
    s.keys("Enter");
    await s.waitFor("first done");
    // One Esc, then nothing for longer than the two of a pair may be apart: no list.
    s.keys("Escape");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    s.type("x");
    await s.waitFor((text) => text.split("\n").some((line) => line === "x"));
    expect(s.capture().join("\n")).not.toContain("Go back with /rewind N");
    s.keys("BSpace");
    await s.waitFor((text) => !text.split("\n").some((line) => line === "x"));
    s.keys("Escape");
    s.keys("Escape");
    const listed = await s.waitFor("Go back with /rewind N");
    expect(listed).toMatch(/> \/rewind\n/);
    expect(listed).toMatch(/ {2}1\. make the first file/);
    // Nothing reached the model: the list is hx's own.
    expect(server.requests).toHaveLength(1);

    server.hang();
    s.type("wait forever");
    s.keys("Enter");
    await s.waitFor("Working…");
    s.keys("Escape");
    s.keys("Escape");
    await s.waitFor("cancelled.");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(s.capture().join("\n").split("Go back with /rewind N").length - 1).toBe(1);
  });

  it("Esc Esc with checkpoints off says so in one line (there is no /rewind)", async () => {
    const home = tempDir("hx-home-nocheck-");
    mkdirSync(path.join(home, ".hx"), { recursive: true });
    writeFileSync(path.join(home, ".hx", "settings.json"), JSON.stringify({ checkpoints: false }));
    const s = open({ env: { HOME: home } });
    await s.waitFor(prompt);
    // The sandbox's word comes once the session is open.
    await s.waitFor(/gpt-4\.1 · default · (sandboxed|no sandbox)/);
    s.keys("Escape");
    s.keys("Escape");
    const shown = await s.waitFor("Nothing to rewind: checkpoints are off in this session");
    expect(shown).not.toContain("unknown command");
  });

  it("the todo list shows when it changes, once", async () => {
    server.reply().tool("todo_write", {
      todos: [
        { content: "read the code", status: "completed" },
        { content: "write the fix", status: "in_progress" },
        { content: "run the tests", status: "pending" },
      ],
    });
    server.reply().text("planned");
    const s = open();
    await s.waitFor(prompt);
    s.type("plan it");
    s.keys("Enter");
    const shown = await s.waitFor("planned");
    expect(shown).toContain("[x] read the code");
    expect(shown).toContain("[>] write the fix");
    expect(shown).toContain("(1/3 completed)");
    expect(shown.split("[x] read the code").length - 1).toBe(1);
  });

  it("a retried request takes its partial answer off the screen; a Stop hook sending the model back says so", async () => {
    mkdirSync(path.join(work, ".hx"), { recursive: true });
    const marker = path.join(tempDir("hx-stop-"), "once");
    writeFileSync(
      path.join(work, ".hx", "settings.json"),
      JSON.stringify({
        hooks: {
          Stop: [
            {
              hooks: [
                {
                  type: "command",
                  command: `if [ ! -f '${marker}' ]; then touch '${marker}'; echo 'run the tests first' >&2; exit 2; fi`,
                },
              ],
            },
          ],
        },
      }),
    );
    server.dropAfter(4).text("PARTIAL-ANSWER that breaks off", { chunks: 6 });
    server.reply().text("The whole answer.");
    server.reply().text("Tests pass now.");
    const s = open({ extra: ["--trust"] }); // the project's Stop hook runs in a trusted folder only
    await s.waitFor(prompt);
    s.type("go");
    s.keys("Enter");
    const shown = await s.waitFor("Tests pass now.");
    expect(shown).toContain("The whole answer.");
    expect(shown).not.toContain("PARTIAL");
    expect(shown).toMatch(/retrying in/);
    expect(shown).toContain("Stop hook sent the model back: run the tests first");
  });

  it("/resume ID shows the resumed conversation; --continue shows it at start", async () => {
    const home = tempDir("hx-home-resume-");
    server.reply().text("the first answer");
    const first = await runHx(["agent", "the first task", ...args()], { env: { ...env, HOME: home } });
    expect(first.code).toBe(0);
    const list = await runHx(["sessions", "list", "--json", "-C", work], { env: { HOME: home } });
    const id = JSON.parse(list.stdout)[0].id as string;

    const s = open({ env: { HOME: home } });
    await s.waitFor(prompt);
    expect(s.capture().join("\n")).not.toContain("the first answer");
    s.type(`/resume ${id}`);
    s.keys("Enter");
    const resumed = await s.waitFor("the first answer");
    expect(resumed).toContain("> the first task");
    s.close();

    const again = open({ env: { HOME: home }, extra: ["--continue"] });
    const shown = await again.waitFor("the first answer");
    expect(shown).toContain("> the first task");
  });

  it("Esc cancels a running turn; Ctrl-O expands tool output; Tab completes @paths; Up recalls the last session's prompts", async () => {
    const home = tempDir("hx-home-keys-");
    writeFileSync(
      path.join(work, "numbers.txt"),
      Array.from({ length: 8 }, (_, i) => `n${i + 1}`).join("\n"),
    );
    server.reply().tool("read_file", { path: "numbers.txt" });
    server.reply().text("read them");
    server.hang();
    const s = open({ env: { HOME: home } });
    await s.waitFor(prompt);
    s.type("read @numb");
    s.keys("Tab");
    await s.waitFor("read @numbers.txt");
    s.keys("Enter");
    const collapsed = await s.waitFor("read them");
    expect(collapsed).toMatch(/… \+\d+ lines \(Ctrl-O to expand\)/);
    expect(collapsed).not.toContain("n8");
    s.keys("C-o");
    await s.waitFor("n8");
    s.type("wait forever");
    s.keys("Enter");
    await s.waitFor("Working…");
    s.keys("Escape");
    await s.waitFor("cancelled.");
    s.keys("C-d");
    expect(await s.exited()).toBe(0);
    s.close();

    const next = open({ env: { HOME: home } });
    await next.waitFor(prompt);
    next.keys("Up");
    await next.waitFor((text) => text.split("\n").some((line) => line === "wait forever"));
  });
});
