import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLAUDE_CODE_TOOL_NAMES, canonicalToolName } from "../../src/permissions/tool-aliases.js";
import { LOAD_SKILL_CLAUDE } from "../../src/skills/load-skill-tool.js";
import { TASK_CLAUDE } from "../../src/subagent/task-tool.js";
import { TODO_WRITE_CLAUDE } from "../../src/todo/todo-write-tool.js";
import { BASH_CLAUDE } from "../../src/tools/bash.js";
import { claudeToolInput, claudeToolName, hxArgsFrom, toolNames } from "../../src/tools/claude-call.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { globTool } from "../../src/tools/glob.js";
import { grepTool } from "../../src/tools/grep.js";
import { readFileTool } from "../../src/tools/read-file.js";
import type { ClaudeShape, Tool } from "../../src/tools/tool.js";
import { Workspace } from "../../src/tools/workspace.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { tempDir } from "../support/temp-dir.js";

const root = tempDir();
const workspace = new Workspace(root);
const as = (name: string, claude: ClaudeShape) => ({ name, claude }) as unknown as Tool;

// Each built-in tool as Claude Code's hooks see it, and back from a hook's updatedInput.
const cases: Array<[Tool, unknown, string, Record<string, unknown>]> = [
  [
    as("bash", BASH_CLAUDE as ClaudeShape),
    { command: "ls", timeout: 5 },
    "Bash",
    { command: "ls", timeout: 5000 },
  ],
  [
    readFileTool as Tool,
    { path: "a.txt", offset: 3 },
    "Read",
    { file_path: path.join(root, "a.txt"), offset: 3 },
  ],
  [
    writeFileTool as Tool,
    { path: "b/c.ts", content: "x" },
    "Write",
    { file_path: path.join(root, "b/c.ts"), content: "x" },
  ],
  [
    editFileTool as Tool,
    { path: "a.txt", old_text: "one", new_text: "two", replace_all: true },
    "Edit",
    { file_path: path.join(root, "a.txt"), old_string: "one", new_string: "two", replace_all: true },
  ],
  [
    globTool as Tool,
    { pattern: "**/*.ts", path: "src" },
    "Glob",
    { pattern: "**/*.ts", path: path.join(root, "src") },
  ],
  [
    grepTool as Tool,
    { pattern: "TODO", glob: "*.ts", ignore_case: true },
    "Grep",
    { pattern: "TODO", glob: "*.ts", output_mode: "content", "-n": true, "-i": true },
  ],
  [
    as("task", TASK_CLAUDE as ClaudeShape),
    { description: "look", prompt: "find x", agent_type: "explore" },
    "Task",
    { description: "look", prompt: "find x", subagent_type: "Explore" },
  ],
  [
    as("todo_write", TODO_WRITE_CLAUDE as ClaudeShape),
    { todos: [{ content: "a", status: "pending" }] },
    "TodoWrite",
    { todos: [{ content: "a", status: "pending" }] },
  ],
  [as("load_skill", LOAD_SKILL_CLAUDE as ClaudeShape), { name: "deploy" }, "Skill", { skill: "deploy" }],
];

describe("each tool's claude field", () => {
  it.each(cases)("%#: hx's call ↔ Claude Code's name and input", (tool, args, name, input) => {
    expect(claudeToolName(tool)).toBe(name);
    expect(claudeToolInput(tool, args, workspace)).toEqual(input);
    // A hook that changes nothing gives back the same call (paths absolute now).
    const back = hxArgsFrom(tool, args, {}, workspace) as Record<string, unknown>;
    expect(claudeToolInput(tool, back, workspace)).toEqual(input);
  });

  it("updatedInput in Claude Code's fields becomes hx's arguments", () => {
    expect(
      hxArgsFrom(
        editFileTool as Tool,
        { path: "a", old_text: "x", new_text: "y" },
        { new_string: "z" },
        workspace,
      ),
    ).toEqual({
      path: path.join(root, "a"),
      old_text: "x",
      new_text: "z",
      replace_all: false,
    });
  });

  it("a Task hook's updatedInput keeps run_in_background, isolation and skills", () => {
    const task = as("task", TASK_CLAUDE as ClaudeShape);
    const args = {
      description: "d",
      prompt: "p",
      skills: ["deploy"],
      run_in_background: true,
      isolation: "worktree",
    };
    expect(claudeToolInput(task, args, workspace)).toMatchObject({
      run_in_background: true,
      isolation: "worktree",
    });
    expect(hxArgsFrom(task, args, { prompt: "p2" }, workspace)).toEqual({
      description: "d",
      prompt: "p2",
      agent_type: "general",
      skills: ["deploy"],
      run_in_background: true,
      isolation: "worktree",
    });
  });

  it("rules and matchers read the same names: one source, the tools' definitions", () => {
    for (const [tool, , name] of cases) {
      expect(canonicalToolName(name)).toBe(tool.name);
      expect(toolNames(tool)).toContain(name);
    }
    expect(CLAUDE_CODE_TOOL_NAMES.MultiEdit).toBe("edit_file");
    expect(canonicalToolName("mcp__github__create_issue")).toBe("mcp__github__create_issue");
  });
});
