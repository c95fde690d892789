import type { AgentStats } from "../core/stats.js";

/**
 * The built-in log hook's lines, exactly as the seed prints them:
 * `[HOOK] UserPromptSubmit cwd=/path`, `[HOOK] PreToolUse load_skill({"name":"sync-upstream"})`,
 * `[HOOK] PostToolUse load_skill output_chars=833`, `[HOOK] Stop: turns=2, tool_calls=1, blocked=0`.
 */
export const hookLogLine = {
  userPromptSubmit: (cwd: string) => `[HOOK] UserPromptSubmit cwd=${cwd}`,
  preToolUse: (tool: string, args: unknown) => `[HOOK] PreToolUse ${tool}(${safeJson(args)})`,
  postToolUse: (tool: string, output: string) => `[HOOK] PostToolUse ${tool} output_chars=${output.length}`,
  stop: (stats: AgentStats) => `[HOOK] Stop: ${statsText(stats)}`,
  subagentStop: (stats: AgentStats) => `[HOOK] SubagentStop: ${statsText(stats)}`,
};

function statsText(stats: AgentStats): string {
  return `turns=${stats.turns}, tool_calls=${stats.toolCalls}, blocked=${stats.blocked}`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}
