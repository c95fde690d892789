// Sessions are never lost or mixed: damaged lines are skipped with a warning and every valid
// one kept, a damaged compaction or history line never breaks a resume, folders are unique
// per project path (older folders still found), and one process writes a session at a time.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/core/messages.js";
import { lockFileFor, SessionLock } from "../../src/transcript/lock.js";
import { legacyProjectSessionsDir, projectSessionsDir } from "../../src/transcript/paths.js";
import { INTERRUPTED_RESULT, parseTranscript } from "../../src/transcript/reader.js";
import { latestSession, listSessions, resumeSession } from "../../src/transcript/sessions.js";
import { tempDir } from "../support/temp-dir.js";

let home: string;
let savedHome: string | undefined;
beforeEach(() => {
  savedHome = process.env.HOME;
  home = tempDir("hx-home-");
  process.env.HOME = home;
});
afterEach(() => {
  process.env.HOME = savedHome;
});

const RESUME = { provider: "scripted", model: "scripted" };
const user = (content: string): Message => ({ role: "user", content });
const answer = (content: string): Message => ({ role: "assistant", content, toolCalls: [] });
const line = (value: unknown) => `${JSON.stringify({ at: "2026-01-01T00:00:00Z", ...(value as object) })}\n`;
const header = (cwd: string, id = "s1") =>
  line({ type: "session", version: 2, id, cwd, provider: "p", model: "m" });

function writeSession(dir: string, id: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${id}.jsonl`);
  writeFileSync(file, text);
  return file;
}

describe("reading a damaged transcript", () => {
  it("skips each malformed line with a warning naming it, and keeps every valid one", () => {
    const text =
      header("/w") +
      line({ type: "message", message: user("one") }) +
      '{"type":"message","message":{"role":"assistant","content":"cut in the midd\n' +
      line({ type: "message", message: answer("two") }) +
      line({ type: "message", message: { role: "user" } }) +
      line({ type: "history", messages: [null] }) +
      line({ type: "compaction", summary: "s", messages: [{ role: "user", content: 5 }] }) +
      line({ type: "usage", usage: { inputTokens: "many", outputTokens: 3 } }) + // a bad count reads as 0
      "[1,2]\n" +
      line({ type: "message", message: user("three") });
    const transcript = parseTranscript(text);
    expect(transcript.messages.map((m) => m.content)).toEqual(["one", "two", "three"]);
    expect(transcript.compactions).toBe(0);
    expect(transcript.usage).toMatchObject({ inputTokens: 0, outputTokens: 3 });
    expect(transcript.warnings).toEqual([
      "line 3: not valid JSON; skipped",
      expect.stringMatching(/^line 5: not a transcript event \(.* at message\.content\); skipped$/),
      expect.stringMatching(/^line 6: not a transcript event \(.* at messages\.0\); skipped$/),
      expect.stringMatching(/^line 7: not a transcript event \(.* at messages\.0\.content\); skipped$/),
      expect.stringMatching(/^line 9: not a transcript event .*; skipped$/),
    ]);
  });

  it("a damaged compaction line keeps the history before it, so --continue still works", () => {
    const text =
      header("/w") +
      line({ type: "message", message: user("before") }) +
      line({ type: "message", message: answer("reply") }) +
      line({ type: "compaction", trigger: "auto", summary: 7, messages: "not a list" }) +
      line({ type: "message", message: user("after") });
    const transcript = parseTranscript(text);
    expect(transcript.messages.map((m) => m.content)).toEqual(["before", "reply", "after"]);
    expect(transcript.warnings).toHaveLength(1);
  });

  it("says when tool results were left out because their call's line was damaged", () => {
    const call = { id: "c1", name: "bash", arguments: "{}" };
    const text =
      header("/w") +
      line({ type: "message", message: user("go") }) +
      line({ type: "message", message: { role: "assistant", content: "", toolCalls: [call] } }).slice(0, 30) +
      "\n" +
      line({
        type: "message",
        message: { role: "tool", toolCallId: "c1", toolName: "bash", content: "ok" },
      }) +
      line({ type: "message", message: answer("done") });
    const transcript = parseTranscript(text);
    expect(transcript.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(transcript.warnings).toEqual([
      "line 3: not valid JSON; skipped",
      "1 tool result whose call was lost (a damaged line) left out of the history",
    ]);
  });
});

describe("session folders", () => {
  it("/x/a-b and /x/a/b get different folders; a session in the old shared folder is found only by its own project", () => {
    expect(projectSessionsDir("/x/a-b")).not.toBe(projectSessionsDir("/x/a/b"));
    expect(legacyProjectSessionsDir("/x/a-b")).toBe(legacyProjectSessionsDir("/x/a/b"));
    const legacy = legacyProjectSessionsDir("/x/a-b");
    writeSession(
      legacy,
      "old-ab",
      header("/x/a-b", "old-ab") + line({ type: "message", message: user("in a-b") }),
    );
    writeSession(
      legacy,
      "old-a-slash-b",
      header("/x/a/b", "old-a-slash-b") + line({ type: "message", message: user("in a/b") }),
    );
    writeSession(
      projectSessionsDir("/x/a-b"),
      "new-ab",
      header("/x/a-b", "new-ab") + line({ type: "message", message: user("new") }),
    );
    expect(
      listSessions("/x/a-b")
        .map((s) => s.id)
        .sort(),
    ).toEqual(["new-ab", "old-ab"]);
    expect(listSessions("/x/a/b").map((s) => s.id)).toEqual(["old-a-slash-b"]);
  });

  it("a session with damaged lines is still listed and found by --continue", () => {
    const root = "/x/proj";
    writeSession(
      projectSessionsDir(root),
      "damaged",
      header(root, "damaged") +
        "garbage\n" +
        line({ type: "history", reason: "repair", messages: [7] }) +
        line({ type: "message", message: user("kept") }),
    );
    expect(latestSession(root)).toMatchObject({ id: "damaged", firstPrompt: "kept", messageCount: 1 });
  });
});

describe("one writer per session", () => {
  it("a second resume of a live session forks a new session with the same history", () => {
    const root = tempDir("hx-ws-");
    const file = writeSession(
      projectSessionsDir(root),
      "live",
      header(root, "live") +
        line({ type: "message", message: user("hello") }) +
        line({ type: "message", message: answer("hi") }),
    );
    const first = resumeSession(latestSession(root)!, RESUME);
    expect(first.forkedFrom).toBeUndefined();
    expect(JSON.parse(readFileSync(lockFileFor(file), "utf8"))).toMatchObject({ pid: process.pid });
    // Another process's live lock, as a second hx would see it: take it over by a child that stays alive.
    first.lock?.release();
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      writeFileSync(lockFileFor(file), JSON.stringify({ pid: child.pid, host: os.hostname(), since: "x" }));
      const second = resumeSession(latestSession(root)!, RESUME);
      expect(second.forkedFrom).toMatchObject({ info: { id: "live" }, owner: { pid: child.pid } });
      expect(second.info.id).not.toBe("live");
      expect(second.messages.map((m) => m.content)).toEqual(["hello", "hi"]);
      const fork = parseTranscript(readFileSync(second.writer.file, "utf8"));
      expect(fork.messages.map((m) => m.content)).toEqual(["hello", "hi"]);
      expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toHaveLength(3 + 1); // + first's resume line
      second.lock?.release();
      second.writer.close();
    } finally {
      child.kill();
      first.writer.close();
    }
  });

  it("a lock left by a killed process is taken over, and the interrupted call is marked", () => {
    const root = tempDir("hx-ws-");
    const call = { id: "c1", name: "bash", arguments: '{"command":"make"}' };
    const file = writeSession(
      projectSessionsDir(root),
      "crashed",
      header(root, "crashed") +
        line({ type: "message", message: user("build") }) +
        line({ type: "message", message: { role: "assistant", content: "", toolCalls: [call] } }),
    );
    writeFileSync(lockFileFor(file), JSON.stringify({ pid: 2 ** 22 + 7, host: os.hostname(), since: "x" }));
    const resumed = resumeSession(latestSession(root)!, RESUME);
    expect(resumed.forkedFrom).toBeUndefined();
    expect(resumed.messages.at(-1)).toMatchObject({
      role: "tool",
      toolCallId: "c1",
      content: INTERRUPTED_RESULT,
    });
    expect(JSON.parse(readFileSync(lockFileFor(file), "utf8")).pid).toBe(process.pid);
    resumed.lock?.release();
    resumed.writer.close();
    expect(() => readFileSync(lockFileFor(file))).toThrow(/ENOENT/);
  });

  it("a lock is released only by its owner", () => {
    const file = path.join(home, "s.jsonl");
    const attempt = SessionLock.acquire(file);
    if (attempt.kind !== "locked") throw new Error("expected the lock");
    expect(SessionLock.acquire(file)).toMatchObject({ kind: "busy", owner: { pid: process.pid } });
    attempt.lock.release();
    expect(SessionLock.acquire(file).kind).toBe("locked");
  });
});
