// End to end: asking for permission in a real terminal (a pseudo-terminal from python3's pty
// module). Each answer is typed only after the question appeared, so the tests do not race.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHxInTerminal, toolResultsOf, useHarness } from "./harness-support.js";

const h = useHarness();

const question = (command: string) => `Allow bash(${command})? [y] yes`;
const count = (text: string, part: string) => text.split(part).length - 1;

describe("asking in a terminal", () => {
  it("hx agent: yes runs the call, no refuses it, always saves the rule and stops asking", async () => {
    h.server.reply().tool("bash", { command: "echo one > one.txt" });
    h.server.reply().tool("bash", { command: "echo two > two.txt" });
    h.server.reply().tool("bash", { command: "echo three >> three.txt" });
    h.server.reply().tool("bash", { command: "echo three >> three.txt" });
    h.server.reply().text("all asked");

    const run = await runHxInTerminal(["agent", "make files", ...h.args()], {
      cwd: h.work,
      steps: [
        { expect: question("echo one > one.txt"), send: "y\r" },
        { expect: question("echo two > two.txt"), send: "n\r" },
        { expect: question("echo three >> three.txt"), send: "a\r" },
      ],
    });

    expect(run.error).toBeUndefined();
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(h.work, "one.txt"), "utf8")).toBe("one\n");
    expect(existsSync(path.join(h.work, "two.txt"))).toBe(false);
    expect(toolResultsOf(h.server.requests[2])[1]).toBe(
      "Permission denied: the user declined bash(echo two > two.txt). Do not retry the same call; choose another way or ask the user.",
    );
    // "always": saved to the project's local settings as the narrowest rule that covers the
    // call (echo only reads; what needed approval is writing three.txt), and the identical
    // second call ran unasked.
    const local = JSON.parse(readFileSync(path.join(h.work, ".hx/settings.local.json"), "utf8"));
    expect(local).toEqual({ permissions: { allow: ["write_file(three.txt)"] } });
    expect(count(run.output, question("echo three >> three.txt"))).toBe(1);
    expect(readFileSync(path.join(h.work, "three.txt"), "utf8")).toBe("three\nthree\n");
    expect(run.output).toContain("all asked");
    expect(run.output).toMatch(/turns=5 tool_calls=4 blocked=1 /);
  });

  it("line question: it names the rule 'always' saves; other text is a refusal that tells the model what to do", async () => {
    h.server.reply().tool("bash", { command: "echo four > four.txt" });
    h.server.reply().text("ok, another way");
    const run = await runHxInTerminal(["agent", "make a file", ...h.args()], {
      cwd: h.work,
      steps: [{ expect: "[a] yes, always: save write_file(four.txt)", send: "use printf instead\r" }],
    });
    expect(run.error, run.output).toBeUndefined();
    expect(run.code).toBe(0);
    expect(existsSync(path.join(h.work, "four.txt"))).toBe(false);
    expect(toolResultsOf(h.server.requests[1])[0]).toBe(
      "Permission denied: the user declined bash(echo four > four.txt) and says what to do instead: use printf instead",
    );
  });

  it("an 'always' answer holds in the next run, headless", async () => {
    h.server.reply().tool("bash", { command: "echo saved >> saved.txt" });
    h.server.reply().text("first");
    const first = await runHxInTerminal(["agent", "go", ...h.args()], {
      cwd: h.work,
      steps: [{ expect: question("echo saved >> saved.txt"), send: "a\r" }],
    });
    expect(first.error).toBeUndefined();

    h.server.reply().tool("bash", { command: "echo saved >> saved.txt" });
    h.server.reply().text("second");
    const second = await h.agent("go again");

    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain("Permission denied");
    expect(readFileSync(path.join(h.work, "saved.txt"), "utf8")).toBe("saved\nsaved\n");
  });

  it("the interactive session asks on its own prompt line and keeps going", async () => {
    h.server.reply().tool("bash", { command: "echo repl > repl.txt" });
    h.server.reply().text("wrote repl.txt");
    h.server.reply().tool("bash", { command: "echo again > again.txt" });
    h.server.reply().text("declined");

    const run = await runHxInTerminal(h.args(), {
      cwd: h.work,
      steps: [
        { expect: "hx >> ", send: "write a file\r" },
        { expect: question("echo repl > repl.txt"), send: "y\r" },
        { expect: "hx >> ", send: "write another\r" },
        { expect: question("echo again > again.txt"), send: "n\r" },
        { expect: "hx >> ", send: "/exit\r" },
      ],
    });

    expect(run.error).toBeUndefined();
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(h.work, "repl.txt"), "utf8")).toBe("repl\n");
    expect(existsSync(path.join(h.work, "again.txt"))).toBe(false);
    expect(run.output).toContain("wrote repl.txt");
    expect(toolResultsOf(h.server.requests[3]).at(-1)).toMatch(/^Permission denied: the user declined/);
  });

  it("hx agent: an edit's question shows its diff first", async () => {
    writeFileSync(path.join(h.work, "conf.txt"), "mode = slow\nretries = 1\n");
    h.server
      .reply()
      .tool("edit_file", { path: "conf.txt", old_text: "mode = slow", new_text: "mode = fast" });
    h.server.reply().text("edited");
    const run = await runHxInTerminal(["agent", "speed it up", ...h.args()], {
      cwd: h.work,
      steps: [{ expect: "Allow edit_file(conf.txt)? [y] yes", send: "y\r" }],
    });
    expect(run.error).toBeUndefined();
    expect(run.code).toBe(0);
    const before = run.output.slice(0, run.output.indexOf("Allow edit_file(conf.txt)?"));
    expect(before).toMatch(
      /conf\.txt: \+1 -1\r?\n@@ -1,2 \+1,2 @@\r?\n-mode = slow\r?\n\+mode = fast\r?\n retries = 1/,
    );
    expect(readFileSync(path.join(h.work, "conf.txt"), "utf8")).toBe("mode = fast\nretries = 1\n");
  });

  it("hx agent: Ctrl-C at the question declines and cancels the run (exit 130)", async () => {
    h.server.reply().tool("bash", { command: "echo int > int.txt" });
    h.server.reply().text("never asked for");
    const run = await runHxInTerminal(["agent", "go", ...h.args()], {
      cwd: h.work,
      steps: [{ expect: question("echo int > int.txt"), send: "\x03" }],
    });
    expect(run.error).toBeUndefined();
    expect(run.code).toBe(130);
    expect(existsSync(path.join(h.work, "int.txt"))).toBe(false);
    expect(h.server.requests).toHaveLength(1);
    expect(run.output).toContain("cancelled");
  });

  it.each([
    ["Ctrl-D (end of input)", "\x04"],
    ["an empty line", "\r"],
  ])("%s at the question counts as no", async (_name, keys) => {
    h.server.reply().tool("bash", { command: "echo eof > eof.txt" });
    h.server.reply().text("stopped");
    const run = await runHxInTerminal(["agent", "go", ...h.args()], {
      cwd: h.work,
      steps: [{ expect: question("echo eof > eof.txt"), send: keys }],
    });
    expect(run.error).toBeUndefined();
    expect(run.code).toBe(0);
    expect(existsSync(path.join(h.work, "eof.txt"))).toBe(false);
    expect(toolResultsOf(h.server.requests[1])[0]).toMatch(/^Permission denied: the user declined/);
  });
});
