import type { Conversation } from "../core/conversation.js";
import { errorMessage } from "../core/error-message.js";
import { RunError } from "../core/errors.js";
import type { AgentEvent, AgentResult, EventSink } from "../core/events.js";
import { addUsage, type ToolCall, type ToolResultMessage, userMessage } from "../core/messages.js";
import { type AgentStats, emptyStats } from "../core/stats.js";
import type { ToolOutput } from "../core/tool.js";
import { type ModelProvider, ProviderError } from "../providers/provider.js";
import type { PreparedCall, ToolRegistry } from "../tools/registry.js";
import type { Workspace } from "../tools/workspace.js";
import type { LoopExtension, LoopState } from "./extension.js";

export interface AgentLoopConfig {
  provider: ModelProvider;
  /** Sent unchanged on every request, so providers can cache the prefix. */
  system: string;
  tools: ToolRegistry;
  workspace: Workspace;
  maxTurns: number;
  extensions: LoopExtension[];
  emit: EventSink;
  signal?: AbortSignal;
}

/** How many times onStop may send the model back to work in one run. */
const MAX_STOP_CONTINUATIONS = 3;

/**
 * The agent loop: send the conversation, run the tools the model asked for, append their
 * results, repeat until the model answers in text. Everything it adds goes through
 * `conversation.append`, so the caller keeps the history (the REPL sends it again with the
 * next prompt) and subscribers (the transcript) see each message.
 *
 * Never throws: provider failures end the run with `stop: "error"`.
 */
export async function runAgentLoop(
  config: AgentLoopConfig,
  conversation: Conversation,
): Promise<AgentResult> {
  const signal = config.signal ?? new AbortController().signal;
  const stats: AgentStats = emptyStats();
  const state: LoopState = { conversation, turn: 0, stats, emit: config.emit, signal };
  const finish = (result: Omit<AgentResult, "stats">): AgentResult => {
    const full = { ...result, stats };
    config.emit({ type: "end", result: full });
    return full;
  };

  let continuations = 0;
  let retriedAfterError = false;
  while (true) {
    if (signal.aborted) return finish({ text: "", stop: "aborted" });
    if (stats.turns >= config.maxTurns) {
      return finish({
        text: "",
        stop: "max_turns",
        error: new RunError(
          "max_turns",
          `Stopped after ${config.maxTurns} turns without a final answer.`,
          "Raise the limit with --max-turns N, or split the task.",
        ),
      });
    }

    await callExtensions(config, (ext) => ext.beforeModelCall?.(state));
    stats.turns += 1;
    state.turn = stats.turns;
    config.emit({ type: "turn_start", turn: stats.turns });

    let response: Awaited<ReturnType<ModelProvider["complete"]>>;
    try {
      response = await config.provider.complete(
        { system: config.system, messages: conversation.messages, tools: config.tools.schemas() },
        {
          signal,
          onDelta: (delta) => config.emit({ type: "delta", delta }),
          onRetry: (info) => config.emit({ type: "retry", ...info }),
        },
      );
    } catch (error) {
      const failure = toProviderError(error, signal);
      if (failure.kind === "aborted") return finish({ text: "", stop: "aborted", error: failure });
      if (!retriedAfterError) {
        const verdicts = await Promise.all(
          config.extensions.map((ext) => safely(config.emit, ext, () => ext.onModelError?.(failure, state))),
        );
        if (verdicts.includes("retry")) {
          retriedAfterError = true;
          stats.turns -= 1;
          continue;
        }
      }
      return finish({ text: "", stop: "error", error: failure });
    }
    retriedAfterError = false;

    const { message, usage } = response;
    stats.usage = addUsage(stats.usage, usage);
    conversation.append(message);
    config.emit({ type: "assistant_message", message, usage });
    const cut = response.stopReason === "length";
    if (cut) config.emit({ type: "notice", level: "warn", text: cutNotice(message.toolCalls.length > 0) });

    if (message.toolCalls.length === 0) {
      if (continuations < MAX_STOP_CONTINUATIONS) {
        const feedback = await firstResult(config, (ext) => ext.onStop?.(message.content, state));
        if (feedback) {
          continuations += 1;
          conversation.append(userMessage(feedback, { kind: "feedback" }));
          continue;
        }
      }
      return finish({ text: message.content, stop: cut ? "length" : "done" });
    }

    for (const call of message.toolCalls) {
      const result = signal.aborted
        ? cancelledResult(call)
        : await runToolCall(config, state, call).catch((error) => crashResult(call, error));
      conversation.append(result.message);
      config.emit({ type: "tool_result", call, result: result.message, blocked: result.blocked });
    }
  }
}

/**
 * One tool call: prepared, checked by every extension (a refusal becomes its result), run,
 * then passed through `afterToolCall`. The loop's step, also used for a call the user makes.
 */
export async function runToolCall(
  config: AgentLoopConfig,
  state: LoopState,
  call: ToolCall,
): Promise<{ message: ToolResultMessage; blocked: boolean }> {
  state.stats.toolCalls += 1;
  const prepared = config.tools.prepare(call);
  config.emit({ type: "tool_call", call, args: prepared.ok ? prepared.args : undefined });
  if (!prepared.ok)
    return { message: toolMessage(call, { content: prepared.error, isError: true }), blocked: false };

  for (const ext of config.extensions) {
    const decision = await safely(config.emit, ext, () => ext.beforeToolCall?.(prepared, state));
    if (decision) {
      state.stats.blocked += 1;
      return { message: toolMessage(call, { content: decision.block, isError: true }), blocked: true };
    }
  }

  let output = await config.tools.run(prepared, {
    workspace: config.workspace,
    signal: state.signal,
    callId: call.id,
    emit: config.emit,
  });
  output = await afterToolCall(config, prepared, output, state);
  return { message: toolMessage(call, output), blocked: false };
}

async function afterToolCall(
  config: AgentLoopConfig,
  prepared: PreparedCall,
  output: ToolOutput,
  state: LoopState,
): Promise<ToolOutput> {
  let current = output;
  for (const ext of config.extensions) {
    const replaced = await safely(config.emit, ext, () => ext.afterToolCall?.(prepared, current, state));
    if (replaced) current = replaced;
  }
  return current;
}

function toolMessage(call: ToolCall, output: ToolOutput): ToolResultMessage {
  const message: ToolResultMessage = {
    role: "tool",
    toolCallId: call.id,
    toolName: call.name,
    content: output.content,
  };
  if (output.isError) message.isError = true;
  if (output.meta) message.meta = output.meta;
  return message;
}

function cancelledResult(call: ToolCall) {
  return {
    message: toolMessage(call, {
      content: "Error: not run, the turn was cancelled by the user.",
      isError: true,
    }),
    blocked: false,
  };
}

function crashResult(call: ToolCall, error: unknown) {
  const text = errorMessage(error);
  return { message: toolMessage(call, { content: `Error: ${text}`, isError: true }), blocked: false };
}

async function callExtensions(config: AgentLoopConfig, call: (ext: LoopExtension) => unknown): Promise<void> {
  for (const ext of config.extensions) await safely(config.emit, ext, () => call(ext));
}

async function firstResult<T>(
  config: AgentLoopConfig,
  call: (ext: LoopExtension) => Promise<T | undefined> | T | undefined,
): Promise<T | undefined> {
  for (const ext of config.extensions) {
    const value = await safely(config.emit, ext, () => call(ext));
    if (value !== undefined && value !== null && value !== "") return value;
  }
  return undefined;
}

/** Runs one extension hook; a throw becomes a warning event, never a crash. */
async function safely<T>(
  emit: (event: AgentEvent) => void,
  ext: LoopExtension,
  fn: () => Promise<T> | T,
): Promise<T | undefined> {
  try {
    return await fn();
  } catch (error) {
    emit({
      type: "notice",
      level: "warn",
      text: `extension ${ext.name} failed: ${errorMessage(error)}`,
    });
    return undefined;
  }
}

function cutNotice(withToolCalls: boolean): string {
  return withToolCalls
    ? "the model hit its output limit while writing tool calls; their arguments may be cut off."
    : "the answer was cut off at the model's output limit; it is incomplete.";
}

function toProviderError(error: unknown, signal: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal.aborted) return new ProviderError("aborted", "Cancelled.");
  const message = errorMessage(error);
  return new ProviderError("network", `Model request failed: ${message}`);
}
