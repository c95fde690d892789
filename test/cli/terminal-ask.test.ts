import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { formatLineQuestion, parseLineAnswer, questionChoices } from "../../src/cli/permission-choices.js";
import { createTerminalAsker, createTerminalNetworkAsker } from "../../src/cli/terminal-ask.js";

const request = (signal = new AbortController().signal) => ({
  tool: "bash",
  effect: "execute" as const,
  subject: "git status",
  rule: "bash(git status)",
  reason: "r",
  signal,
});

describe("the network allow-list's line-mode question", () => {
  it("asks once / this session / always / no about the host and reads one line", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = "";
    output.on("data", (chunk) => {
      written += chunk;
    });
    const ask = createTerminalNetworkAsker({ input, output });
    const answer = ask({ host: "registry.npmjs.org", port: 443 });
    input.write("s\n");
    expect(await answer).toBe("session");
    expect(written).toContain(
      "Allow commands to reach registry.npmjs.org? [o] once  [s] this session  [a] always  [n] no",
    );
    const again = ask({ host: "x.org", port: 8080 });
    input.end();
    expect(await again).toBe("no");
  });
});

describe("terminal asker", () => {
  it("prints the question and reads one line", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = "";
    output.on("data", (chunk) => {
      written += chunk;
    });
    const ask = createTerminalAsker({ input, output });
    const answer = ask(request());
    input.write("a\n");
    expect(await answer).toBe("always");
    expect(written).toContain("Allow bash(git status)? [y] yes  [a] yes, always  [n] no");
  });

  it("treats end of input as 'no'", async () => {
    const input = new PassThrough();
    const ask = createTerminalAsker({ input, output: new PassThrough() });
    const answer = ask(request());
    input.end();
    expect(await answer).toBe("no");
    // and once input has ended, it answers at once
    expect(await ask(request())).toBe("no");
  });

  it("answers 'no' when the run is cancelled while waiting", async () => {
    const controller = new AbortController();
    const ask = createTerminalAsker({ input: new PassThrough(), output: new PassThrough() });
    const answer = ask(request(controller.signal));
    controller.abort();
    expect(await answer).toBe("no");
  });

  it("uses a given readline interface and handles its close", async () => {
    const input = new PassThrough();
    const rl = createInterface({ input, output: new PassThrough(), terminal: false });
    const ask = createTerminalAsker({ readline: rl });
    const first = ask(request());
    input.write("yes\n");
    expect(await first).toBe("yes");
    const second = ask(request());
    rl.close();
    expect(await second).toBe("no");
  });

  it("parses answers: keys and words, an empty line is no, other text is what to do instead", () => {
    const r = request();
    expect(parseLineAnswer("Y", r, {})).toBe("yes");
    expect(parseLineAnswer(" always ", r, {})).toBe("always");
    expect(parseLineAnswer("", r, {})).toBe("no");
    expect(parseLineAnswer(undefined, r, {})).toBe("no");
    expect(parseLineAnswer("use git diff instead", r, {})).toEqual({ instead: "use git diff instead" });
    // "e" only where it is offered: a file change in a session that can switch modes.
    expect(parseLineAnswer("e", r, { allowEdits: () => {} })).toEqual({ instead: "e" });
    let switched = 0;
    const write = { ...r, tool: "write_file", effect: "write" as const, rule: "write_file(a.txt)" };
    expect(parseLineAnswer("e", write, { allowEdits: () => switched++ })).toBe("yes");
    expect(switched).toBe(1);
    expect(formatLineQuestion({ ...r, rule: "bash(ls)", alwaysRules: ["bash(ls)"] }, {})).toBe(
      "Allow bash(ls)? [y] yes  [a] yes, always: save bash(ls)  [n] no  (or type what the model should do instead) ",
    );
    expect(formatLineQuestion({ ...write, alwaysRules: [] }, { allowEdits: () => {} })).toBe(
      "Allow write_file(a.txt)? [y] yes  [e] yes, and allow all edits this session (acceptEdits)  [n] no  (or type what the model should do instead) ",
    );
  });
});

describe("a question with its own wording (a re-run after a sandbox refusal)", () => {
  const rerun = {
    ...request(),
    question:
      "The sandbox refused a write to /h/x (Read-only file system). Run bash(touch /h/x) again outside it?",
    alwaysRules: ["let commands write /h"],
    labels: {
      yes: "Yes, run it once outside the sandbox",
      always: "Yes, and let commands write /h for this session",
    },
  };

  it("shows the question and the labels in place of Allow … / yes / always: save …", () => {
    expect(formatLineQuestion(rerun, {})).toBe(
      "The sandbox refused a write to /h/x (Read-only file system). Run bash(touch /h/x) again outside it? [y] yes, run it once outside the sandbox  [a] yes, and let commands write /h for this session  [n] no  (or type what the model should do instead) ",
    );
    expect(questionChoices(rerun, {}).map((choice) => choice.label)).toEqual([
      "Yes, run it once outside the sandbox",
      "Yes, and let commands write /h for this session",
      "No",
      "No, and tell the model what to do instead",
    ]);
    expect(parseLineAnswer("a", rerun, {})).toBe("always");
  });

  it("offers no 'always' when nothing can be added for the session", () => {
    const once = { ...rerun, alwaysRules: [], labels: { yes: rerun.labels.yes } };
    expect(formatLineQuestion(once, {})).not.toContain("[a]");
  });
});
