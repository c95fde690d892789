import type { Conversation } from "../core/conversation.js";
import { errorMessage } from "../core/error-message.js";
import { RunError } from "../core/errors.js";
import type { AgentResult } from "../core/events.js";
import { addUsage, userMessage } from "../core/messages.js";
import { type ModelProvider, ProviderError } from "../providers/provider.js";
import { callExtensions, firstResult } from "./extension-calls.js";
import { forHistory } from "./history-arguments.js";
import { type AgentLoopConfig, newLoopState } from "./loop-config.js";
import { readOnlyBatches, runToolCalls } from "./tool-calls.js";

/** How many times onStop may send the model back to work in one run, unless the config says. */
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
  let endedBy: string | undefined;
  const state = newLoopState(config, conversation, (reason) => {
    endedBy ??= reason;
  });
  const { stats, signal } = state;
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

    await config.tools.ready(); // schemas of tools added since the last request
    // An extension that ends the run (a budget) stops the round: no compaction request after it.
    await callExtensions(
      config,
      (ext) => ext.beforeModelCall?.(state),
      () => endedBy !== undefined,
    );
    if (endedBy !== undefined) return ended(endedBy);
    // A request sent again after a model error is the same turn, not a new one.
    if (!retriedAfterError) stats.turns += 1;
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
        // In order, as every other extension point: each sees what the ones before it did.
        let retry = false;
        await callExtensions(
          config,
          async (ext) => {
            if ((await ext.onModelError?.(failure, state)) === "retry") retry = true;
          },
          () => endedBy !== undefined,
        );
        if (endedBy !== undefined) return ended(endedBy);
        if (retry) {
          retriedAfterError = true;
          continue;
        }
      }
      return finish({ text: "", stop: "error", error: failure });
    }
    retriedAfterError = false;

    const { message, usage } = response;
    stats.usage = addUsage(stats.usage, usage);
    // The history keeps oversized tool-call arguments cut; the calls below run with them whole.
    conversation.append(forHistory(message));
    config.emit({ type: "assistant_message", message, usage });
    const cut = response.stopReason === "length";
    if (cut) config.emit({ type: "notice", level: "warn", text: cutNotice(message.toolCalls.length > 0) });

    if (message.toolCalls.length === 0) {
      if (continuations < (config.maxStopContinuations ?? MAX_STOP_CONTINUATIONS)) {
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
