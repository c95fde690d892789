import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, statSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompactor } from "../../src/context/compactor.js";
import { pairingProblems } from "../../src/context/turns.js";
import type { Message } from "../../src/core/messages.js";
import { ScriptedProvider } from "../../src/providers/scripted.js";
import { projectKey, projectSessionsDir } from "../../src/transcript/paths.js";
import {
  INTERRUPTED_RESULT,
  parseTranscript,
  readTranscript,
  repairPairs,
} from "../../src/transcript/reader.js";
import {
  findSession,
  formatSessionList,
  latestSession,
  listSessions,
  resumeSession,
} from "../../src/transcript/sessions.js";
import { TranscriptWriter } from "../../src/transcript/writer.js";
import { sessionRunner, workTool } from "../context/support/context-harness.js";

let home: string;
let root: string;
let savedHome: string | undefined;
beforeEach(() => {
  savedHome = process.env.HOME;
  home = mkdtempSync(path.join(os.tmpdir(), "hx-home-"));
  root = mkdtempSync(path.join(os.tmpdir(), "hx-ws-"));
  process.env.HOME = home;
});
afterEach(() => {
  process.env.HOME = savedHome;
});

async function recordedSession(prompts: string[], id?: string) {
  const model = new ScriptedProvider([]);
  for (const _ of prompts) {
    model.push({ toolCalls: [{ name: "work", arguments: { chars: 50 } }] }, { text: "done" });
  }
  const writer = TranscriptWriter.create({ workspaceRoot: root, provider: "scripted", model: "m1", id });
  let history: Message[] = [];
  const session = sessionRunner({
    model,
    system: "sys",
    tools: [workTool],
    root,
    extensions: [],
    observers: [(event) => writer.observe(() => history)(event)],
  });
  history = session.messages;
  for (const prompt of prompts) await session.run(prompt);
  writer.close();
  return { writer, session };
}

describe("transcript files", () => {
  it("live under ~/.hx/sessions/<project-key>/<id>.jsonl with a filesystem-safe key", () => {
    expect(projectKey("/home/a/my proj")).toBe("home-a-my-proj");
    expect(projectKey(`/x/${"d".repeat(300)}`).length).toBeLessThanOrEqual(100);
    expect(projectKey(`/a/${"d".repeat(300)}`)).not.toBe(projectKey(`/b/${"d".repeat(300)}`));
    const writer = TranscriptWriter.create({ workspaceRoot: root, provider: "p", model: "m" });
    expect(writer.file.startsWith(path.join(home, ".hx", "sessions", projectKey(root)))).toBe(true);
    expect(writer.file.endsWith(`${writer.id}.jsonl`)).toBe(true);
  });

  it("round-trips a session recorded from loop events", async () => {
    const { writer, session } = await recordedSession(["first task", "second task"]);
    const transcript = readTranscript(writer.file);
    expect(transcript.messages).toEqual(session.messages);
    expect(transcript.header).toMatchObject({ id: writer.id, cwd: root, provider: "scripted", model: "m1" });
    expect(transcript.firstPrompt).toBe("first task");
    expect(transcript.usage.inputTokens).toBeGreaterThan(0);
    expect(transcript.truncatedTail).toBe(false);
    const lines = readFileSync(writer.file, "utf8").trim().split("\n");
    expect(lines.every((l) => typeof JSON.parse(l).at === "string")).toBe(true);
  });

  it("writes nothing for a session that never recorded a message", () => {
    const writer = TranscriptWriter.create({ workspaceRoot: root, provider: "p", model: "m" });
    writer.syncMessages([]);
    expect(listSessions(root)).toEqual([]);
    expect(() => statSync(writer.file)).toThrow();
  });

  it("tolerates a truncated last line", async () => {
    const { writer, session } = await recordedSession(["task"]);
    appendFileSync(writer.file, '{"type":"message","message":{"role":"user","content":"half a li');
    const transcript = readTranscript(writer.file);
    expect(transcript.truncatedTail).toBe(true);
    expect(transcript.warnings).toEqual([]);
    expect(transcript.messages).toEqual(session.messages);
  });

  it("gives a call without a result a synthetic 'interrupted' result, and drops orphan results", () => {
    const lines = [
      { type: "message", message: { role: "user", content: "go" } },
      { type: "message", message: { role: "tool", toolCallId: "ghost", toolName: "t", content: "orphan" } },
      {
        type: "message",
        message: {
          role: "assistant",
          content: "",
          toolCalls: [
            { id: "a", name: "t", arguments: "{}" },
            { id: "b", name: "t", arguments: "{}" },
          ],
        },
      },
      { type: "message", message: { role: "tool", toolCallId: "a", toolName: "t", content: "ok" } },
    ];
    const transcript = parseTranscript(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    expect(transcript.repaired).toBe(2);
    expect(transcript.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool"]);
    expect(transcript.messages[3]).toMatchObject({
      toolCallId: "b",
      content: INTERRUPTED_RESULT,
      isError: true,
    });
  });

  it("replays a compaction: the history after it is what it recorded", async () => {
    const model = new ScriptedProvider([{ text: "summary of the start" }]);
    const writer = TranscriptWriter.create({ workspaceRoot: root, provider: "p", model: "m" });
    const messages: Message[] = [{ role: "user", content: "one" }];
    for (let i = 0; i < 6; i++) {
      messages.push({
        role: "assistant",
        content: "",
        toolCalls: [{ id: `c${i}`, name: "t", arguments: "{}" }],
      });
      messages.push({ role: "tool", toolCallId: `c${i}`, toolName: "t", content: "r".repeat(4_000) });
    }
    const compactor = new ContextCompactor({
      provider: model,
      window: 4_000,
      system: "sys",
      toolSchemas: [],
      beforeDrop: (m) => writer.syncMessages(m),
      onCompacted: (r) => writer.recordCompaction(r),
    });
    await compactor.compactNow(messages);
    messages.push({ role: "user", content: "after" });
    writer.syncMessages(messages);
    const transcript = readTranscript(writer.file);
    expect(transcript.compactions).toBe(1);
    expect(transcript.messageEvents).toBe(14);
    expect(transcript.messages).toEqual(messages);
  });
});

describe("listing, latest and resume", () => {
  it("lists sessions newest first, finds the latest and resolves ids by prefix", async () => {
    const a = await recordedSession(["alpha task"], "20260101-000000-aaaaaa");
    const b = await recordedSession(["beta task"], "20260102-000000-bbbbbb");
    const c = await recordedSession(["gamma task"], "20260102-000000-bbcccc");
    const t = Date.now() / 1000;
    utimesSync(a.writer.file, t - 300, t - 300);
    utimesSync(b.writer.file, t - 100, t - 100);
    utimesSync(c.writer.file, t - 200, t - 200);
    const list = listSessions(root);
    expect(list.map((s) => s.id)).toEqual([b.writer.id, c.writer.id, a.writer.id]);
    expect(list[0]).toMatchObject({ firstPrompt: "beta task", messageCount: 4, model: "m1" });
    expect(latestSession(root)?.id).toBe(b.writer.id);
    expect(findSession(root, "20260101")).toMatchObject({ kind: "found", session: { id: a.writer.id } });
    expect(findSession(root, "20260102-000000-bb").kind).toBe("ambiguous");
    expect(findSession(root, "nope").kind).toBe("none");
    expect(formatSessionList(list)).toContain("beta task");
    expect(listSessions(mkdtempSync(path.join(os.tmpdir(), "hx-other-")))).toEqual([]);
  });

  it("resumes a session and keeps appending to the same file", async () => {
    const { writer, session } = await recordedSession(["first"]);
    const info = latestSession(root)!;
    const resumed = resumeSession(info);
    expect(resumed.messages).toEqual(session.messages);
    const history = [...resumed.messages, { role: "user", content: "more" } as Message];
    resumed.writer.syncMessages(history);
    resumed.writer.close();
    expect(readTranscript(writer.file).messages).toEqual(history);
    expect(listSessions(root)).toHaveLength(1);
  });
});

describe("kill -9 mid-session", () => {
  it("leaves a file that reads back as a consistent history", async () => {
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "support", "crash-writer.ts");
    const child = spawn(process.execPath, ["--import", "tsx", script, root], {
      env: { ...process.env, HOME: home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const file = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (d) => resolve(String(d).trim()));
      child.once("exit", () => reject(new Error(`child exited early: ${stderr}`)));
    });
    // Let it write for a while, then kill it without warning.
    await new Promise((r) => setTimeout(r, 300));
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;

    expect(file).toBe(path.join(projectSessionsDir(root), "crash.jsonl"));
    const transcript = readTranscript(file);
    expect(transcript.warnings).toEqual([]);
    expect(transcript.messages.length).toBeGreaterThan(10);
    expect(pairingProblems(transcript.messages)).toEqual([]);
    expect(repairPairs(transcript.messages).changes).toBe(0);
    // The file can be resumed and appended to.
    const resumed = resumeSession(latestSession(root)!);
    resumed.writer.syncMessages([...resumed.messages, { role: "user", content: "continue" }]);
    resumed.writer.close();
    expect(readTranscript(file).messages.at(-1)).toEqual({ role: "user", content: "continue" });
  }, 20_000);
});

describe("a rewritten history without a compaction record", () => {
  it("is recorded whole", () => {
    const writer = TranscriptWriter.create({ workspaceRoot: root, provider: "p", model: "m" });
    const messages: Message[] = [
      { role: "user", content: "a" },
      { role: "assistant", content: "b", toolCalls: [] },
    ];
    writer.syncMessages(messages);
    messages.splice(0, 1);
    writer.syncMessages(messages);
    expect(readTranscript(writer.file).messages).toEqual(messages);
  });

  it("is recorded whole when replaced by one as long or longer (/resume loading another session)", () => {
    const writer = TranscriptWriter.create({ workspaceRoot: root, provider: "p", model: "m" });
    const messages: Message[] = [
      { role: "user", content: "mine" },
      { role: "assistant", content: "my answer", toolCalls: [] },
    ];
    writer.syncMessages(messages);
    const other: Message[] = [
      { role: "user", content: "theirs" },
      { role: "assistant", content: "their answer", toolCalls: [] },
      { role: "user", content: "and more" },
    ];
    messages.splice(0, messages.length, ...other);
    writer.syncMessages(messages);
    messages.push({ role: "assistant", content: "next", toolCalls: [] });
    writer.syncMessages(messages);
    expect(readTranscript(writer.file).messages).toEqual(messages);
  });
});

describe("appending after a crash mid-write", () => {
  it("finishes the cut line first, so the next event is not glued onto it", async () => {
    const { writer, session } = await recordedSession(["task"]);
    appendFileSync(writer.file, '{"type":"message","message":{"role":"user","content":"half a li');
    const reopened = TranscriptWriter.reopen(writer.file, readTranscript(writer.file).messages, {
      repaired: true,
    });
    const more: Message[] = [...session.messages, { role: "user", content: "after the crash" }];
    reopened.syncMessages(more);
    const transcript = readTranscript(writer.file);
    expect(transcript.messages).toEqual(more);
    expect(transcript.truncatedTail).toBe(false);
    expect(transcript.warnings).toHaveLength(1);
    expect(readFileSync(writer.file, "utf8")).toMatch(/"half a li\n\{"type":"resume"/);
  });
});
