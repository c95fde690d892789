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
import type { LoopExtension, LoopState, ToolDecision } from "./extension.js";

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
  let endedBy: string | undefined;
  const state: LoopState = {
    conversation,
    turn: 0,
    stats,
    emit: config.emit,
    signal,
    endRun: (reason) => {
      endedBy ??= reason;
    },
  };
  const finish = (result: Omit<AgentResult, "stats">): AgentResult => {
    const full = { ...result, stats };
    config.emit({ type: "end", result: full });
    return full;
  };
  const ended = (reason: string) => finish({ text: "", stop: "ended", error: new RunError("ended", reason) });

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
    if (endedBy !== undefined) return ended(endedBy);
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
        if (endedBy !== undefined) return ended(endedBy);
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
        if (endedBy !== undefined) return finish({ text: message.content, stop: cut ? "length" : "done" });
        if (feedback) {
          continuations += 1;
          conversation.append(userMessage(feedback, { kind: "feedback" }));
          continue;
        }
      }
      if (!cut && message.content.trim() === "") {
        config.emit({ type: "notice", level: "warn", text: "the model ended its turn without an answer" });
      }
      return finish({ text: message.content, stop: cut ? "length" : "done" });
    }

    for (const batch of readOnlyBatches(config.tools, message.toolCalls)) {
      const results = await runToolCalls(config, state, batch, () => endedBy);
      batch.forEach((call, i) => {
        conversation.append(results[i].message);
        config.emit({ type: "tool_result", call, result: results[i].message, blocked: results[i].blocked });
      });
    }
    if (endedBy !== undefined) return ended(endedBy);
  }
}

interface CallResult {
  message: ToolResultMessage;
  blocked: boolean;
}

/**
 * The calls of one turn in runs that may go together: consecutive calls of tools whose
 * declared effect is "read" form one run; any other call is a run of its own, so a read
 * after a write sees the write.
 */
function readOnlyBatches(tools: ToolRegistry, calls: readonly ToolCall[]): ToolCall[][] {
  const batches: ToolCall[][] = [];
  let reads: ToolCall[] = [];
  for (const call of calls) {
    if (tools.get(call.name)?.effect === "read") {
      reads.push(call);
      continue;
    }
    if (reads.length > 0) batches.push(reads);
    reads = [];
    batches.push([call]);
  }
  if (reads.length > 0) batches.push(reads);
  return batches;
}

/**
 * Runs a batch: each call is checked in call order (arguments, permissions, hooks: one
 * question at a time), the admitted ones run concurrently, and their results pass the
 * after-call extensions in call order. Results come back in call order.
 */
async function runToolCalls(
  config: AgentLoopConfig,
  state: LoopState,
  calls: ToolCall[],
  endedBy: () => string | undefined,
): Promise<CallResult[]> {
  const admitted: Array<CallResult | PreparedCall> = [];
  for (const call of calls) {
    const reason = endedBy();
    admitted.push(
      state.signal.aborted
        ? cancelledResult(call)
        : reason !== undefined
          ? notRunResult(call, reason)
          : await admitToolCall(config, state, call).catch((error) => crashResult(call, error)),
    );
  }
  const outputs = await Promise.all(
    admitted.map((entry) =>
      "ok" in entry
        ? config.tools.run(entry, {
            workspace: config.workspace,
            signal: state.signal,
            callId: entry.call.id,
            emit: config.emit,
          })
        : undefined,
    ),
  );
  const results: CallResult[] = [];
  for (const [i, entry] of admitted.entries()) {
    const output = outputs[i];
    if (!("ok" in entry) || !output) {
      results.push(entry as CallResult);
      continue;
    }
    const final = await afterToolCall(config, entry, output, state).catch((error) => crashOutput(error));
    results.push({ message: toolMessage(entry.call, final), blocked: false });
  }
  return results;
}

/**
 * One tool call outside a run (a call the user makes): prepared, checked by every extension
 * (a refusal becomes its result), run, then passed through `afterToolCall`, exactly as the
 * loop's own calls. The conversation is read, not changed.
 */
export async function runToolCall(
  config: AgentLoopConfig,
  conversation: Conversation,
  call: ToolCall,
): Promise<CallResult> {
  const state: LoopState = {
    conversation,
    turn: 0,
    stats: emptyStats(),
    emit: config.emit,
    signal: config.signal ?? new AbortController().signal,
    // A single call has nothing after it to stop.
    endRun: () => {},
  };
  const [result] = await runToolCalls(config, state, [call], () => undefined);
  return result;
}

/** Checks one call: its arguments, then every extension's verdict (a block is a result). */
async function admitToolCall(
  config: AgentLoopConfig,
  state: LoopState,
  call: ToolCall,
): Promise<PreparedCall | CallResult> {
  state.stats.toolCalls += 1;
  const prepared = config.tools.prepare(call);
  config.emit({
    type: "tool_call",
    call,
    args: prepared.ok ? prepared.args : undefined,
    ...(prepared.ok && prepared.tool.name !== call.name ? { tool: prepared.tool.name } : {}),
  });
  if (!prepared.ok)
    return { message: toolMessage(call, { content: prepared.error, isError: true }), blocked: false };

  for (const ext of config.extensions) {
    const decision = await checkCall(config.emit, ext, prepared, state);
    if (decision) {
      state.stats.blocked += 1;
      return { message: toolMessage(call, { content: decision.block, isError: true }), blocked: true };
    }
  }
  return prepared;
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

function cancelledResult(call: ToolCall): CallResult {
  return {
    message: toolMessage(call, {
      content: "Error: not run, the turn was cancelled by the user.",
      isError: true,
    }),
    blocked: false,
  };
}

function notRunResult(call: ToolCall, reason: string): CallResult {
  return {
    message: toolMessage(call, { content: `Error: not run, the run was ended. ${reason}`, isError: true }),
    blocked: false,
  };
}

function crashResult(call: ToolCall, error: unknown): CallResult {
  return { message: toolMessage(call, crashOutput(error)), blocked: false };
}

function crashOutput(error: unknown): ToolOutput {
  return { content: `Error: ${errorMessage(error)}`, isError: true };
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

/**
 * One extension's verdict on a call. A check that throws blocks the call: what the permission
 * check (or a hook) could not decide is never let through.
 */
async function checkCall(
  emit: (event: AgentEvent) => void,
  ext: LoopExtension,
  prepared: PreparedCall,
  state: LoopState,
): Promise<ToolDecision> {
  try {
    return await ext.beforeToolCall?.(prepared, state);
  } catch (error) {
    const reason = errorMessage(error);
    emit({ type: "notice", level: "warn", text: `extension ${ext.name} failed: ${reason}` });
    return {
      block: `Error: not run: the ${ext.name} check failed (${reason}), so the call was refused. Try another way, or tell the user.`,
    };
  }
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
