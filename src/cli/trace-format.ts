import type { ToolCall } from "../core/messages.js";
import type { AgentStats } from "../core/stats.js";

const MAX_VALUE_CHARS = 80;

/**
 * The trace line for a tool call, `> tool_name key=value ...`, built from the arguments alone
 * (no tool is special-cased). Unparsed arguments are shown raw.
 */
export function formatToolCallTrace(call: ToolCall, args: unknown): string {
  if (args === undefined || args === null || typeof args !== "object" || Array.isArray(args)) {
    const raw = call.arguments.trim();
    return raw ? `> ${call.name} ${shorten(raw)}` : `> ${call.name}`;
  }
  const parts = Object.entries(args as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${formatValue(value)}`);
  return parts.length ? `> ${call.name} ${parts.join(" ")}` : `> ${call.name}`;
}

function formatValue(value: unknown): string {
  if (typeof value === "string") {
    const lines = value.split("\n");
    const first = lines[0] ?? "";
    const text = lines.length > 1 ? `${first}…(+${lines.length - 1} lines)` : first;
    return shorten(/[\s"=]/.test(first) || first === "" ? JSON.stringify(text) : text);
  }
  return shorten(JSON.stringify(value) ?? String(value));
}

function shorten(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** The closing stats line: `turns=N tool_calls=N blocked=N` plus token usage. */
export function formatStatsLine(stats: AgentStats, subagents?: AgentStats): string {
  const u = stats.usage;
  let line =
    `turns=${stats.turns} tool_calls=${stats.toolCalls} blocked=${stats.blocked}` +
    ` tokens: input=${u.inputTokens} cached=${u.cachedInputTokens} output=${u.outputTokens}`;
  if (u.reasoningTokens) line += ` reasoning=${u.reasoningTokens}`;
  if (subagents && subagents.turns > 0) {
    const s = subagents.usage;
    line +=
      ` | subagents: turns=${subagents.turns} tool_calls=${subagents.toolCalls} blocked=${subagents.blocked}` +
      ` tokens: input=${s.inputTokens} cached=${s.cachedInputTokens} output=${s.outputTokens}`;
  }
  return line;
}
