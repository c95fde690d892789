import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { Conversation } from "../../src/core/conversation.js";
import type { PermissionAsker, PermissionRequest } from "../../src/permissions/ask.js";
import { createPermissionExtension } from "../../src/permissions/extension.js";
import type { PermissionMode } from "../../src/permissions/modes.js";
import { parseRules } from "../../src/permissions/rules.js";
import { ScriptedProvider } from "../../src/providers/scripted.js";
import { fakeBaseTools, runLoop, toolResults } from "../support/harness-tools.js";
import { tempDir } from "../support/temp-dir.js";

function setup(options: { mode?: PermissionMode; allow?: string[]; ask?: PermissionAsker; root?: string }) {
  const root = options.root ?? tempDir();
  const { rules } = parseRules({ allow: options.allow ?? [] });
  const extension = createPermissionExtension({
    mode: options.mode ?? "default",
    rules,
    projectRoot: root,
    ask: options.ask,
  });
  return { root, extension };
}

/** A loop's state at turn 1, for calling an extension directly. */
const loopState = () => ({
  conversation: new Conversation(),
  turn: 1,
  stats: { turns: 1, toolCalls: 1, blocked: 0, usage: {} as never },
  emit: () => {},
  signal: new AbortController().signal,
  endRun: () => {},
});

const callBash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { subject: command } }] });

describe("permission extension in the loop", () => {
  it("without an asker, denies at once with how to allow it, and counts it as blocked", async () => {
    const { root, extension } = setup({});
    const tools = fakeBaseTools();
    const model = new ScriptedProvider([callBash("make build"), { text: "done" }]);
    // Nothing waits for an answer: were it to, the test's timeout would end it.
    const { result, messages } = await runLoop({ provider: model, tools, extensions: [extension], root });
    const [denial] = toolResults(messages);
    expect(denial).toMatch(/^Permission denied: /);
    expect(denial).toContain("no terminal to ask");
    expect(denial).toContain('"bash(make build)"');
    expect(denial).toContain(".hx/settings.json");
    expect(denial).toContain("--permission-mode");
    expect(tools[0].calls).toHaveLength(0);
    expect(result.stats.blocked).toBe(1);
    expect(result.stats.toolCalls).toBe(1);
  });

  it("without an asker, a command it cannot read as plain is denied with what to write instead", async () => {
    const { root, extension } = setup({});
    const tools = fakeBaseTools();
    const model = new ScriptedProvider([callBash("echo x > /etc/hx-marker"), { text: "done" }]);
    const { messages } = await runLoop({ provider: model, tools, extensions: [extension], root });
    const [denial] = toolResults(messages);
    expect(denial).toContain("a redirection outside the workspace (/etc/hx-marker)");
    expect(denial).toContain("write only inside the workspace");
    expect(denial).toContain("run hx in a terminal to approve it");
    expect(tools[0].calls).toHaveLength(0);
  });

  it("a headless decision resolves immediately (no timer, no input)", async () => {
    const { extension } = setup({});
    const tool = fakeBaseTools()[2];
    const pending = extension.beforeToolCall!(
      { ok: true, call: { id: "1", name: "write_file", arguments: "{}" }, tool, args: { subject: "a.ts" } },
      loopState(),
    );
    const winner = await Promise.race([
      pending,
      new Promise((resolve) => setImmediate(() => resolve("waited"))),
    ]);
    expect(winner).toMatchObject({ block: expect.stringContaining("--permission-mode acceptEdits") });
  });

  it("an unattended run (a background subagent) is refused what would be asked, even with an asker", async () => {
    const ask = vi.fn<PermissionAsker>(async () => "yes");
    const { extension } = setup({ ask });
    const tool = fakeBaseTools()[2];
    const state = loopState();
    const call = {
      ok: true as const,
      call: { id: "1", name: "write_file", arguments: "{}" },
      tool,
      args: { subject: "a.ts" },
    };
    expect(await extension.beforeToolCall!(call, { ...state, unattended: true })).toMatchObject({
      block: expect.stringMatching(/^Permission denied: /),
    });
    expect(ask).not.toHaveBeenCalled();
    // The same call in a watched run is asked.
    expect(await extension.beforeToolCall!(call, state)).toBeUndefined();
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it("allowed calls run; rules are matched against ruleSubject", async () => {
    const { root, extension } = setup({ allow: ["bash(git *)"] });
    const tools = fakeBaseTools();
    const model = new ScriptedProvider([callBash("git log"), { text: "ok" }]);
    const { result } = await runLoop({ provider: model, tools, extensions: [extension], root });
    expect(tools[0].calls).toEqual([{ subject: "git log" }]);
    expect(result.stats.blocked).toBe(0);
  });

  it("asks with the call as a rule; 'no' refuses, 'yes' runs", async () => {
    const requests: PermissionRequest[] = [];
    const answers = ["no", "yes"] as const;
    const ask: PermissionAsker = async (request) => {
      requests.push(request);
      return answers[requests.length - 1];
    };
    const { root, extension } = setup({ ask });
    const tools = fakeBaseTools();
    const model = new ScriptedProvider([callBash("make"), callBash("make"), { text: "ok" }]);
    const { messages, result } = await runLoop({ provider: model, tools, extensions: [extension], root });
    expect(requests.map((request) => request.rule)).toEqual(["bash(make)", "bash(make)"]);
    expect(toolResults(messages)[0]).toMatch(/^Permission denied: the user declined bash\(make\)/);
    expect(toolResults(messages)[1]).toBe("bash ran");
    expect(result.stats.blocked).toBe(1);
  });

  it("'always' saves an allow rule to .hx/settings.local.json (merged) and stops asking", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, ".hx"));
    const file = path.join(root, ".hx", "settings.local.json");
    writeFileSync(
      file,
      JSON.stringify({ model: "x", permissions: { allow: ["read_file"], deny: ["bash(rm*)"] } }),
    );
    const ask = vi.fn<PermissionAsker>(async () => "always");
    const { extension } = setup({ ask, root });
    const tools = fakeBaseTools();
    const model = new ScriptedProvider([callBash("npm test"), callBash("npm test"), { text: "ok" }]);
    const { events } = await runLoop({ provider: model, tools, extensions: [extension], root });
    expect(ask).toHaveBeenCalledTimes(1);
    expect(tools[0].calls).toHaveLength(2);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      model: "x",
      permissions: { allow: ["read_file", "bash(npm test)"], deny: ["bash(rm*)"] },
    });
    expect(events).toContainEqual(
      expect.objectContaining({ type: "notice", text: expect.stringContaining("bash(npm test)") }),
    );
  });

  it("'always' creates the .hx folder when missing", async () => {
    const { root, extension } = setup({ ask: async () => "always" });
    const model = new ScriptedProvider([callBash("make"), { text: "ok" }]);
    await runLoop({ provider: model, tools: fakeBaseTools(), extensions: [extension], root });
    const saved = JSON.parse(readFileSync(path.join(root, ".hx", "settings.local.json"), "utf8"));
    expect(saved).toEqual({ permissions: { allow: ["bash(make)"] } });
  });

  it("plan mode refuses writes and commands, allows reads and read-only commands, and never asks", async () => {
    const ask = vi.fn<PermissionAsker>(async () => "yes");
    const { root, extension } = setup({ mode: "plan", ask, allow: ["bash"] });
    const tools = fakeBaseTools();
    const model = new ScriptedProvider([
      {
        toolCalls: [
          { name: "read_file", arguments: { subject: "a.ts" } },
          { name: "write_file", arguments: { subject: "a.ts" } },
          { name: "bash", arguments: { subject: "make" } },
          { name: "bash", arguments: { subject: "ls -la" } },
        ],
      },
      { text: "plan" },
    ]);
    const { messages, result } = await runLoop({ provider: model, tools, extensions: [extension], root });
    const [read, write, bash, listing] = toolResults(messages);
    expect(read).toBe("read_file ran");
    expect(write).toMatch(/^Permission denied: plan mode/);
    expect(bash).toMatch(/^Permission denied: plan mode/);
    // Read-only commands inside the workspace run in plan mode too.
    expect(listing).toBe("bash ran");
    expect(ask).not.toHaveBeenCalled();
    expect(result.stats.blocked).toBe(2);
  });

  it("the block list holds in bypassPermissions, with an asker and an allow-all rule", async () => {
    const ask = vi.fn<PermissionAsker>(async () => "yes");
    const { root, extension } = setup({ mode: "bypassPermissions", ask, allow: ["bash"] });
    const tools = fakeBaseTools();
    const model = new ScriptedProvider([callBash("rm -rf /"), { text: "ok" }]);
    const { messages } = await runLoop({ provider: model, tools, extensions: [extension], root });
    expect(toolResults(messages)[0]).toMatch(/^Permission denied: .*block list/);
    expect(tools[0].calls).toHaveLength(0);
    expect(ask).not.toHaveBeenCalled();
  });

  it("an asker that throws counts as 'no'", async () => {
    const { root, extension } = setup({
      ask: async () => {
        throw new Error("tty gone");
      },
    });
    const model = new ScriptedProvider([callBash("make"), { text: "ok" }]);
    const { messages } = await runLoop({
      provider: model,
      tools: fakeBaseTools(),
      extensions: [extension],
      root,
    });
    expect(toolResults(messages)[0]).toMatch(/^Permission denied: the user declined/);
  });
});

describe("with the real base tools", () => {
  it("path rules see workspace-relative subjects; commands match on the command", async () => {
    const { createBaseTools } = await import("../../src/tools/base-tools.js");
    const { Workspace } = await import("../../src/tools/workspace.js");
    const root = tempDir();
    const workspace = new Workspace(root);
    const { rules } = parseRules({ allow: ["write_file(src/**)", "bash(echo *)"] });
    const extension = createPermissionExtension({
      mode: "default",
      rules,
      projectRoot: workspace.root,
      workspace,
    });
    const model = new ScriptedProvider([
      {
        toolCalls: [
          {
            name: "write_file",
            arguments: { path: path.join(workspace.root, "src", "a.txt"), content: "hi\n" },
          },
          { name: "write_file", arguments: { path: "README.md", content: "x\n" } },
          { name: "bash", arguments: { command: "echo allowed" } },
          { name: "bash", arguments: { command: "echo ok && touch nope" } },
        ],
      },
      { text: "ok" },
    ]);
    const { messages } = await runLoop({
      provider: model,
      tools: createBaseTools(),
      extensions: [extension],
      root: workspace.root,
    });
    const [inside, readme, echo, compound] = toolResults(messages);
    expect(inside).not.toMatch(/^Permission denied/);
    expect(readFileSync(path.join(workspace.root, "src", "a.txt"), "utf8")).toBe("hi\n");
    expect(readme).toMatch(/^Permission denied: write_file\(README.md\)/);
    expect(echo).toContain("allowed");
    expect(compound).toMatch(/^Permission denied/);
  });
});

describe("hooks around a question (PermissionRequest, Notification)", () => {
  const withHooks = (
    answer: { behavior: "allow" | "deny"; message?: string } | undefined,
    options: { ask?: PermissionAsker; deny?: string[] } = {},
  ) => {
    const root = tempDir();
    const notes: string[] = [];
    const extension = createPermissionExtension({
      mode: "default",
      rules: parseRules({ deny: options.deny ?? [], ask: ["bash(git push*)"] }).rules,
      projectRoot: root,
      ask: options.ask,
      hookAnswers: {
        answerPermission: async () => answer,
        notify: async (message, type) => void notes.push(`${type}: ${message}`),
      },
    });
    return { root, extension, notes };
  };

  it("a hook's allow answers the question headless; its deny refuses with its message", async () => {
    for (const [answer, expected] of [
      [{ behavior: "allow" as const }, "bash ran"],
      [
        { behavior: "deny" as const, message: "not today" },
        "Permission denied by a PermissionRequest hook: not today",
      ],
    ] as const) {
      const { root, extension } = withHooks(answer);
      const model = new ScriptedProvider([callBash("make build"), { text: "done" }]);
      const { messages } = await runLoop({
        provider: model,
        tools: fakeBaseTools(),
        extensions: [extension],
        root,
      });
      expect(toolResults(messages)[0]).toBe(expected);
    }
  });

  it("an allow never answers an ask rule's question; Notification hears that a question waits", async () => {
    const asked: PermissionRequest[] = [];
    const { root, extension, notes } = withHooks(
      { behavior: "allow" },
      {
        ask: async (request) => {
          asked.push(request);
          return "no";
        },
      },
    );
    const model = new ScriptedProvider([callBash("git push origin main"), { text: "done" }]);
    await runLoop({ provider: model, tools: fakeBaseTools(), extensions: [extension], root });
    expect(asked).toHaveLength(1);
    expect(notes).toEqual(["permission_prompt: hx needs your permission to use bash(git push origin main)"]);
  });
});
