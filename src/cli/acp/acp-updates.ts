// hx's events and messages as ACP `session/update`s. Pure mapping: no I/O, no SDK at run time
// (the SDK's types only).
import path from "node:path";
import type {
  AvailableCommand,
  PlanEntry,
  SessionUpdate,
  StopReason,
  ToolCallContent,
  ToolCallLocation,
  ToolKind,
} from "@agentclientprotocol/sdk";
import type { AgentEvent } from "../../core/events.js";
import type { Message, ToolCall, ToolResultMessage } from "../../core/messages.js";
import type { ToolEffect } from "../../core/tool.js";
import type { CallDescription, SessionRunResult } from "../../session/agent-session.js";

/** What the mapper needs from the session. */
export interface CallDescriber {
  describeCall(name: string, args: unknown): CallDescription | undefined;
  readonly workspace: { root: string };
}

/** Longest tool output sent in one update (the model's copy is bounded already; this is the editor's). */
const MAX_OUTPUT_CHARS = 40_000;

const KIND: Record<ToolEffect, ToolKind> = { read: "read", write: "edit", execute: "execute", none: "other" };

/**
 * Follows one run's events and says what the editor should see. `lastCallId` is the call
 * being checked right now (the loop admits calls one at a time, in order): a permission
 * question refers to it.
 */
export class EventMapper {
  lastCallId: string | undefined;
  private readonly calls = new Map<string, { description?: CallDescription; tool: string; args: unknown }>();

  constructor(private readonly session: CallDescriber) {}

  updates(event: AgentEvent): SessionUpdate[] {
    switch (event.type) {
      case "delta":
        return [
          {
            sessionUpdate: event.delta.type === "text" ? "agent_message_chunk" : "agent_thought_chunk",
            content: { type: "text", text: event.delta.text },
          },
        ];
      case "tool_call": {
        const tool = event.tool ?? event.call.name;
        const args = event.args ?? safeParse(event.call.arguments);
        const description = this.session.describeCall(tool, args);
        this.calls.set(event.call.id, { description, tool, args });
        this.lastCallId = event.call.id;
        return [
          {
            sessionUpdate: "tool_call",
            toolCallId: event.call.id,
            title: callTitle(tool, description),
            kind: description ? KIND[description.effect] : "other",
            status: "pending",
            locations: this.locations(description),
            content: this.diff(description),
            rawInput: args,
          },
        ];
      }
      case "tool_result": {
        const known = this.calls.get(event.call.id);
        const failed = Boolean(event.result.isError);
        const updates: SessionUpdate[] = [
          {
            sessionUpdate: "tool_call_update",
            toolCallId: event.call.id,
            status: failed ? "failed" : "completed",
            content: [...(!failed ? this.diff(known?.description) : []), textContent(event.result.content)],
            rawOutput: { content: clip(event.result.content), is_error: failed, blocked: event.blocked },
          },
        ];
        const plan = event.result.meta?.plan;
        if (plan && !failed) updates.push(planUpdate(plan));
        return updates;
      }
      case "retry":
        // ACP cannot take back streamed text: say that the answer starts again.
        return [
          {
            sessionUpdate: "agent_thought_chunk",
            content: { type: "text", text: `\n[${event.reason}; retrying, the answer starts again]\n` },
          },
        ];
      case "subagent": {
        // A subagent's tool calls are shown (its text is its answer to the `task` call, shown there).
        const inner = event.event;
        if (inner.type !== "tool_call" && inner.type !== "tool_result") return [];
        const call = { ...inner.call, id: `${event.label}/${inner.call.id}` };
        return this.updates({ ...inner, call }).map((update) =>
          update.sessionUpdate === "tool_call"
            ? { ...update, title: `${event.label}: ${update.title}` }
            : update,
        );
      }
      case "notice":
        // Compaction, spilled output, warnings: shown as the agent's thought, not its answer.
        return [
          { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `\n[${event.text}]\n` } },
        ];
      default:
        return [];
    }
  }

  /** The call being checked, as a permission question's `toolCall`. */
  questionCall(): { toolCallId: string; title?: string; kind?: ToolKind } | undefined {
    const id = this.lastCallId;
    if (!id) return undefined;
    const known = this.calls.get(id);
    return {
      toolCallId: id,
      title: known ? callTitle(known.tool, known.description) : undefined,
      kind: known?.description ? KIND[known.description.effect] : "other",
    };
  }

  private locations(description: CallDescription | undefined): ToolCallLocation[] {
    if (!description) return [];
    if (description.change) return [{ path: this.absolute(description.change.path) }];
    if (description.effect === "read" && description.subject)
      return [{ path: this.absolute(description.subject) }];
    return [];
  }

  private diff(description: CallDescription | undefined): ToolCallContent[] {
    const change = description?.change;
    if (!change) return [];
    return [
      {
        type: "diff",
        path: this.absolute(change.path),
        oldText: change.before === "" ? null : change.before,
        newText: change.after,
      },
    ];
  }

  private absolute(file: string): string {
    return path.resolve(this.session.workspace.root, file);
  }
}

function callTitle(tool: string, description: CallDescription | undefined): string {
  const subject = description?.subject;
  if (!subject) return tool;
  const short = subject.length > 120 ? `${subject.slice(0, 117)}...` : subject;
  return `${tool}: ${short}`;
}

function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text: clip(text) } };
}

function clip(text: string): string {
  return text.length > MAX_OUTPUT_CHARS
    ? `${text.slice(0, MAX_OUTPUT_CHARS)}\n[… ${text.length - MAX_OUTPUT_CHARS} more characters]`
    : text;
}

function safeParse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

function planUpdate(plan: NonNullable<NonNullable<ToolResultMessage["meta"]>["plan"]>): SessionUpdate {
  const entries: PlanEntry[] = plan.map((item) => ({
    content: item.content,
    status: item.status,
    priority: "medium",
  }));
  return { sessionUpdate: "plan", entries };
}

/** A saved history as the updates an editor replays on `session/load`. */
export function replayUpdates(messages: readonly Message[], session: CallDescriber): SessionUpdate[] {
  const mapper = new EventMapper(session);
  const updates: SessionUpdate[] = [];
  const calls = new Map<string, ToolCall>();
  for (const message of messages) {
    if (message.role === "user") {
      // What hx itself added (reminders, summaries, feedback) is not the user's.
      if (message.meta?.kind) continue;
      updates.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: message.content } });
    } else if (message.role === "assistant") {
      if (message.reasoning?.text) {
        updates.push({
          sessionUpdate: "agent_thought_chunk",
          content: { type: "text", text: message.reasoning.text },
        });
      }
      if (message.content) {
        updates.push({
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: message.content },
        });
      }
      for (const call of message.toolCalls) {
        calls.set(call.id, call);
        updates.push(...mapper.updates({ type: "tool_call", call, args: safeParse(call.arguments) }));
      }
    } else {
      const call = calls.get(message.toolCallId) ?? {
        id: message.toolCallId,
        name: message.toolName,
        arguments: "{}",
      };
      updates.push(...mapper.updates({ type: "tool_result", call, result: message, blocked: false }));
    }
  }
  return updates;
}

/** How a prompt ended, as ACP says it. */
export function stopReason(result: SessionRunResult): StopReason {
  if (result.refused) return "refusal";
  switch (result.stop) {
    case "length":
      return "max_tokens";
    case "max_turns":
      return "max_turn_requests";
    case "aborted":
      return "cancelled";
    default:
      return "end_turn";
  }
}

/** The session's `/commands` and user-invocable skills, for `available_commands_update`. */
export function availableCommands(
  commands: ReadonlyArray<{ name: string; description: string; argumentHint?: string }>,
): AvailableCommand[] {
  return commands.map((command) => ({
    name: command.name,
    description: command.description,
    ...(command.argumentHint ? { input: { hint: command.argumentHint } } : {}),
  }));
}
