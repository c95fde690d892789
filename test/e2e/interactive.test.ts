// The interactive session (`hx` with no arguments), with piped input and in a real terminal.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { startInTerminal } from "../support/terminal.js";

let server: FakeModelServer;
let work: string;
beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-repl-");
});
afterEach(async () => {
  await server.close();
});

const args = () => ["--provider", "openai", "--base-url", `${server.url}/v1`, "--model", "m", "-C", work];
const env = { OPENAI_API_KEY: "sk-test" };

describe("hx interactive session", () => {
  it("keeps the conversation across prompts, streams answers, and leaves on /exit", async () => {
    server.reply().text("Hello there, friend.", { chunks: 4 });
    server.reply().text("You said hi before.");
    const run = await runHx(args(), { env, input: "hi\n/help\nwhat did I say?\n/exit\nnot sent\n" });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("hx >> ");
    expect(run.stdout).toContain("Hello there, friend.");
    expect(run.stdout).toContain("You said hi before.");
    expect(run.stdout).toMatch(/\/context\s+what the next request holds/);
    expect(server.requests).toHaveLength(2);
    const second = server.requests[1].body.messages.map((m: { role: string; content: string }) => [
      m.role,
      m.content,
    ]);
    expect(second.slice(1)).toEqual([
      ["user", "hi"],
      ["assistant", "Hello there, friend."],
      ["user", "what did I say?"],
    ]);
  });

  it("exits 0 at the end of input (Ctrl-D)", async () => {
    server.reply().text("ok");
    const run = await runHx(args(), { env, input: "one\n" });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/session: turns=1 tool_calls=0 blocked=0/);
  });

  it("Ctrl-C cancels the running turn, not the program", async () => {
    server.hang();
    server.reply().text("second answer");
    const term = startInTerminal(args(), { cwd: work, env });
    try {
      await term.waitFor("hx >> ");
      term.type("wait forever\r");
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (server.requests.length > 0) {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
      const mark = term.output().length;
      term.type("\x03");
      const after = await term.waitFor("cancelled.", { from: mark });
      await term.waitFor("hx >> ", { from: after });
      term.type("again\r");
      await term.waitFor("second answer", { from: after });
      term.type("\x04");
      expect(await term.exited()).toBe(0);
    } finally {
      term.kill();
    }
  });
});

describe("entry points and line-mode commands", () => {
  it("an unknown /x lists commands and skills and sends nothing; /mode and /model change the session", async () => {
    server.reply().text("answered by m2");
    const run = await runHx(args(), {
      env,
      input: "/nope\n/mode plan\n/model m2\n/model gpt-4o\n/model m2\nhello\n/cost\n/exit\n",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Unknown command \/nope\. Commands: \/help .*\/clear .*\/skills/);
    expect(run.stdout).toContain("Permission mode: plan.");
    // The window follows the model: a known one's own, an unknown one hx's default.
    expect(run.stdout).toContain(
      "Model: openai/gpt-4o from the next prompt on (context window 128,000 tokens).",
    );
    expect(run.stdout).toMatch(
      /Model: openai\/m2 from the next prompt on \(context window [\d,]+ tokens\)\./,
    );
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body.model).toBe("m2");
    expect(run.stdout).toMatch(/Tokens this session \(m2\):/);
  });

  it("/clear starts a new conversation: the next request holds only the new prompt", async () => {
    server.reply().text("first answer");
    server.reply().text("fresh answer");
    const run = await runHx(args(), { env, input: "remember this\n/clear\nwhat did I say?\n" });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("New conversation.");
    const users = server.requests[1].body.messages.filter((m: { role: string }) => m.role === "user");
    expect(users.map((m: { content: string }) => m.content)).toEqual(["what did I say?"]);
  });

  it('hx "task" starts with that prompt; hx -p "task" is hx agent; hx help agent shows its help', async () => {
    server.reply().text("interactive first answer");
    const session = await runHx([...args(), "explain", "the repo"], { env, input: "" });
    expect(session.code).toBe(0);
    expect(session.stdout).toContain("interactive first answer");
    expect(server.requests[0].body.messages.at(-1).content).toBe("explain the repo");

    server.reply().text("printed answer");
    const printed = await runHx([...args(), "-p", "say it"], { env });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe("printed answer\n");
    expect(server.requests[1].body.messages.at(-1).content).toBe("say it");

    const help = await runHx(["help", "agent"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: hx agent/);
  });

  it("piped stdin given with a task is attached to it; too much of it is refused", async () => {
    server.reply().text("the log says hi");
    const run = await runHx(["agent", "explain this log", ...args()], { env, input: "line 1\nline 2\n" });
    expect(run.code).toBe(0);
    expect(server.requests[0].body.messages.at(-1).content).toBe(
      "explain this log\n\n<stdin>\nline 1\nline 2\n</stdin>",
    );
    const huge = await runHx(["agent", "explain", ...args()], { env, input: "x".repeat(1024 * 1024 + 10) });
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(/piped input is over 1 MB/);
    expect(server.requests).toHaveLength(1);
  });

  it("@path attaches a file; a missing one is reported and the prompt still goes", async () => {
    writeFileSync(path.join(work, "notes.md"), "the secret word is plum\n");
    server.reply().text("plum");
    const run = await runHx(args(), { env, input: "read @notes.md and @missing.txt\n" });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("@missing.txt: no such file, not attached");
    expect(run.stdout).toContain("attached: notes.md");
    expect(server.requests[0].body.messages.at(-1).content).toBe(
      'read @notes.md and @missing.txt\n\n<attached-file path="notes.md">\nthe secret word is plum\n\n</attached-file>',
    );
  });

  it("!cmd is the user's own command: it runs without a question, piped too, and its output goes with the next prompt", async () => {
    server.reply().text("saw it");
    const run = await runHx(args(), {
      env,
      input: "!touch made-by-shell && echo shell-ran\nwhat happened?\n",
    });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/Permission denied/);
    expect(existsSync(path.join(work, "made-by-shell"))).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body.messages.at(-1).content).toMatch(/^what happened\?[\s\S]*shell-ran/);
  });

  it("/init asks the model to draft an AGENTS.md from the repository", async () => {
    server.reply().text("drafted");
    const run = await runHx(args(), { env, input: "/init\n" });
    expect(run.code).toBe(0);
    expect(server.requests[0].body.messages.at(-1).content).toMatch(
      /^Draft an AGENTS\.md for this repository/,
    );
    expect(run.stdout).toContain("drafted");
  });
});
