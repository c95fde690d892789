import type { Conversation } from "../core/conversation.js";
import { errorMessage } from "../core/error-message.js";
import type { ToolCall, ToolResultMessage } from "../core/messages.js";
import { type Grant, type ToolOutput, toolError } from "../core/tool.js";
import type { PreparedCall, ToolRegistry } from "../tools/registry.js";
import type { ToolContext } from "../tools/tool.js";
import type { LoopState } from "./extension.js";
import { checkCall, firstResult, safely } from "./extension-calls.js";
import { type AgentLoopConfig, newLoopState } from "./loop-config.js";

/*
 * Running the tool calls of one turn: each is checked (arguments, then every extension's
 * verdict), the admitted ones run, and their outputs pass the after-call extensions before
 * they become result messages. The loop appends those messages; nothing here changes history.
 */

/** A call's result message; `blocked` when an extension refused it. */
export interface CallResult {
  message: ToolResultMessage;
  blocked: boolean;
}

/**
 * The calls of one turn in runs that may go together: consecutive calls of tools whose
 * declared effect is "read" form one run; any other call is a run of its own, so a read
 * after a write sees the write.
 */
export function readOnlyBatches(tools: ToolRegistry, calls: readonly ToolCall[]): ToolCall[][] {
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
export async function runToolCalls(
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
    admitted.map((entry) => ("ok" in entry ? runAdmitted(config, state, entry) : undefined)),
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
 * Runs an admitted call; when the OS sandbox refused what it tried, the extensions (the
 * permissions' question) may grant one re-run with more. The model never sees the offer, only
 * the outcome: the re-run's output, or the refusal.
 */
async function runAdmitted(
  config: AgentLoopConfig,
  state: LoopState,
  prepared: PreparedCall,
): Promise<ToolOutput> {
  const context = (grant?: Grant): ToolContext => ({
    workspace: config.workspace,
    signal: state.signal,
    callId: prepared.call.id,
    emit: config.emit,
    ...(grant ? { grant } : {}),
  });
  const { escalation, ...output } = await config.tools.run(prepared, context());
  if (!escalation || state.signal.aborted) return output;
  const answer = await firstResult(config, (ext) => ext.onEscalation?.(prepared, escalation, state));
  if (!answer) return output;
  if ("instead" in answer)
    return {
      ...output,
      content: `${output.content}\n\nThe user did not let it run again and says: ${answer.instead}`,
    };
  const { escalation: _again, ...rerun } = await config.tools.run(prepared, context(answer));
  return rerun;
}

/**
 * One tool call outside a run (a command a skill's body runs): prepared, checked by every
 * extension (a refusal becomes its result), run, then passed through `afterToolCall`, exactly
 * as the loop's own calls. The conversation is read, not changed.
 */
export async function runToolCall(
  config: AgentLoopConfig,
  conversation: Conversation,
  call: ToolCall,
): Promise<CallResult> {
  // A single call has nothing after it to stop.
  const state = newLoopState(config, conversation, () => {});
  const [result] = await runToolCalls(config, state, [call], () => undefined);
  return result;
}

/**
 * A call the user makes themselves (`!cmd`): prepared and run as it is, with no extension
 * consulted — no permission question, rule or hook stands between the user and their own
 * command; whatever the tool itself holds (the bash tool's OS sandbox) still applies. Its
 * `tool_call` and progress events go to `config.emit`; the conversation is not changed.
 */
export async function runUserCall(config: AgentLoopConfig, call: ToolCall): Promise<CallResult> {
  const prepared = await config.tools.prepare(call, config.signal);
  config.emit({ type: "tool_call", call, args: prepared.ok ? prepared.args : undefined });
  if (!prepared.ok)
    return { message: toolMessage(call, { content: prepared.error, isError: true }), blocked: false };
  const output = await config.tools.run(prepared, {
    workspace: config.workspace,
    signal: config.signal ?? new AbortController().signal,
    callId: call.id,
    emit: config.emit,
  });
  return { message: toolMessage(call, output), blocked: false };
}

/** Checks one call: its arguments, then every extension's verdict (a block is a result). */
async function admitToolCall(
  config: AgentLoopConfig,
  state: LoopState,
  call: ToolCall,
): Promise<PreparedCall | CallResult> {
  state.stats.toolCalls += 1;
  const prepared = await config.tools.prepare(call, config.signal);
  config.emit({
    type: "tool_call",
    call,
    args: prepared.ok ? prepared.args : undefined,
    ...(prepared.ok && prepared.tool.name !== call.name ? { tool: prepared.tool.name } : {}),
  });
  if (!prepared.ok)
    return { message: toolMessage(call, { content: prepared.error, isError: true }), blocked: false };

  let current = prepared;
  for (const ext of config.extensions) {
    const decision = await checkCall(config.emit, ext, current, state);
    if (decision && "args" in decision) {
      // A routed call (an MCP proxy) is prepared again by the tool it names, when that one is registered.
      const name = config.tools.get(current.tool.name) ? current.tool.name : call.name;
      const replaced = await config.tools.prepare(
        { ...call, name, arguments: JSON.stringify(decision.args ?? {}) },
        config.signal,
      );
      if (!replaced.ok) {
        const output = toolError(
          `the ${ext.name} extension changed the arguments and they no longer fit the tool: ${replaced.error}`,
        );
        return { message: toolMessage(call, output), blocked: false };
      }
      current = { ...replaced, original: current.original ?? current };
      continue;
    }
    if (decision) {
      state.stats.blocked += 1;
      return { message: toolMessage(call, { content: decision.block, isError: true }), blocked: true };
    }
  }
  return current;
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
  if (output.images?.length) message.images = output.images;
  if (output.meta) message.meta = output.meta;
  return message;
}

function cancelledResult(call: ToolCall): CallResult {
  return {
    message: toolMessage(call, toolError("not run, the turn was cancelled by the user.")),
    blocked: false,
  };
}

function notRunResult(call: ToolCall, reason: string): CallResult {
  return {
    message: toolMessage(call, toolError(`not run, the run was ended. ${reason}`)),
    blocked: false,
  };
}

function crashResult(call: ToolCall, error: unknown): CallResult {
  return { message: toolMessage(call, crashOutput(error)), blocked: false };
}

function crashOutput(error: unknown): ToolOutput {
  return toolError(errorMessage(error));
}
