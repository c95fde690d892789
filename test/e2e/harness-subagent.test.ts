// End to end: the task subagent through the real binary. The fake server answers in queue
// order, so the script interleaves parent and child replies: the child's requests happen
// while the parent's task call runs.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";
import {
  hookLines,
  messagesOf,
  statsLine,
  toolNamesOf,
  toolResultsOf,
  useHarness,
  writeSettings,
} from "./harness-support.js";

const h = useHarness();

const task = {
  description: "find the port",
  prompt: "Find where the server port is set in this project and report the file and the value.",
};

/** parent: task call → child: read + bash → child: final text → parent: final text. */
function scriptSubagentRun(childCommand = "echo from-child > child.txt") {
  h.server.reply().text("Delegating.").tool("task", task);
  h.server
    .reply()
    .text("Looking.")
    .tool("read_file", { path: "config.txt" })
    .tool("bash", { command: childCommand });
  h.server.reply().text("The port is 8080, set in config.txt.");
  h.server.reply().text("Port: 8080.");
}

describe("the task subagent", () => {
  it("runs with a fresh history and its own tools; only its final text returns to the parent", async () => {
    writeFileSync(path.join(h.work, "config.txt"), "port=8080\n");
    scriptSubagentRun();

    const run = await h.agent("what port does the server use?", ["--permission-mode", "bypassPermissions"]);

    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Port: 8080.\n");
    expect(h.server.requests).toHaveLength(4);
    const [parentFirst, childFirst, childSecond, parentLast] = h.server.requests;

    // The parent offers task and todo_write (load_skill only with a skill to load); the child
    // gets none of them.
    expect(toolNamesOf(parentFirst)).toEqual(expect.arrayContaining(["task", "todo_write"]));
    expect(toolNamesOf(parentFirst)).not.toContain("load_skill");
    expect(toolNamesOf(childFirst).sort()).toEqual(
      ["bash", "read_file", "write_file", "edit_file", "glob", "grep"].sort(),
    );
    // Fresh history: only the subagent's system prompt and the task's prompt.
    const childMessages = messagesOf(childFirst);
    expect(childMessages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(childMessages[0].content).toContain("You are a subagent");
    expect(childMessages[1].content).toBe(task.prompt);
    expect(JSON.stringify(childMessages)).not.toContain("what port does the server use?");
    // The child's second request carries its own tool results.
    const childResults = toolResultsOf(childSecond);
    expect(childResults).toHaveLength(2);
    expect(childResults[0]).toContain("port=8080");
    expect(readFileSync(path.join(h.work, "child.txt"), "utf8")).toBe("from-child\n");

    // Back in the parent: the task call's result is the child's final text, nothing else.
    const parentMessages = messagesOf(parentLast);
    expect(parentMessages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(parentMessages[3].content).toBe("The port is 8080, set in config.txt.");
    expect(JSON.stringify(parentMessages)).not.toContain("port=8080");
    expect(JSON.stringify(parentMessages)).not.toContain("Looking.");
  });

  it("traces the child's calls indented under the parent's, and reports its stats separately", async () => {
    writeFileSync(path.join(h.work, "config.txt"), "port=8080\n");
    scriptSubagentRun("touch refused.txt");

    // Default mode, headless: the child's command is refused like the parent's would be.
    const run = await h.agent("what port?");

    expect(run.code).toBe(0);
    const lines = run.stderr.split("\n");
    const taskLine = lines.findIndex((line) => line.startsWith("> task description="));
    expect(taskLine).toBeGreaterThanOrEqual(0);
    const after = lines.slice(taskLine + 1);
    expect(after).toContain("  > read_file path=config.txt");
    expect(after).toContain('  > bash command="touch refused.txt"');
    expect(after.find((line) => line.includes("blocked: Permission denied"))).toMatch(
      /^ {4}blocked: Permission denied: bash\(touch refused\.txt\)/,
    );
    expect(existsSync(path.join(h.work, "refused.txt"))).toBe(false);
    expect(toolResultsOf(h.server.requests[2])[1]).toMatch(/^Permission denied: bash\(touch refused\.txt\)/);
    expect(run.stderr).toContain('subagent "find the port" stats turns=2 tool_calls=2 blocked=1');
    // The parent's own counts, then the subagents'.
    expect(statsLine(run.stderr)).toMatch(
      /^turns=2 tool_calls=1 blocked=0 tokens: .* \| subagents: turns=2 tool_calls=2 blocked=1 tokens: input=\d+ cached=\d+ output=\d+$/,
    );
  });

  it("agent_type explore gets read-only tools", async () => {
    h.server.reply().tool("task", { ...task, agent_type: "explore" });
    h.server.reply().text("Nothing to find.");
    h.server.reply().text("Done.");

    const run = await h.agent("explore");

    expect(run.code).toBe(0);
    expect(toolNamesOf(h.server.requests[1]).sort()).toEqual(["glob", "grep", "read_file"]);
    expect(toolResultsOf(h.server.requests[2])).toEqual(["Nothing to find."]);
  });

  it("PreToolUse hooks apply inside it; SubagentStop fires with its final text; -v logs it indented", async () => {
    writeFileSync(path.join(h.work, "config.txt"), "port=8080\n");
    const out = tempDir("hx-hook-out-");
    writeSettings(h.work, {
      hooks: {
        PreToolUse: [
          { matcher: "bash", hooks: [{ type: "command", command: "echo 'no shell in here' >&2; exit 2" }] },
          { matcher: "*", hooks: [{ type: "command", command: `cat >> '${out}/pre.jsonl'` }] },
        ],
        SubagentStop: [{ hooks: [{ type: "command", command: `cat > '${out}/stop.json'` }] }],
      },
    });
    scriptSubagentRun();

    const run = await h.agent("what port?", ["--permission-mode", "bypassPermissions", "-v"]);

    expect(run.code).toBe(0);
    // The bash hook blocked the child's command even in bypassPermissions.
    expect(toolResultsOf(h.server.requests[2])[1]).toBe("no shell in here");
    expect(existsSync(path.join(h.work, "child.txt"))).toBe(false);
    const pre = readFileSync(path.join(out, "pre.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(pre.map((p) => p.tool_name)).toEqual(["Task", "Read", "Bash"]);
    expect(pre.map((p) => p.hx_tool_name)).toEqual(["task", "read_file", "bash"]);
    const stop = JSON.parse(readFileSync(path.join(out, "stop.json"), "utf8"));
    expect(stop).toMatchObject({
      hook_event_name: "SubagentStop",
      description: "find the port",
      agent_type: "general",
      final_text: "The port is 8080, set in config.txt.",
    });
    expect(hookLines(run.stderr)).toEqual([
      expect.stringMatching(/^\[HOOK\] UserPromptSubmit cwd=/),
      `[HOOK] PreToolUse task(${JSON.stringify(task)})`,
      '  [HOOK] PreToolUse read_file({"path":"config.txt"})',
      expect.stringMatching(/^ {2}\[HOOK\] PostToolUse read_file output_chars=\d+$/),
      '  [HOOK] PreToolUse bash({"command":"echo from-child > child.txt"})',
      "  [HOOK] SubagentStop: turns=2, tool_calls=2, blocked=1",
      "[HOOK] PostToolUse task output_chars=36",
      "[HOOK] Stop: turns=2, tool_calls=1, blocked=0",
    ]);
  });
});
