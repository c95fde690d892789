import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Capability, SessionBasics } from "../../src/agent/capability.js";
import type { LoopExtension } from "../../src/agent/extension.js";
import type { AgentEvent } from "../../src/core/events.js";
import { ScriptedProvider, type ScriptedReply } from "../../src/providers/scripted.js";
import { createSession, type SessionEnvironment } from "../../src/session/create-session.js";
import { defineTool } from "../../src/tools/tool.js";
import { latestSession, resumeSession } from "../../src/transcript/sessions.js";
import { tempDir } from "../support/temp-dir.js";

let home: string;
let cwd: string;
let savedHome: string | undefined;
beforeEach(() => {
  savedHome = process.env.HOME;
  home = tempDir("hx-home-");
  cwd = tempDir("hx-ws-");
  process.env.HOME = home;
});
afterEach(() => {
  process.env.HOME = savedHome;
});

const probe = defineTool({
  name: "probe",
  description: "Probes.",
  parameters: () => z.object({}),
  effect: "none",
  execute: async () => "probed",
});
const late = defineTool({
  name: "late_tool",
  description: "Arrives after start-up.",
  parameters: () => z.object({}),
  effect: "none",
  execute: async () => "late",
});

/** A capability with one of everything, recording what the session does with it. */
function probeCapability(seen: { turns: number[]; closed: number; basics?: SessionBasics }): Capability {
  const extension: LoopExtension = {
    name: "probe-extension",
    beforeModelCall: (state) => {
      seen.turns.push(state.turn);
    },
    afterToolCall: (_prepared, output) => ({
      ...output,
      content: `${output.content} (seen by the extension)`,
    }),
  };
  let resolveLate: (tools: readonly (typeof late)[]) => void = () => {};
  const lateTools = new Promise<readonly (typeof late)[]>((resolve) => {
    resolveLate = resolve;
  });
  setTimeout(() => resolveLate([late]), 0);
  return {
    name: "probe",
    tools: [probe],
    lateTools,
    extensions: [extension],
    promptFilters: [(prompt) => ({ prompt: `${prompt} [filtered]`, meta: { kind: "announcement" } })],
    commands: [
      { name: "ping", usage: "/ping", description: "answers pong", run: (_args, io) => io.print("pong") },
    ],
    promptSections: ["## Probe section\nProbes exist."],
    close: () => {
      seen.closed += 1;
    },
  };
}

function environment(model: ScriptedProvider, extra: Partial<SessionEnvironment> = {}): SessionEnvironment {
  return {
    cwd,
    provider: model,
    settings: { merged: {}, files: [], diagnostics: [] },
    maxTurns: 10,
    verbose: false,
    contextWindow: 100_000,
    log: () => {},
    ...extra,
  };
}

describe("a capability plugs into the session", () => {
  it("its tool, extension, prompt filter, command and prompt section reach the loop and the request", async () => {
    const seen = { turns: [] as number[], closed: 0 };
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "probe", arguments: {} }] },
      { text: "done" },
    ] satisfies ScriptedReply[]);
    const session = await createSession(
      environment(model, { extraCapabilities: () => [probeCapability(seen)] }),
    );

    const events: AgentEvent[] = [];
    const result = await session.run("go", { emit: (e) => events.push(e) });
    expect(result.stop).toBe("done");

    const request = model.requests[0];
    expect(request.system).toContain("## Probe section\nProbes exist.");
    expect(request.tools.map((t) => t.name)).toContain("probe");
    expect(request.messages[0]).toMatchObject({ role: "user", content: "go [filtered]" });
    expect(seen.turns).toEqual([0, 1]);
    const result0 = model.requests[1].messages.find((m) => m.role === "tool");
    expect(result0?.content).toBe("probed (seen by the extension)");
    // The filter's meta is kept on the message (the wire builders leave it out).
    expect(session.conversation.messages[0]).toMatchObject({ meta: { kind: "announcement" } });
    expect(session.commands.map((c) => c.name)).toContain("ping");
    expect(session.toolSchemas().map((t) => t.name)).toContain("probe");

    await session.close();
    await session.close();
    expect(seen.closed).toBe(1);
  });

  it("tools that arrive after start-up are in the next request", async () => {
    const seen = { turns: [] as number[], closed: 0 };
    const model = new ScriptedProvider([{ text: "one" }, { text: "two" }]);
    const session = await createSession(
      environment(model, { extraCapabilities: () => [probeCapability(seen)] }),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    await session.run("first", { emit: () => {} });
    expect(model.requests[0].tools.map((t) => t.name)).toContain("late_tool");
    await session.close();
  });

  it("the permission mode handle changes what the next tool call may do", async () => {
    const writes = defineTool({
      name: "writes",
      description: "Writes.",
      parameters: () => z.object({}),
      effect: "write",
      execute: async () => "written",
    });
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "writes", arguments: {} }] },
      { text: "refused" },
      { toolCalls: [{ name: "writes", arguments: {} }] },
      { text: "ok" },
    ]);
    const session = await createSession(
      environment(model, { extraCapabilities: () => [{ name: "writer", tools: [writes] }] }),
    );
    expect(session.permissions.mode).toBe("default");
    await session.run("try", { emit: () => {} });
    expect(model.requests[1].messages.at(-1)).toMatchObject({ role: "tool", isError: true });
    session.permissions.set("acceptEdits");
    await session.run("again", { emit: () => {} });
    expect(model.requests[3].messages.at(-1)).toMatchObject({ role: "tool", content: "written" });
    await session.close();
  });

  it("the model handle switches every later request to the new model", async () => {
    const first = new ScriptedProvider([{ text: "from the first" }]);
    const second = new ScriptedProvider([{ text: "from the second" }]);
    const session = await createSession(environment(first));
    await session.run("a", { emit: () => {} });
    session.model.switchTo(second);
    const result = await session.run("b", { emit: () => {} });
    expect(result.text).toBe("from the second");
    expect(second.requests[0].messages.map((m) => m.content)).toEqual(["a", "from the first", "b"]);
    await session.close();
  });

  it("switching to a model with another window moves compaction and /context to that window", async () => {
    const first = new ScriptedProvider([{ text: "x ".repeat(12_000) }]);
    const second = new ScriptedProvider([{ text: "summary" }, { text: "after" }]);
    const session = await createSession(environment(first, { contextWindow: 100_000 }));
    await session.run("a", { emit: () => {} });
    const context = async () => {
      const printed: string[] = [];
      await session.commands
        .find((c) => c.name === "context")
        ?.run("", { print: (t) => printed.push(t), emit: () => {}, signal: new AbortController().signal });
      return printed.join("\n");
    };
    expect(await context()).toMatch(/ of 100,000 tokens used/);
    session.model.switchTo(second, 8_192);
    expect(session.model.contextWindow).toBe(8_192);
    expect(await context()).toMatch(/ of 8,192 tokens used/);
    // ~5,000 tokens of history is past 80% of 8,192: the next request is preceded by a summary.
    await session.run("b", { emit: () => {} });
    expect(second.requests[0].messages.at(-1)?.content).toMatch(/summar/i);
    await session.close();
  });

  it("the transcript follows the conversation: one line per message, /resume as a history line", async () => {
    const model = new ScriptedProvider([{ text: "first answer" }, { text: "second answer" }]);
    const session = await createSession(environment(model));
    await session.run("first", { emit: () => {} });
    const other = await createSession(environment(new ScriptedProvider([{ text: "other answer" }])));
    await other.run("other task", { emit: () => {} });
    await other.close();

    const printed: string[] = [];
    const resume = session.commands.find((c) => c.name === "resume");
    await resume?.run(other.transcript.id, {
      print: (t) => printed.push(t),
      emit: () => {},
      signal: new AbortController().signal,
    });
    expect(printed[0]).toMatch(/^Resumed .*: 2 messages\.$/);
    expect(session.conversation.messages.map((m) => m.content)).toEqual(["other task", "other answer"]);
    await session.run("continue", { emit: () => {} });
    await session.close();

    const lines = readFileSync(session.transcript.file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; reason?: string });
    expect(lines.map((l) => (l.reason ? `${l.type}:${l.reason}` : l.type))).toEqual([
      "session",
      "message",
      "message",
      "usage",
      "history:resume",
      "message",
      "message",
      "usage",
    ]);
  });
});

describe("skill bodies are known by meta, across a resume", () => {
  it("a /skill invocation marks its body; a resumed session still counts the skill as loaded", async () => {
    const dir = path.join(cwd, ".agents", "skills", "deploy");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "SKILL.md"),
      "---\nname: deploy\ndescription: Ship the release. Use when deploying.\n---\n# deploy\nSteps.\n",
    );
    const model = new ScriptedProvider([{ text: "deployed" }]);
    const session = await createSession(environment(model));
    await session.run("/deploy to staging", { emit: () => {} });
    const [prompt] = session.conversation.messages;
    if (prompt.role !== "user") throw new Error("expected the prompt first");
    const [span] = prompt.meta?.skills ?? [];
    expect(span?.name).toBe("deploy");
    expect(prompt.content.slice(span.start, span.end)).toMatch(
      /^<skill name="deploy">\n# deploy\nSteps\.\n<\/skill>/,
    );
    expect(prompt.content.slice(span.end)).toContain("to staging");
    await session.close();

    const resumed = resumeSession(latestSession(realpathSync(cwd))!, {
      provider: "scripted",
      model: "scripted",
    });
    const again = new ScriptedProvider([
      { toolCalls: [{ name: "load_skill", arguments: { name: "deploy" } }] },
      { text: "ok" },
    ]);
    const second = await createSession(environment(again, { resume: resumed }));
    await second.run("load it again", { emit: () => {} });
    const result = second.conversation.messages.find((m) => m.role === "tool");
    expect(result?.content).toMatch(/already loaded/);
    await second.close();
  });
});

/** A skill root with `deploy`, whose body points at its notes.md (a file of its folder). */
function deploySkillWithNotes(): { root: string; notes: string } {
  const root = tempDir("hx-skills-");
  const dir = path.join(root, "deploy");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "SKILL.md"),
    "---\nname: deploy\ndescription: Ship the release. Use when deploying.\n---\n# deploy\nSee notes.md.\n",
  );
  writeFileSync(path.join(dir, "notes.md"), "the deploy notes\n");
  return { root, notes: path.join(realpathSync(dir), "notes.md") };
}

describe("a loaded skill's folder is readable while the history carries its body", () => {
  it("a replacement that drops the body (a rewind, a clear) revokes the read grant", async () => {
    const { root, notes } = deploySkillWithNotes();
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "load_skill", arguments: { name: "deploy" } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: notes } }] },
      { text: "read" },
      { toolCalls: [{ name: "read_file", arguments: { path: notes } }] },
      { text: "refused" },
      { toolCalls: [{ name: "read_file", arguments: { path: notes } }] },
      { text: "refused again" },
    ]);
    const session = await createSession(
      environment(model, {
        settings: { merged: { skills: { paths: [root] } }, files: [], diagnostics: [] },
        permissionMode: "bypassPermissions",
      }),
    );
    const toolResults = () => session.conversation.messages.filter((m) => m.role === "tool");

    await session.run("deploy it", { emit: () => {} });
    expect(toolResults().map((m) => m.content)[1]).toContain("the deploy notes");

    // Back to before the load (what /rewind does): the body is gone, so is the grant.
    session.conversation.replace(session.conversation.messages.slice(0, 1), "rewind");
    await session.run("read the notes again", { emit: () => {} });
    const afterRewind = toolResults().at(-1);
    expect(afterRewind?.isError).toBe(true);
    expect(afterRewind?.content).not.toContain("the deploy notes");

    session.conversation.replace([], "clear");
    await session.run("and once more", { emit: () => {} });
    expect(toolResults().at(-1)?.content).not.toContain("the deploy notes");
    await session.close();
  });

  it("a replacement that keeps the body keeps the folder readable", async () => {
    const { root, notes } = deploySkillWithNotes();
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "load_skill", arguments: { name: "deploy" } }] },
      { text: "loaded" },
      { toolCalls: [{ name: "read_file", arguments: { path: notes } }] },
      { text: "read" },
    ]);
    const session = await createSession(
      environment(model, {
        settings: { merged: { skills: { paths: [root] } }, files: [], diagnostics: [] },
        permissionMode: "bypassPermissions",
      }),
    );
    await session.run("deploy it", { emit: () => {} });
    session.conversation.replace([...session.conversation.messages], "repair");
    await session.run("read the notes", { emit: () => {} });
    const last = session.conversation.messages.filter((m) => m.role === "tool").at(-1);
    expect(last?.content).toContain("the deploy notes");
    await session.close();
  });
});

describe("a session without a provider (what hx context opens)", () => {
  it("measures the next request by /context and refuses a run with a config error", async () => {
    const session = await createSession({
      ...environment(new ScriptedProvider([])),
      provider: undefined,
      model: { name: "deepseek", model: "deepseek-chat" },
    });
    expect(session.model.name).toBe("deepseek");
    const printed: string[] = [];
    await session.commands
      .find((c) => c.name === "context")
      ?.run("", {
        print: (text) => printed.push(text),
        emit: () => {},
        signal: new AbortController().signal,
      });
    expect(printed.join("\n")).toMatch(/system prompt/i);
    const result = await session.run("hi", { emit: () => {} });
    expect(result.error?.message).toMatch(/no provider for deepseek\/deepseek-chat.*hx context/);
    await session.close();
  });
});
