import type { BudgetExceeded } from "../budget/capability.js";
import type { AgentEvent, EventSink } from "../core/events.js";
import { type AgentStats, addStats } from "../core/stats.js";
import type { SessionRunResult } from "../session/agent-session.js";

/** Why a headless run ended, in Claude Code's words (`error_max_budget_tokens` is hx's own). */
export type ResultSubtype =
  | "success"
  | "error_max_turns"
  | "error_during_execution"
  | "error_max_budget_usd"
  | "error_max_budget_tokens"
  | "error_max_structured_output_retries";

/** A tool call the permission rules, the mode or a hook refused (Claude Code's shape). */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
}

/** Everything the result object says, gathered by the command. */
export interface HeadlessOutcome {
  result: SessionRunResult;
  subtype: ResultSubtype;
  sessionId: string;
  model: string;
  provider: string;
  durationMs: number;
  durationApiMs: number;
  /** Null when the model's price is unknown (a local model). */
  costUsd: number | null;
  denials: readonly PermissionDenial[];
  /** `--output-schema`: the parsed answer, or why the last answer did not fit. */
  structured?: { value: unknown } | { error: string };
  /** The signal that interrupted the run. */
  signal?: NodeJS.Signals;
  /** The budget the run stopped at. */
  budget?: BudgetExceeded;
  /** Session totals when no file was written (`--no-session-persistence`). */
  persisted: boolean;
  /** Background jobs still running when the answer came (hx ends them as it exits). */
  stillRunning?: ReadonlyArray<{ id: string; kind: string; command: string; runningMs: number }>;
}

/**
 * The object `--output-format json` prints, and the last line of `stream-json`: Claude Code's
 * result message (`type`, `subtype`, `is_error`, `duration_ms`, `duration_api_ms`, `num_turns`,
 * `result`, `session_id`, `total_cost_usd`, `usage`, `permission_denials`, `structured_output`)
 * with hx's own fields beside them. docs/headless.md lists every field.
 */
export function resultObject(outcome: HeadlessOutcome) {
  const { result } = outcome;
  return {
    type: "result" as const,
    subtype: outcome.subtype,
    is_error: outcome.subtype !== "success",
    duration_ms: outcome.durationMs,
    duration_api_ms: outcome.durationApiMs,
    num_turns: result.stats.turns,
    result: result.text,
    session_id: outcome.sessionId,
    total_cost_usd: outcome.costUsd,
    usage: usageJson(addStats(result.stats, result.subagentStats)),
    permission_denials: outcome.denials,
    ...(outcome.structured && "value" in outcome.structured
      ? { structured_output: outcome.structured.value }
      : {}),
    // hx's own fields
    stop: result.stop,
    model: outcome.model,
    provider: outcome.provider,
    turns: result.stats.turns,
    tool_calls: result.stats.toolCalls,
    blocked: result.stats.blocked,
    subagents: {
      turns: result.subagentStats.turns,
      tool_calls: result.subagentStats.toolCalls,
      blocked: result.subagentStats.blocked,
      usage: usageJson(result.subagentStats),
    },
    session_persisted: outcome.persisted,
    ...(outcome.stillRunning?.length
      ? {
          background_ended_with_hx: outcome.stillRunning.map((job) => ({
            id: job.id,
            kind: job.kind,
            command: job.command,
            running_ms: job.runningMs,
          })),
        }
      : {}),
    ...(outcome.signal ? { interrupted: true, signal: outcome.signal } : {}),
    ...(outcome.budget
      ? { budget: { kind: outcome.budget.kind, limit: outcome.budget.limit, spent: outcome.budget.spent } }
      : {}),
    ...(outcome.structured && "error" in outcome.structured
      ? { structured_output_error: outcome.structured.error }
      : {}),
    ...(result.refused ? { refused: result.refused } : {}),
    ...(result.error
      ? { error: { kind: result.error.kind, message: result.error.message, hint: result.error.hint } }
      : {}),
  };
}

/**
 * Claude Code's usage fields: `input_tokens` counts the prompt tokens neither read from nor
 * written to the cache; hx adds `total_input_tokens` (all of them) and `reasoning_tokens`.
 */
function usageJson(stats: AgentStats) {
  const u = stats.usage;
  return {
    input_tokens: Math.max(0, u.inputTokens - u.cachedInputTokens - u.cacheWriteTokens),
    cache_creation_input_tokens: u.cacheWriteTokens,
    cache_read_input_tokens: u.cachedInputTokens,
    output_tokens: u.outputTokens,
    total_input_tokens: u.inputTokens,
    reasoning_tokens: u.reasoningTokens,
  };
}

/** What the session is, for the first line of `stream-json` (Claude Code's `system/init`). */
export interface InitFacts {
  sessionId: string;
  cwd: string;
  model: string;
  provider: string;
  tools: readonly string[];
  mcpServers: ReadonlyArray<{ name: string; status: string }>;
  skills: readonly string[];
  slashCommands: readonly string[];
  permissionMode: string;
  version: string;
  persisted: boolean;
}

export function initEvent(facts: InitFacts) {
  return {
    type: "system" as const,
    subtype: "init" as const,
    session_id: facts.sessionId,
    cwd: facts.cwd,
    model: facts.model,
    tools: facts.tools,
    mcp_servers: facts.mcpServers,
    skills: facts.skills,
    slash_commands: facts.slashCommands,
    permissionMode: facts.permissionMode,
    // hx's own fields
    provider: facts.provider,
    hx_version: facts.version,
    session_persisted: facts.persisted,
  };
}

/**
 * `--output-format stream-json`: one JSON object per line for every event, so scripts and
 * editors can follow a run as it happens. The command writes the first (`system`/`init`) and
 * the last (`result`) line.
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
