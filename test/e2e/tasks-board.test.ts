// End to end: the task board (.hx/tasks) through the real binary — tasks with dependencies
// created in one session and continued in the next, the rules the model reads as errors, and
// `hx tasks list`.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { startInTerminal } from "../support/terminal.js";
import { messagesOf, toolResultsOf, useHarness, writeSettings } from "./harness-support.js";

const h = useHarness();
// Headless runs on an empty board get the tools only when settings ask for them.
beforeEach(() => writeSettings(h.work, { taskBoard: "on" }));

const systemOf = (index: number) => String(messagesOf(h.server.requests[index])[0]?.content ?? "");

describe("the task board", () => {
  it("keeps tasks with dependencies across sessions; a blocked task cannot start", async () => {
    h.server.reply().tool("task_create", { subject: "Write the parser" });
    h.server.reply().tool("task_create", { subject: "Test the parser", blockedBy: ["1"] });
    h.server.reply().tool("task_update", { id: "2", status: "in_progress" });
    h.server.reply().tool("task_update", { id: "1", status: "completed" });
    h.server.reply().text("parser done");

    const first = await h.agent("plan and write the parser");

    expect(first.code).toBe(0);
    const names = h.server.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(["task_create", "task_update", "task_list", "task_get"]));
    expect(systemOf(0)).not.toContain("task board has");
    const results = toolResultsOf(h.server.requests[4]);
    expect(results[0]).toBe("Created #1 [ ] Write the parser");
    expect(results[1]).toBe("Created #2 [ ] Test the parser — blocked by #1");
    expect(results[2]).toBe(
      "Error: task 2 is blocked by task 1, not completed yet. Finish it first, or remove the dependency with removeBlockedBy.",
    );
    expect(results[3]).toBe(
      "Updated #1 [x] Write the parser\nIt blocked #2: task_list shows what can start now.",
    );
    expect(first.stderr).toContain("task updated: #1 [x] Write the parser");
    const stored = JSON.parse(readFileSync(path.join(h.work, ".hx/tasks/2.json"), "utf8"));
    expect(stored).toMatchObject({ id: "2", status: "pending", blockedBy: ["1"] });

    // A new session (not --continue): the prompt says the board has open work, the model
    // lists it and starts the task that is no longer blocked.
    const before = h.server.requests.length;
    h.server.reply().tool("task_list", {});
    h.server.reply().tool("task_update", { id: "2", status: "in_progress", owner: "main" });
    h.server.reply().text("testing");
    const second = await h.agent("go on with the board");

    expect(second.code).toBe(0);
    expect(systemOf(before)).toContain("The project's task board has 1 open task from earlier work");
    const [board, started] = toolResultsOf(h.server.requests[before + 2]);
    expect(board).toBe("#1 [x] Write the parser\n#2 [ ] Test the parser\n(1/2 completed)");
    expect(started).toBe("Updated #2 [>] Test the parser (owner: main)");

    const listed = await runHx(["tasks", "list", "-C", h.work]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(
      "#1 [x] Write the parser\n#2 [>] Test the parser (owner: main)\n(1/2 completed)\n",
    );
    const json = JSON.parse((await runHx(["tasks", "list", "--json", "-C", h.work])).stdout);
    expect(json.map((t: { id: string; blocks: string[] }) => [t.id, t.blocks])).toEqual([
      ["1", ["2"]],
      ["2", []],
    ]);
  });

  it("refuses a dependency cycle, an unknown id and an empty subject with a way forward", async () => {
    h.server.reply().tool("task_create", { subject: "A" }).tool("task_create", { subject: "B" });
    h.server.reply().tool("task_update", { id: "1", addBlocks: ["2"] });
    h.server.reply().tool("task_update", { id: "1", addBlockedBy: ["2"] });
    h.server.reply().tool("task_get", { id: "9" }).tool("task_create", { subject: "  " });
    h.server.reply().tool("task_update", { id: "1", status: "deleted" });
    h.server.reply().tool("task_get", { id: "2" });
    h.server.reply().text("done");

    const run = await h.agent("make a board");

    expect(run.code).toBe(0);
    const [, , blocks, cycle, unknown, empty, deleted, second] = toolResultsOf(h.server.requests[6]);
    expect(blocks).toBe("Updated #1 [ ] A");
    expect(cycle).toBe(
      'Error: that would make a dependency cycle (1 → 2 → 1); each arrow means "waits for". Remove one of these dependencies instead.',
    );
    expect(unknown).toBe("Error: task 9 does not exist. The board has 1, 2 (task_list shows them).");
    expect(empty).toBe("Error: the subject is empty; give it in a few words.");
    // Deleting task 1 frees task 2 of it.
    expect(deleted).toBe("Deleted task #1.");
    expect(second).toContain("#2 [ ] B\n");
    expect(second).not.toContain("blocked by");
    expect(readdirSync(path.join(h.work, ".hx/tasks")).filter((n) => n.endsWith(".json"))).toEqual([
      "2.json",
    ]);
  });

  it("auto offers the tools to a headless run only when the board has tasks; off never", async () => {
    writeSettings(h.work, {});
    h.server.reply().text("no board");
    await h.agent("hi");
    const namesOf = (i: number) =>
      h.server.requests[i].body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(namesOf(0)).not.toContain("task_create");
    expect(namesOf(0)).toContain("todo_write");

    writeSettings(h.work, { taskBoard: "on" });
    h.server.reply().tool("task_create", { subject: "A" });
    h.server.reply().text("ok");
    await h.agent("one task");

    writeSettings(h.work, {});
    h.server.reply().text("board seen");
    await h.agent("hi again");
    expect(namesOf(3)).toContain("task_create");

    writeSettings(h.work, { taskBoard: "off" });
    h.server.reply().text("off");
    await h.agent("hi once more");
    expect(namesOf(4)).not.toContain("task_list");
    expect(String(messagesOf(h.server.requests[4])[0]?.content)).not.toContain("task board");
  });

  it("/tasks-style listing names a file that is not a task and keeps it", async () => {
    h.server.reply().tool("task_create", { subject: "A" });
    h.server.reply().text("ok");
    await h.agent("one task");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(h.work, ".hx/tasks/7.json"), "{ half");

    const listed = await runHx(["tasks", "list", "-C", h.work]);

    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe("#1 [ ] A\n(0/1 completed)\n");
    expect(listed.stderr).toMatch(/warning: .*7\.json: not a task .*left as it is/);
    expect(readFileSync(path.join(h.work, ".hx/tasks/7.json"), "utf8")).toBe("{ half");
  });
});

describe("/tasks in the interactive session", () => {
  it("an interactive session gets the tools on an empty board; /tasks prints the board", async () => {
    writeSettings(h.work, {});
    h.server.reply().tool("task_create", { subject: "Ship it" });
    h.server.reply().text("added");
    const term = startInTerminal(h.args(), { cwd: h.work, env: { OPENAI_API_KEY: "sk-test" } });
    try {
      await term.waitFor("hx >> ");
      term.type("add a task\r");
      const after = await term.waitFor("added");
      term.type("/tasks\r");
      await term.waitFor("(0/1 completed)", { from: after });
      expect(term.output()).toContain("#1 [ ] Ship it");
      term.type("/exit\r");
      expect(await term.exited()).toBe(0);
    } finally {
      term.kill();
    }
  });
});
