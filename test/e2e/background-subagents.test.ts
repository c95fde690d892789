// End to end: `task` with `run_in_background` and `isolation: "worktree"` through the real
// binary — the subagent's answer reaches the next request without polling, two isolated
// subagents writing the same file name never see each other's file, a worktree left clean is
// removed, and outside a git repository isolation is not offered.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../support/fake-model-server.js";
import { BYPASS, messagesOf, toolResultsOf } from "../support/wire.js";
import { useHarness } from "./harness-support.js";

const h = useHarness();
const git = (...args: string[]) => execFileSync("git", args, { cwd: h.work, encoding: "utf8" });

function makeRepository(): void {
  git("init", "-q");
  writeFileSync(path.join(h.work, "app.txt"), "main\n");
  git("add", "app.txt");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start");
}

/** The first user message of a request: tells the main run from each subagent. */
const firstPrompt = (request: RecordedRequest): string =>
  String(messagesOf(request).find((m) => m.role === "user")?.content ?? "");
const resultsIn = (request: RecordedRequest): number => toolResultsOf(request).length;
/** The parameters `task` offers in a request. */
const taskParameters = (request: RecordedRequest): string[] =>
  Object.keys(
    request.body.tools.find((t: { function: { name: string } }) => t.function.name === "task").function
      .parameters.properties,
  );

describe("task in the background", () => {
  it("returns at once; the subagent's answer arrives in the next request without polling", async () => {
    const answered = path.join(h.work, "answered.marker");
    h.server.replyWith((request, reply) => {
      const prompt = firstPrompt(request);
      if (prompt.includes("SUB-JOB")) {
        if (resultsIn(request) === 0) reply.tool("write_file", { path: "found.txt", content: "42\n" });
        else {
          reply.text("The answer is 42.");
          // The main run's command waits for this marker: the job has then ended.
          writeFileSync(answered, "");
        }
        return;
      }
      const step = resultsIn(request);
      if (step === 0)
        reply.tool("task", {
          description: "find the answer",
          prompt: "SUB-JOB: find it",
          run_in_background: true,
        });
      else if (step === 1)
        reply.tool("bash", {
          command: `while [ ! -f ${answered} ]; do sleep 0.05; done; sleep 1; echo other work`,
        });
      else reply.text("main done");
    });

    const run = await h.agent("go", BYPASS);

    expect(run.code).toBe(0);
    const main = h.server.requests.filter((r) => firstPrompt(r) === "go");
    // Not a git repository: no isolation to offer.
    expect(taskParameters(main[0])).toContain("run_in_background");
    expect(taskParameters(main[0])).not.toContain("isolation");
    expect(toolResultsOf(main[1])[0]).toMatch(
      /^Started the subagent in the background as bg1; its answer comes to you/,
    );
    const notices = messagesOf(main[2]).filter(
      (m) => m.role === "user" && String(m.content).startsWith("<background>"),
    );
    expect(notices).toHaveLength(1);
    expect(String(notices[0].content)).toMatch(
      /^<background>\nbg1 \(subagent "find the answer"\) finished after \d+ s; its answer:\nThe answer is 42\.\n/,
    );
    // The model never polled: no bash_output call in the main run.
    expect(JSON.stringify(main.map((r) => messagesOf(r)))).not.toContain('"bash_output"');
    expect(readFileSync(path.join(h.work, "found.txt"), "utf8")).toBe("42\n");
  });

  it("headless, a subagent still running at the end writes nothing after the result line", async () => {
    h.server.replyWith((request, reply) => {
      if (firstPrompt(request).includes("SLOW-JOB")) {
        // Still streaming when the main run answers: hx ends it as it exits.
        reply.text("a slow answer that never finishes", { chunks: 20 }).delay(300);
        return;
      }
      if (resultsIn(request) === 0)
        reply.tool("task", { description: "slow one", prompt: "SLOW-JOB", run_in_background: true });
      else reply.text("main done");
    });

    const run = await h.agent("go", [...BYPASS, "--output-format", "stream-json"]);

    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({ type: "result", result: "main done" });
    expect(lines.at(-1).background_ended_with_hx).toEqual([
      expect.objectContaining({ id: "bg1", kind: "subagent", command: "slow one" }),
    ]);
  });

  it("two isolated subagents edit the same file name in their own worktrees without interference", async () => {
    makeRepository();
    h.server.replyWith((request, reply) => {
      const prompt = firstPrompt(request);
      const agent = prompt.match(/AGENT-([AB])/)?.[1];
      if (agent) {
        const step = resultsIn(request);
        if (step === 0) reply.tool("write_file", { path: "notes.txt", content: `from ${agent}\n` });
        // Both have written before either reads: a shared folder would show the other's text.
        else if (step === 1) reply.tool("bash", { command: "sleep 1; cat notes.txt; cat app.txt" });
        else reply.text(`${agent} read: ${toolResultsOf(request).at(-1)?.trim()}`);
        return;
      }
      const step = resultsIn(request);
      if (step === 0) {
        reply
          .tool("task", {
            description: "agent a",
            prompt: "AGENT-A",
            run_in_background: true,
            isolation: "worktree",
          })
          .tool("task", {
            description: "agent b",
            prompt: "AGENT-B",
            run_in_background: true,
            isolation: "worktree",
          });
      } else if (step === 2) reply.tool("bash_output", { id: "bg1", wait: 60 });
      else if (step === 3) reply.tool("bash_output", { id: "bg2", wait: 60 });
      else reply.text("both done");
    });

    const run = await h.agent("go", BYPASS);

    expect(run.code).toBe(0);
    const main = h.server.requests.filter((r) => firstPrompt(r) === "go");
    expect(taskParameters(main[0])).toEqual(expect.arrayContaining(["run_in_background", "isolation"]));
    const results = toolResultsOf(main.at(-1)!);
    const a = results.find((text) => text.startsWith("bg1 finished"));
    const b = results.find((text) => text.startsWith("bg2 finished"));
    expect(a).toMatch(/A read: from A\nmain/);
    expect(b).toMatch(/B read: from B\nmain/);
    for (const [text, letter] of [
      [a, "a"],
      [b, "b"],
    ] as const) {
      const where = text?.match(
        /in worktree (\.hx\/worktrees\/task-agent-[a-z]-[0-9a-f]{4}) on branch (hx\/task-agent-[a-z]-[0-9a-f]{4}) \(1 changed file\)/,
      );
      expect(where, text).not.toBeNull();
      expect(where?.[1]).toContain(`task-agent-${letter}-`);
      expect(text).toMatch(/notes\.txt \| 1 \+/);
      expect(readFileSync(path.join(h.work, where![1], "notes.txt"), "utf8")).toBe(
        `from ${letter.toUpperCase()}\n`,
      );
      expect(git("rev-parse", "--verify", where![2]).trim()).toMatch(/^[0-9a-f]{40}$/);
    }
    // The main tree never saw either file.
    expect(existsSync(path.join(h.work, "notes.txt"))).toBe(false);
    expect(git("status", "--porcelain")).toBe("");
  });

  it("a worktree the subagent left clean is removed, and its branch with it", async () => {
    makeRepository();
    h.server.replyWith((request, reply) => {
      if (firstPrompt(request).includes("LOOK")) {
        if (resultsIn(request) === 0) reply.tool("read_file", { path: "app.txt" });
        else reply.text("it says main");
        return;
      }
      if (resultsIn(request) === 0)
        reply.tool("task", { description: "look only", prompt: "LOOK", isolation: "worktree" });
      else reply.text("ok");
    });

    const run = await h.agent("go", BYPASS);

    expect(run.code).toBe(0);
    const main = h.server.requests.filter((r) => firstPrompt(r) === "go");
    expect(toolResultsOf(main[1])[0]).toMatch(
      /^it says main\n\n\[It changed no files; its worktree \.hx\/worktrees\/task-look-only-[0-9a-f]{4} was removed\.\]$/,
    );
    expect(git("worktree", "list").trim().split("\n")).toHaveLength(1);
    expect(git("branch", "--list", "hx/*").trim()).toBe("");
  });
});
