// biome-ignore-all lint/suspicious/noExplicitAny: tests read arbitrary frame fields.
// `hx acp` end to end: the built binary driven by the ACP SDK's client, against the fake model
// server. Every frame hx writes is checked against the SDK's zod schemas (test/support/acp-client.ts).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type ClientCapabilities, methods, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AcpHarness, agentText, startAcp } from "../support/acp-client.js";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { REPO_ROOT } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

let server: FakeModelServer;
let work: string;
let home: string;
let acp: AcpHarness | undefined;

beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-acp-");
  home = tempDir("hx-acp-home-");
});
afterEach(async () => {
  await acp?.close();
  acp = undefined;
  await server.close();
});

const args = () => ["--provider", "openai", "--base-url", `${server.url}/v1`, "--model", "test-model"];
const env = () => ({ OPENAI_API_KEY: "sk-test", HOME: home });

async function start(extra: string[] = [], clientCapabilities: ClientCapabilities = {}): Promise<AcpHarness> {
  acp = await startAcp([...args(), ...extra], env());
  const init = await acp.connection.agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities,
  });
  expect(init.protocolVersion).toBe(1);
  return acp;
}

async function newSession(harness: AcpHarness): Promise<string> {
  const created = await harness.connection.agent.request(methods.agent.session.new, {
    cwd: work,
    mcpServers: [],
  });
  return created.sessionId;
}

const prompt = (harness: AcpHarness, sessionId: string, text: string) =>
  harness.connection.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text }],
  });

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

describe("hx acp", () => {
  it("initializes with honest capabilities, opens a session and streams an answer", async () => {
    const harness = await start();
    const init = harness.frames[0] as { result: Record<string, any> };
    expect(init.result.agentCapabilities).toMatchObject({
      loadSession: true,
      mcpCapabilities: { http: true },
    });
    expect(init.result.authMethods[0].id).toBe("environment-key");
    const created = await harness.connection.agent.request(methods.agent.session.new, {
      cwd: work,
      mcpServers: [],
    });
    expect(created.modes?.currentModeId).toBe("default");
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual([
      "default",
      "acceptEdits",
      "plan",
      "bypassPermissions",
    ]);
    server.reply().reasoning("thinking it over").text("Hello from hx", { chunks: 3 });
    const answer = await prompt(harness, created.sessionId, "hi");
    expect(answer.stopReason).toBe("end_turn");
    expect(agentText(harness.updates, created.sessionId)).toBe("Hello from hx");
    const kinds = harness.updates.map((n) => n.update.sessionUpdate);
    expect(kinds).toContain("agent_thought_chunk");
    expect(kinds).toContain("available_commands_update");
    const commands = harness.updates.find((n) => n.update.sessionUpdate === "available_commands_update")!
      .update as { availableCommands: Array<{ name: string }> };
    expect(commands.availableCommands.map((c) => c.name)).toContain("resume");
    expect(server.requests[0]!.body.messages.at(-1)).toMatchObject({ role: "user", content: "hi" });
    expect(harness.invalid).toEqual([]);
  });

  it("asks the editor before a command: one allowed runs, one rejected does not", async () => {
    const harness = await start();
    const sessionId = await newSession(harness);
    server.reply().tool("bash", { command: "echo yes > allowed.txt" }, { id: "call_allow" });
    server.reply().text("ran it");
    harness.answer(() => ({ outcome: { outcome: "selected", optionId: "allow_once" } }));
    expect((await prompt(harness, sessionId, "run it")).stopReason).toBe("end_turn");
    expect(readFileSync(path.join(work, "allowed.txt"), "utf8")).toBe("yes\n");
    expect(harness.questions[0]).toMatchObject({ sessionId, toolCall: { toolCallId: "call_allow" } });
    expect(harness.questions[0]!.options.map((o) => o.kind)).toContain("reject_once");

    server.reply().tool("write_file", { path: "rejected.txt", content: "no" }, { id: "call_reject" });
    server.reply().text("was refused");
    harness.answer(() => ({ outcome: { outcome: "selected", optionId: "reject_once" } }));
    expect((await prompt(harness, sessionId, "write it")).stopReason).toBe("end_turn");
    expect(existsSync(path.join(work, "rejected.txt"))).toBe(false);
    const updates = harness.updates.map((n) => n.update as Record<string, any>);
    const call = updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "call_reject")!;
    expect(call).toMatchObject({ kind: "edit", locations: [{ path: path.join(work, "rejected.txt") }] });
    expect(call.content[0]).toMatchObject({ type: "diff", newText: "no" });
    const done = updates.find(
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_reject",
    );
    expect(done?.status).toBe("failed");
    const ran = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_allow");
    expect(ran).toMatchObject({ status: "completed" });
    expect(harness.invalid).toEqual([]);
  });

  it("session/cancel ends a long command's process group and the prompt says cancelled", async () => {
    const harness = await start(["--sandbox", "off"]);
    const sessionId = await newSession(harness);
    await harness.connection.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    const marker = path.join(work, "pid");
    server.reply().tool("bash", { command: `echo $$ > ${marker}; sleep 30; echo late > late.txt` });
    const running = prompt(harness, sessionId, "wait");
    await until(
      () => existsSync(marker) && readFileSync(marker, "utf8").trim() !== "",
      "the command to start",
    );
    const pid = Number(readFileSync(marker, "utf8").trim());
    await harness.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await running).stopReason).toBe("cancelled");
    await until(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, "the command's shell to end");
    expect(existsSync(path.join(work, "late.txt"))).toBe(false);
    expect(harness.questions).toHaveLength(0);
    expect(harness.invalid).toEqual([]);
  });

  it("sends the todo list as a plan", async () => {
    const harness = await start();
    const sessionId = await newSession(harness);
    server.reply().tool("todo_write", {
      todos: [
        { content: "read the code", status: "completed" },
        { content: "fix the bug", status: "in_progress" },
      ],
    });
    server.reply().text("planned");
    await prompt(harness, sessionId, "plan it");
    const plan = harness.updates.find((n) => n.update.sessionUpdate === "plan")!.update as {
      entries: Array<{ content: string; status: string }>;
    };
    expect(plan.entries.map((e) => [e.content, e.status])).toEqual([
      ["read the code", "completed"],
      ["fix the bug", "in_progress"],
    ]);
    expect(harness.invalid).toEqual([]);
  });

  it("lists saved sessions, loads one, replays its history and continues it", async () => {
    let harness = await start();
    const sessionId = await newSession(harness);
    server.reply().text("The answer is 42.");
    await prompt(harness, sessionId, "first question");
    await harness.close();

    harness = await start();
    await harness.connection.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: work,
      mcpServers: [],
    });
    const replayed = harness.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update as any);
    expect(replayed[0]).toMatchObject({
      sessionUpdate: "user_message_chunk",
      content: { text: "first question" },
    });
    expect(
      replayed.some(
        (u) => u.sessionUpdate === "agent_message_chunk" && u.content.text === "The answer is 42.",
      ),
    ).toBe(true);
    server.reply().text("still 42");
    expect((await prompt(harness, sessionId, "and again?")).stopReason).toBe("end_turn");
    const sent = server.requests.at(-1)!.body.messages.map((m: { content: string }) => m.content);
    expect(sent).toEqual(expect.arrayContaining(["first question", "The answer is 42.", "and again?"]));
    expect(harness.invalid).toEqual([]);
  });

  it("starts the editor's MCP servers through hx's MCP client; an 'always' answer is kept", async () => {
    const harness = await start();
    const fixture = path.join(REPO_ROOT, "test/fixtures/mcp/fixture-server.mjs");
    const created = await harness.connection.agent.request(methods.agent.session.new, {
      cwd: work,
      mcpServers: [{ name: "fx", command: process.execPath, args: [fixture], env: [] }],
    });
    harness.answer((q) => ({
      outcome: {
        outcome: "selected",
        optionId: q.options.some((o) => o.kind === "allow_always") ? "allow_always" : "allow_once",
      },
    }));
    server.reply().tool("bash", { command: "touch one.txt" });
    server.reply().tool("bash", { command: "touch one.txt" });
    server.reply().tool("mcp__fx__echo", { text: "from the editor's server" });
    server.reply().text("done");
    expect((await prompt(harness, created.sessionId, "go")).stopReason).toBe("end_turn");
    // One question for the two identical commands: "always" saved the rule.
    const bashQuestions = harness.questions.filter((q) => q.toolCall.title?.startsWith("bash"));
    expect(bashQuestions).toHaveLength(1);
    expect(bashQuestions[0]!.options.map((o) => o.kind)).toEqual([
      "allow_once",
      "allow_always",
      "reject_once",
    ]);
    const echoed = server.requests.at(-1)!.body.messages.at(-1);
    expect(echoed).toMatchObject({ role: "tool" });
    expect(echoed.content).toContain("from the editor's server");
    expect(harness.invalid).toEqual([]);
  });

  it("authenticate checks the provider's key; an answer cut at the output limit is max_tokens", async () => {
    const harness = await start();
    await expect(
      harness.connection.agent.request(methods.agent.authenticate, { methodId: "environment-key" }),
    ).resolves.toBeDefined();
    const sessionId = await newSession(harness);
    server.reply().text("cut sho").stop("length");
    expect((await prompt(harness, sessionId, "long")).stopReason).toBe("max_tokens");
    await harness.close();

    acp = await startAcp(["--provider", "anthropic"], { HOME: home });
    await acp.connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    });
    await expect(
      acp.connection.agent.request(methods.agent.authenticate, { methodId: "environment-key" }),
    ).rejects.toThrow(/ANTHROPIC_API_KEY/);
    expect(acp.invalid).toEqual([]);
  });

  it("writes files through the editor when it offers fs/write_text_file", async () => {
    const harness = await start([], { fs: { readTextFile: false, writeTextFile: true } });
    const sessionId = await newSession(harness);
    await harness.connection.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "acceptEdits",
    });
    writeFileSync(path.join(work, "old.txt"), "one\ntwo\n");
    server.reply().tool("write_file", { path: "sub/new.txt", content: "fresh" });
    server.reply().tool("edit_file", { path: "old.txt", old_text: "two", new_text: "2" });
    server.reply().text("edited");
    expect((await prompt(harness, sessionId, "edit")).stopReason).toBe("end_turn");
    expect(harness.editorWrites).toEqual([
      { path: path.join(work, "sub", "new.txt"), content: "fresh" },
      { path: path.join(work, "old.txt"), content: "one\n2\n" },
    ]);
    // The editor owns the writes: hx did not touch the disk itself.
    expect(existsSync(path.join(work, "sub", "new.txt"))).toBe(false);
    expect(readFileSync(path.join(work, "old.txt"), "utf8")).toBe("one\ntwo\n");
    expect(harness.invalid).toEqual([]);
  });

  it("shows a subagent's tool calls, titled with its label", async () => {
    const harness = await start();
    const sessionId = await newSession(harness);
    server
      .reply()
      .tool("task", { description: "look around", prompt: "list the files", agent_type: "explore" });
    server.reply().tool("glob", { pattern: "*" }, { id: "call_inner" });
    server.reply().text("nothing there");
    server.reply().text("The helper found nothing.");
    expect((await prompt(harness, sessionId, "delegate")).stopReason).toBe("end_turn");
    const updates = harness.updates.map((n) => n.update as any);
    const inner = updates.find(
      (u) => u.sessionUpdate === "tool_call" && u.toolCallId.endsWith("/call_inner"),
    );
    expect(inner).toMatchObject({ kind: "read" });
    expect(inner.title).toMatch(/^look around: glob/);
    const done = updates.find(
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === inner.toolCallId,
    );
    expect(done?.status).toBe("completed");
    expect(agentText(harness.updates, sessionId)).toBe("The helper found nothing.");
    expect(harness.invalid).toEqual([]);
  });

  it("a model error ends the prompt with a JSON-RPC error naming the cause", async () => {
    const harness = await start();
    const sessionId = await newSession(harness);
    server.httpError(401, { error: { message: "invalid key", type: "invalid_request_error" } });
    await expect(prompt(harness, sessionId, "hi")).rejects.toThrow(/401|key|rejected/i);
    server.reply().text("fine again");
    expect((await prompt(harness, sessionId, "again")).stopReason).toBe("end_turn");
    expect(harness.invalid).toEqual([]);
  });

  it("writes nothing but JSON-RPC to stdout", async () => {
    const harness = await start();
    const sessionId = await newSession(harness);
    server.reply().text("ok");
    await prompt(harness, sessionId, "hi");
    expect(harness.frames.length).toBeGreaterThan(3);
    expect(harness.invalid).toEqual([]);
  });
});
