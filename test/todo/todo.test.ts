import { describe, expect, it } from "vitest";
import { Conversation } from "../../src/core/conversation.js";
import type { Message } from "../../src/core/messages.js";
import { ScriptedProvider, type ScriptedReply } from "../../src/providers/scripted.js";
import { createTodoReminderExtension } from "../../src/todo/reminder.js";
import { TodoList } from "../../src/todo/todo-list.js";
import { createTodoWriteTool } from "../../src/todo/todo-write-tool.js";
import { recordingTool, runLoop, toolResults } from "../support/harness-tools.js";

const todos = (...statuses: string[]) => ({
  todos: statuses.map((status, index) => ({
    content: `step ${index + 1}`,
    status,
    activeForm: `Doing step ${index + 1}`,
  })),
});
const writeTodos = (...statuses: string[]): ScriptedReply => ({
  toolCalls: [{ name: "todo_write", arguments: todos(...statuses) }],
});
const look = (): ScriptedReply => ({
  toolCalls: [
    { name: "grep", arguments: {} },
    { name: "grep", arguments: {} },
  ],
});

/** Every assistant message with tool calls is followed directly by exactly its results. */
function expectCallResultPairsIntact(messages: readonly Message[]) {
  messages.forEach((message, index) => {
    if (message.role !== "assistant" || message.toolCalls.length === 0) return;
    const following = messages.slice(index + 1, index + 1 + message.toolCalls.length);
    expect(following.map((m) => (m.role === "tool" ? m.toolCallId : m.role))).toEqual(
      message.toolCalls.map((call) => call.id),
    );
  });
}

const isReminder = (message: Message) => message.role === "user" && message.content.startsWith("<reminder>");

describe("todo_write", () => {
  it("replaces the list, renders it and shows it through the display callback", async () => {
    const list = new TodoList();
    const shown: string[] = [];
    const tool = createTodoWriteTool(list, { onUpdate: (text) => shown.push(text) });
    expect(tool.effect).toBe("none");
    const model = new ScriptedProvider([
      writeTodos("completed", "in_progress", "pending"),
      writeTodos("completed"),
      { text: "ok" },
    ]);
    const { messages } = await runLoop({ provider: model, tools: [tool] });
    expect(toolResults(messages)[0]).toBe(
      "[x] step 1\n[>] step 2 (Doing step 2)\n[ ] step 3\n(1/3 completed)",
    );
    expect(list.items).toHaveLength(1);
    expect(list.revision).toBe(2);
    expect(shown).toHaveLength(2);
  });

  it("refuses two in_progress items and more than 20, keeping the old list", async () => {
    const list = new TodoList();
    const tool = createTodoWriteTool(list);
    const model = new ScriptedProvider([
      writeTodos("in_progress", "pending"),
      writeTodos("in_progress", "in_progress"),
      writeTodos(...Array(21).fill("pending")),
      { text: "ok" },
    ]);
    const { messages } = await runLoop({ provider: model, tools: [tool] });
    const [, twoActive, tooMany] = toolResults(messages);
    expect(twoActive).toContain("at most one may be in_progress");
    expect(tooMany).toContain("at most 20");
    expect(list.items.map((item) => item.status)).toEqual(["in_progress", "pending"]);
    expect(messages.filter((m) => m.role === "tool" && m.isError)).toHaveLength(2);
  });

  it("refuses empty content", () => {
    expect(() => new TodoList().replace([{ content: " ", status: "pending" }])).toThrow(/empty content/);
  });
});

describe("todo reminder", () => {
  function setup(script: ScriptedReply[]) {
    const list = new TodoList();
    const model = new ScriptedProvider(script);
    const tools = [createTodoWriteTool(list), recordingTool("grep", "read")];
    return { list, model, tools, extensions: [createTodoReminderExtension(list)] };
  }

  it("after 3 turns with open items and no update, lands after the tool results, never between a call and its result", async () => {
    const { model, tools, extensions } = setup([
      writeTodos("in_progress", "pending"),
      look(),
      look(),
      look(),
      { text: "done" },
    ]);
    const { messages } = await runLoop({ provider: model, tools, extensions });
    expectCallResultPairsIntact(messages);
    const reminders = messages.filter(isReminder);
    expect(reminders).toHaveLength(1);
    expect(reminders[0].content).toContain("[>] step 1");
    // The fifth request is the first to carry it, as its last message, right after tool results.
    for (const index of [0, 1, 2, 3]) expect(model.sent(index).some(isReminder)).toBe(false);
    const fifth = model.sent(4);
    expect(isReminder(fifth.at(-1)!)).toBe(true);
    expect(fifth.at(-2)!.role).toBe("tool");
    expect(fifth.at(-3)!.role).toBe("tool");
  });

  it("is not added when the list is updated, or when every item is completed", async () => {
    const updating = setup([
      writeTodos("in_progress", "pending"),
      look(),
      look(),
      writeTodos("completed", "in_progress"),
      look(),
      look(),
      { text: "done" },
    ]);
    const first = await runLoop({
      provider: updating.model,
      tools: updating.tools,
      extensions: updating.extensions,
    });
    expect(first.messages.some(isReminder)).toBe(false);

    const finished = setup([
      writeTodos("completed", "completed"),
      look(),
      look(),
      look(),
      look(),
      { text: "done" },
    ]);
    const second = await runLoop({
      provider: finished.model,
      tools: finished.tools,
      extensions: finished.extensions,
    });
    expect(second.messages.some(isReminder)).toBe(false);
  });

  it("never appends after an assistant message (e.g. a half-built history)", async () => {
    const list = new TodoList();
    list.replace([{ content: "a", status: "pending" }]);
    const reminder = createTodoReminderExtension(list, 1);
    const messages: Message[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "grep", arguments: "{}" }] },
    ];
    const conversation = new Conversation(messages);
    const state = {
      conversation,
      turn: 3,
      stats: {} as never,
      emit: () => {},
      signal: new AbortController().signal,
      endRun: () => {},
    };
    await reminder.beforeModelCall!(state);
    await reminder.beforeModelCall!(state);
    expect(conversation.messages).toHaveLength(2);
  });
});
