import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createTerminalAsker } from "../../src/cli/terminal-ask.js";
import { formatPermissionQuestion, parsePermissionAnswer } from "../../src/permissions/ask.js";

const request = (signal = new AbortController().signal) => ({
  tool: "bash",
  effect: "execute" as const,
  subject: "git status",
  rule: "bash(git status)",
  reason: "r",
  signal,
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
    expect(written).toContain("Allow bash(git status)? [y]es / [n]o / [a]lways");
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

  it("parses answers", () => {
    expect(parsePermissionAnswer("Y")).toBe("yes");
    expect(parsePermissionAnswer(" always ")).toBe("always");
    expect(parsePermissionAnswer("")).toBe("no");
    expect(parsePermissionAnswer(undefined)).toBe("no");
    expect(formatPermissionQuestion({ rule: "bash(ls)" })).toBe("Allow bash(ls)? [y]es / [n]o / [a]lways ");
  });
});
