import type { AgentEvent, EventSink } from "../core/events.js";
import type { AgentStats } from "../core/stats.js";
import type { SessionRunResult } from "../session/agent-session.js";

/** The object `--output-format json` prints, and the last line of `stream-json`. */
export function resultSummary(result: SessionRunResult) {
  return {
    result: result.text,
    stop: result.stop,
    turns: result.stats.turns,
    tool_calls: result.stats.toolCalls,
    blocked: result.stats.blocked,
    usage: usageJson(result.stats),
    subagents: {
      turns: result.subagentStats.turns,
      tool_calls: result.subagentStats.toolCalls,
      blocked: result.subagentStats.blocked,
      usage: usageJson(result.subagentStats),
    },
    ...(result.refused ? { refused: result.refused } : {}),
    ...(result.error
      ? { error: { kind: result.error.kind, message: result.error.message, hint: result.error.hint } }
      : {}),
  };
}

function usageJson(stats: AgentStats) {
  const u = stats.usage;
  return {
    input_tokens: u.inputTokens,
    cached_input_tokens: u.cachedInputTokens,
    cache_write_tokens: u.cacheWriteTokens,
    output_tokens: u.outputTokens,
    reasoning_tokens: u.reasoningTokens,
  };
}

/**
 * `--output-format stream-json`: one JSON object per line for every event, so scripts and
 * editors can follow a run as it happens. The final `end` event is written by the command.
 */
export function createStreamJsonSink(out: NodeJS.WritableStream): EventSink {
  return (event) => {
    const line = streamJsonEvent(event);
    if (line) out.write(`${JSON.stringify(line)}\n`);
  };
}

function streamJsonEvent(event: AgentEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case "delta":
      return { type: event.delta.type === "text" ? "text_delta" : "reasoning_delta", text: event.delta.text };
    case "end":
      return undefined;
    case "subagent": {
      const inner = streamJsonEvent(event.event);
      return inner ? { ...inner, subagent: event.label } : undefined;
    }
    case "assistant_message":
      return { type: "assistant_message", message: event.message, usage: event.usage };
    case "tool_call":
      return {
        type: "tool_call",
        id: event.call.id,
        name: event.call.name,
        arguments: event.args ?? event.call.arguments,
        ...(event.tool ? { tool: event.tool } : {}),
      };
    case "tool_result":
      return {
        type: "tool_result",
        id: event.call.id,
        name: event.call.name,
        content: event.result.content,
        is_error: Boolean(event.result.isError),
        blocked: event.blocked,
      };
    default:
      return { ...event };
  }
}
