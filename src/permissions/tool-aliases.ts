/**
 * Claude Code's names for the tools hx has under other names, so rules and hook matchers
 * copied from a Claude Code setup (`Bash(git status:*)`, `Write(src/**)`, `"matcher": "Edit|Write"`)
 * apply to hx's tools. Only these exact spellings are translated; hx's own names work as they are.
 */
export const CLAUDE_CODE_TOOL_NAMES: Readonly<Record<string, string>> = {
  Bash: "bash",
  Read: "read_file",
  Write: "write_file",
  Edit: "edit_file",
  MultiEdit: "edit_file",
  Glob: "glob",
  Grep: "grep",
  Task: "task",
  TodoWrite: "todo_write",
};

/** hx's name for a tool named in settings: Claude Code's `Write` becomes `write_file`. */
export function canonicalToolName(name: string): string {
  return Object.hasOwn(CLAUDE_CODE_TOOL_NAMES, name) ? CLAUDE_CODE_TOOL_NAMES[name] : name;
}
