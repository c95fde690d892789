import { spawn } from "node:child_process";
import { appendFileSync, readFileSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompactor } from "../../src/context/compactor.js";
import { pairingProblems } from "../../src/context/turns.js";
import { Conversation } from "../../src/core/conversation.js";
import type { Message } from "../../src/core/messages.js";
import { ScriptedProvider } from "../../src/providers/scripted.js";
import type { TranscriptLine } from "../../src/transcript/events.js";
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
import { tempDir } from "../support/temp-dir.js";

let home: string;
let root: string;
let savedHome: string | undefined;
beforeEach(() => {
  savedHome = process.env.HOME;
  home = tempDir("hx-home-");
  root = tempDir("hx-ws-");
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
  const session = sessionRunner({
    model,
    system: "sys",
    tools: [workTool],
    root,
    extensions: [],
    observers: [writer.usageRecorder()],
  });
  writer.follow(session.conversation);
  for (const prompt of prompts) await session.run(prompt);
  writer.close();
  return { writer, session };
}

/**
 * A recorded conversation of a prompt and six turns with 4,000-character results, and a
 * compactor with a 4,000-token window that will summarise it.
 */
function recordedForCompaction(model: ScriptedProvider) {
  const writer = TranscriptWriter.create({ workspaceRoot: root, provider: "p", model: "m" });
  const conversation = new Conversation();
  writer.follow(conversation);
  conversation.append({ role: "user", content: "one" });
  for (let i = 0; i < 6; i++) {
    conversation.append({
      role: "assistant",
      content: "",
      toolCalls: [{ id: `c${i}`, name: "t", arguments: "{}" }],
    });
    conversation.append({ role: "tool", toolCallId: `c${i}`, toolName: "t", content: "r".repeat(4_000) });
  }
  const compactor = new ContextCompactor({ provider: model, window: 4_000, system: "sys", toolSchemas: [] });
  return { writer, conversation, compactor };
}

/** Every readable line of a transcript file, parsed (a line cut by a crash is left out). */
function transcriptEvents(file: string): TranscriptLine[] {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as TranscriptLine];
      } catch {
        return [];
      }
    });
}

const RESUME = { provider: "scripted", model: "scripted" };

describe("transcript files", () => {
  it("live under ~/.hx/sessions/<project-key>/<id>.jsonl with a filesystem-safe key", () => {
    expect(projectKey("/home/a/my proj")).toMatch(/^home-a-my-proj-[0-9a-f]{8}$/);
    expect(projectKey("/x/a-b")).not.toBe(projectKey("/x/a/b"));
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
    writer.follow(new Conversation());
    writer.close();
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
    const { writer, conversation, compactor } = recordedForCompaction(model);
    const record = await compactor.compactNow(conversation);
    conversation.append({ role: "user", content: "after" });
    const events = transcriptEvents(writer.file);
    // One event per change: 13 appends, the compaction, one more append.
    expect(events.map((e) => e.type)).toEqual([
      "session",
      ...Array(13).fill("message"),
      "compaction",
      "message",
    ]);
    expect(events[14]).toMatchObject({ type: "compaction", droppedMessages: record!.droppedMessages });
    const transcript = readTranscript(writer.file);
    expect(transcript.compactions).toBe(1);
    expect(transcript.messageEvents).toBe(14);
    expect(transcript.messages).toEqual(conversation.messages);
  });

  it("keeps each message's meta, so a resumed session still knows what its messages carry", () => {
    const writer = TranscriptWriter.create({ workspaceRoot: root, provider: "p", model: "m" });
    const conversation = new Conversation();
    writer.follow(conversation);
    conversation.append({ role: "user", content: "go" });
    conversation.append({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "load_skill", arguments: "{}" }],
    });
    conversation.append({
      role: "tool",
      toolCallId: "c1",
      toolName: "load_skill",
      content: "body",
      meta: { skill: "deploy" },
    });
    conversation.append({ role: "user", content: "<reminder>x</reminder>", meta: { kind: "reminder" } });
    const transcript = readTranscript(writer.file);
    expect(transcript.messages[2].role === "tool" && transcript.messages[2].meta).toEqual({
      skill: "deploy",
    });
    expect(transcript.messages[3].role === "user" && transcript.messages[3].meta).toEqual({
      kind: "reminder",
    });
    expect(transcriptEvents(writer.file)[0]).toMatchObject({ type: "session", version: 2 });
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
    expect(listSessions(tempDir("hx-other-"))).toEqual([]);
  });

  it("resumes a session and keeps appending to the same file", async () => {
    const { writer, session } = await recordedSession(["first"]);
    const info = latestSession(root)!;
    const resumed = resumeSession(info, RESUME);
    expect(resumed.messages).toEqual(session.messages);
    const conversation = new Conversation(resumed.messages);
    resumed.writer.follow(conversation);
    conversation.append({ role: "user", content: "more" });
    resumed.writer.close();
    expect(readTranscript(writer.file).messages).toEqual(conversation.messages);
    expect(listSessions(root)).toHaveLength(1);
    // Resuming writes a `resume` line, not the history again.
    expect(
      transcriptEvents(writer.file)
        .slice(-2)
        .map((e) => e.type),
    ).toEqual(["resume", "message"]);
  });

  it("resumes after a compaction from the compacted history, then appends to it", async () => {
    const model = new ScriptedProvider([{ text: "summary" }]);
    const { writer, conversation, compactor } = recordedForCompaction(model);
    await compactor.compactNow(conversation);
    writer.close();
    const resumed = resumeSession(latestSession(root)!, RESUME);
    expect(resumed.messages).toEqual(conversation.messages);
    const again = new Conversation(resumed.messages);
    resumed.writer.follow(again);
    again.append({ role: "user", content: "next" });
    resumed.writer.close();
    expect(readTranscript(writer.file).messages).toEqual([
      ...conversation.messages,
      { role: "user", content: "next" },
    ]);
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
    const resumed = resumeSession(latestSession(root)!, RESUME);
    const conversation = new Conversation(resumed.messages);
    resumed.writer.follow(conversation);
    conversation.append({ role: "user", content: "continue" });
    resumed.writer.close();
    expect(readTranscript(file).messages.at(-1)).toEqual({ role: "user", content: "continue" });
  }, 20_000);
});

describe("a replaced history", () => {
  it("is one history line with its reason (shortening)", () => {
    const writer = TranscriptWriter.create({ workspaceRoot: root, provider: "p", model: "m" });
    const conversation = new Conversation();
    writer.follow(conversation);
    conversation.append({ role: "user", content: "a" });
    conversation.append({ role: "assistant", content: "b", toolCalls: [] });
    conversation.replace([{ role: "user", content: "a, shorter" }], "shorten");
    const events = transcriptEvents(writer.file);
    expect(events.map((e) => e.type)).toEqual(["session", "message", "message", "history"]);
    expect(events[3]).toMatchObject({ reason: "shorten" });
    expect(readTranscript(writer.file).messages).toEqual(conversation.messages);
  });

  it("/resume loading another session: the new history, then appends to it", () => {
    const writer = TranscriptWriter.create({ workspaceRoot: root, provider: "p", model: "m" });
    const conversation = new Conversation();
    writer.follow(conversation);
    conversation.append({ role: "user", content: "mine" });
    conversation.append({ role: "assistant", content: "my answer", toolCalls: [] });
    conversation.replace(
      [
        { role: "user", content: "theirs" },
        { role: "assistant", content: "their answer", toolCalls: [] },
        { role: "user", content: "and more" },
      ],
      "resume",
    );
    conversation.append({ role: "assistant", content: "next", toolCalls: [] });
    expect(transcriptEvents(writer.file).map((e) => [e.type, "reason" in e ? e.reason : ""])).toEqual([
      ["session", ""],
      ["message", ""],
      ["message", ""],
      ["history", "resume"],
      ["message", ""],
    ]);
    expect(readTranscript(writer.file).messages).toEqual(conversation.messages);
  });
});

describe("appending after a crash mid-write", () => {
  it("finishes the cut line first, so the next event is not glued onto it", async () => {
    const { writer, session } = await recordedSession(["task"]);
    appendFileSync(writer.file, '{"type":"message","message":{"role":"user","content":"half a li');
    const reopened = TranscriptWriter.reopen(writer.file, readTranscript(writer.file).messages, {
      repaired: true,
    });
    const conversation = new Conversation(session.messages);
    reopened.follow(conversation);
    conversation.append({ role: "user", content: "after the crash" });
    const more: Message[] = [...session.messages, { role: "user", content: "after the crash" }];
    const transcript = readTranscript(writer.file);
    expect(transcript.messages).toEqual(more);
    expect(transcriptEvents(writer.file).at(-2)).toMatchObject({ type: "history", reason: "repair" });
    expect(transcript.truncatedTail).toBe(false);
    expect(transcript.warnings).toHaveLength(1);
    expect(readFileSync(writer.file, "utf8")).toMatch(/"half a li\n\{"type":"resume"/);
  });
});
