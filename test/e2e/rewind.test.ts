// End to end: checkpoints and rewind through the real binary — files changed by `bash` and by
// the file tools come back, files changed outside hx stay (and are named), the conversation
// goes back in the session's own transcript, and bad turns are refused.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { startInTerminal } from "../support/terminal.js";
import { BYPASS, messagesOf } from "../support/wire.js";
import { useHarness } from "./harness-support.js";

const h = useHarness();

describe("hx rewind", () => {
  it("puts back files changed by write_file and bash, leaves a file changed outside hx, rewinds the transcript", async () => {
    writeFileSync(path.join(h.work, "b.txt"), "original\n");
    writeFileSync(path.join(h.work, "c.txt"), "mine\n");
    h.server.reply().tool("write_file", { path: "a.txt", content: "made by hx\n" });
    h.server.reply().tool("bash", { command: "echo changed > b.txt" });
    h.server.reply().text("done");
    const home = tempDir("hx-home-");
    const run = await h.agent("change things", [...BYPASS, "--output-format", "json"], {
      env: { HOME: home },
    });
    expect(run.code).toBe(0);
    const session = JSON.parse(run.stdout).session_id as string;
    expect(readFileSync(path.join(h.work, "b.txt"), "utf8")).toBe("changed\n");
    writeFileSync(path.join(h.work, "c.txt"), "changed by me\n"); // outside hx

    const listed = await runHx(["rewind", "--session", session, "--list", "-C", h.work], {
      env: { HOME: home },
    });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe("  1. change things  (2 calls that may change files from here on)\n");

    const rewound = await runHx(["rewind", "--session", session, "--to", "1", "-C", h.work], {
      env: { HOME: home },
    });

    expect(rewound.stderr).toBe("");
    expect(rewound.code).toBe(0);
    expect(existsSync(path.join(h.work, "a.txt"))).toBe(false);
    expect(readFileSync(path.join(h.work, "b.txt"), "utf8")).toBe("original\n");
    expect(readFileSync(path.join(h.work, "c.txt"), "utf8")).toBe("changed by me\n");
    expect(rewound.stdout).toContain("Files: put back as before turn 1: a.txt, b.txt.");
    expect(rewound.stdout).toContain("left as they are: c.txt.");
    expect(rewound.stdout).toContain(
      `Conversation: back to before turn 1 (continue it with hx --resume ${session}).`,
    );

    // Continuing the session sends only what came before turn 1: nothing but the new prompt.
    const before = h.server.requests.length;
    h.server.reply().text("fresh");
    const resumed = await h.agent("again", ["--resume", session], { env: { HOME: home } });
    expect(resumed.code).toBe(0);
    const sent = messagesOf(h.server.requests[before]).filter((m) => m.role !== "system");
    expect(sent.map((m) => [m.role, m.content])).toEqual([["user", "again"]]);
  });

  it("refuses a turn that does not exist and past the first; --files and --conversation exclude each other", async () => {
    h.server.reply().text("hi");
    const home = tempDir("hx-home-");
    const run = await h.agent("hello", ["--output-format", "json"], { env: { HOME: home } });
    const session = JSON.parse(run.stdout).session_id as string;
    const rewind = (...args: string[]) =>
      runHx(["rewind", "--session", session, ...args, "-C", h.work], { env: { HOME: home } });

    const missing = await rewind("--to", "4");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("hx: cannot rewind: turn 4 does not exist: this session has turn 1.\n");
    expect((await rewind("--to", "0")).stderr).toContain("turn 0 does not exist");
    expect((await rewind("--to", "1", "--files", "--conversation")).code).toBe(2);
    const none = await rewind("--to", "1", "--files");
    expect(none.code).toBe(0);
    expect(none.stdout).toBe("Files: nothing to put back (no call changed files from turn 1 on).\n");
    const unknown = await runHx(["rewind", "--session", "nope", "--list", "-C", h.work], {
      env: { HOME: home },
    });
    expect(unknown.code).toBe(1);
  });
});

describe("/rewind in the session", () => {
  it("goes back to before turn 2: edit_file's change undone, turn 1's kept, the conversation shortened", async () => {
    writeFileSync(path.join(h.work, "notes.txt"), "one\n");
    h.server.reply().tool("write_file", { path: "first.txt", content: "turn one\n" });
    h.server.reply().text("first done");
    h.server.reply().tool("edit_file", { path: "notes.txt", old_text: "one", new_text: "two" });
    h.server.reply().text("second done");
    h.server.reply().text("after rewind");
    const term = startInTerminal([...h.args(), ...BYPASS], {
      cwd: h.work,
      env: { OPENAI_API_KEY: "sk-test" },
    });
    try {
      await term.waitFor("hx >> ");
      term.type("make the first file\r");
      let at = await term.waitFor("first done");
      term.type("edit the notes\r");
      at = await term.waitFor("second done", { from: at });
      expect(readFileSync(path.join(h.work, "notes.txt"), "utf8")).toBe("two\n");
      term.type("/rewind\r");
      at = await term.waitFor("Go back with /rewind N", { from: at });
      expect(term.output()).toMatch(/1\. make the first file {2}\(2 calls/);
      expect(term.output()).toMatch(/2\. edit the notes {2}\(1 call that/);
      term.type("/rewind 2\r");
      at = await term.waitFor("Its prompt was:", { from: at });
      expect(readFileSync(path.join(h.work, "notes.txt"), "utf8")).toBe("one\n");
      expect(readFileSync(path.join(h.work, "first.txt"), "utf8")).toBe("turn one\n");
      term.type("what now?\r");
      await term.waitFor("after rewind", { from: at });
      const last = h.server.requests.at(-1);
      const users = messagesOf(last!)
        .filter((m) => m.role === "user")
        .map((m) => m.content);
      expect(users).toEqual(["make the first file", "what now?"]);
      term.type("/exit\r");
      expect(await term.exited()).toBe(0);
    } finally {
      term.kill();
    }
  });
});
