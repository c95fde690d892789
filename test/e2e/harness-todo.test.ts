// End to end: todo_write through the real binary — the list on the terminal, the rules the
// model reads as errors, and where the reminder lands in the requests.
import { describe, expect, it } from "vitest";
import { pairingProblems } from "../support/wire.js";
import { messagesOf, statsLine, toolResultsOf, useHarness, type WireMessage } from "./harness-support.js";

const h = useHarness();

const plan = [
  { content: "Read the code", status: "completed" },
  { content: "Write the tests", status: "in_progress", activeForm: "Writing the tests" },
  { content: "Update the docs", status: "pending" },
];

const isReminder = (message: WireMessage) =>
  message.role === "user" && String(message.content).startsWith("<reminder>");

describe("todo_write", () => {
  it("replaces the list, shows it on the terminal and returns it to the model", async () => {
    h.server.reply().tool("todo_write", { todos: plan });
    h.server.reply().text("planned");

    const run = await h.agent("plan it");

    expect(run.code).toBe(0);
    const rendered = [
      "[x] Read the code",
      "[>] Write the tests (Writing the tests)",
      "[ ] Update the docs",
      "(1/3 completed)",
    ].join("\n");
    expect(run.stderr).toContain(rendered);
    expect(run.stdout).toBe("planned\n");
    expect(toolResultsOf(h.server.requests[1])[0]).toBe(rendered);
    // todo_write changes nothing on disk: no permission needed, even headless in default mode.
    expect(statsLine(run.stderr)).toMatch(/blocked=0 /);
  });

  it("more than 20 items or two in_progress are errors the model reads; the list is kept", async () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ content: `step ${i + 1}`, status: "pending" }));
    h.server.reply().tool("todo_write", { todos: plan });
    h.server.reply().tool("todo_write", { todos: many });
    h.server.reply().tool("todo_write", {
      todos: [
        { content: "a", status: "in_progress" },
        { content: "b", status: "in_progress" },
      ],
    });
    h.server.reply().tool("todo_write", { todos: [{ content: "x", status: "started" }] });
    h.server.reply().text("ok");

    const run = await h.agent("plan it");

    expect(run.code).toBe(0);
    const [, tooMany, twoActive, badStatus] = toolResultsOf(h.server.requests[4]);
    expect(tooMany).toBe(
      "Error: the todo list has 21 items; at most 20 are allowed. Merge or drop items and send the whole list again.",
    );
    expect(twoActive).toBe(
      "Error: 2 items are in_progress; at most one may be in_progress at a time. Mark the others pending or completed and send the whole list again.",
    );
    expect(badStatus).toMatch(/^Error: .*status/s);
    const results = messagesOf(h.server.requests[4]).filter((m: WireMessage) => m.role === "tool");
    // The refused lists were not shown: the terminal shows the first list once.
    expect(run.stderr.split("(1/3 completed)").length - 1).toBe(1);
    expect(results).toHaveLength(4);
  });
});

describe("the todo reminder", () => {
  it("comes after 3 turns with open items and no update, after the tool results", async () => {
    h.server.reply().tool("todo_write", { todos: plan });
    h.server.reply().tool("read_file", { path: "missing-1.txt" });
    h.server.reply().tool("glob", { pattern: "*" });
    // Parallel calls: the reminder must come after both results.
    h.server.reply().tool("glob", { pattern: "*.md" }).tool("grep", { pattern: "todo" });
    h.server.reply().tool("todo_write", {
      todos: plan.map((item) => ({ ...item, status: "completed" })),
    });
    h.server.reply().tool("glob", { pattern: "*" });
    h.server.reply().tool("glob", { pattern: "*" });
    h.server.reply().tool("glob", { pattern: "*" });
    h.server.reply().text("done");

    const run = await h.agent("work through the plan");

    expect(run.code).toBe(0);
    const requests = h.server.requests.map(messagesOf);
    const remindersIn = requests.map((messages) => messages.filter(isReminder).length);
    // Requests 2-4 follow 1-3 turns without an update; the reminder joins before request 5 and
    // stays in the history. After the list is all done, no more reminders.
    expect(remindersIn).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 1]);

    const fifth = requests[4];
    const reminderAt = fifth.findIndex(isReminder);
    expect(reminderAt).toBe(fifth.length - 1);
    expect(fifth.slice(reminderAt - 2, reminderAt).map((m: WireMessage) => m.role)).toEqual(["tool", "tool"]);
    expect(fifth[reminderAt].content).toContain("[>] Write the tests (Writing the tests)");
    for (const messages of requests) expect(pairingProblems(messages)).toEqual([]);
  });
});
