// The interactive session (`hx` with no arguments), with piped input and in a real terminal.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { runHx, tempDir } from "../support/run-hx.js";
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
