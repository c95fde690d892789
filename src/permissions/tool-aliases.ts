import { LOAD_SKILL_CLAUDE } from "../skills/index.js";
import { TASK_CLAUDE } from "../subagent/index.js";
import { TODO_WRITE_CLAUDE } from "../todo/index.js";
import { BASH_CLAUDE } from "../tools/bash.js";
import { editFileTool } from "../tools/edit-file.js";
import { globTool } from "../tools/glob.js";
import { grepTool } from "../tools/grep.js";
import { readFileTool } from "../tools/read-file.js";
import type { ClaudeShape } from "../tools/tool.js";
import { writeFileTool } from "../tools/write-file.js";

/**
 * hx's built-in tools with the Claude Code shape each declares (`Tool.claude`): the names come
 * from the tools' own definitions, so a rule or matcher copied from a Claude Code setup
 * (`Bash(git status:*)`, `Write(src/**)`, `"matcher": "Edit|Write"`) names the same tool the
 * hook payload calls it.
 */
const BUILT_IN: ReadonlyArray<[string, ClaudeShape | undefined]> = [
  ["bash", BASH_CLAUDE as ClaudeShape],
  [readFileTool.name, readFileTool.claude as ClaudeShape | undefined],
  [writeFileTool.name, writeFileTool.claude as ClaudeShape | undefined],
  [editFileTool.name, editFileTool.claude as ClaudeShape | undefined],
  [globTool.name, globTool.claude as ClaudeShape | undefined],
  [grepTool.name, grepTool.claude as ClaudeShape | undefined],
  ["task", TASK_CLAUDE as ClaudeShape],
  ["todo_write", TODO_WRITE_CLAUDE as ClaudeShape],
  ["load_skill", LOAD_SKILL_CLAUDE as ClaudeShape],
];

/** Claude Code's name (and aliases) → hx's name, built from the tools' `claude` fields. */
export const CLAUDE_CODE_TOOL_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  BUILT_IN.flatMap(([hx, claude]) =>
    claude ? [claude.name, ...(claude.aliases ?? [])].map((n) => [n, hx]) : [],
  ),
);

/** hx's name for a tool named in settings: Claude Code's `Write` becomes `write_file`. */
export function canonicalToolName(name: string): string {
  return Object.hasOwn(CLAUDE_CODE_TOOL_NAMES, name) ? CLAUDE_CODE_TOOL_NAMES[name] : name;
}
