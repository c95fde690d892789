// What the conversation part of the full screen shows, as data: one entry per prompt, answer,
// reasoning, tool call, subagent and line of hx's own. Agent events change it; the components in
// transcript-view.ts draw it. Nothing here knows the terminal.
import type { AgentEvent } from "../../core/events.js";
import type { Message, ToolCall } from "../../core/messages.js";
import type { FileChange } from "../../tools/file-change.js";
import { LiveOutput } from "./live-output.js";
import { screenText } from "./screen-text.js";

/** Finds the file change a call will make (for the diff under it), before it runs. */
export type ChangePreview = (name: string, args: unknown) => FileChange | undefined;

export interface ToolResultShown {
  /** Already made safe for the screen. */
  content: string;
  isError: boolean;
  blocked: boolean;
}

export interface ToolEntry {
  kind: "tool";
  call: ToolCall;
  args: unknown;
  /** The diff drawn under a file change. */
  change?: FileChange;
  indent: string;
  /** What the call printed while running; dropped once it is done. */
  live?: LiveOutput;
  result?: ToolResultShown;
}

export interface SubagentEntry {
  kind: "subagent";
  label: string;
  indent: string;
  entries: Entry[];
}

export type TextEntry =
  | { kind: "user"; text: string }
  /** As the model sent it (made safe when drawn: an escape sequence may span two deltas). */
  | { kind: "answer"; text: string }
  | { kind: "reasoning"; text: string }
  /** hx's own lines, each cut at the screen's width. */
  | { kind: "line"; level: LineLevel; text: string }
  /** Text a command printed, wrapped. */
  | { kind: "print"; text: string };

export type Entry = TextEntry | ToolEntry | SubagentEntry;
export type LineLevel = "info" | "warn" | "error";

export interface TranscriptState {
  entries: Entry[];
  /** The answer and the reasoning being streamed, until the message ends. */
  answer?: { kind: "answer"; text: string };
  reasoning?: { kind: "reasoning"; text: string };
  /** What this turn has put on screen since its last model request began (a retry drops it). */
  partial: Entry[];
  /** Running and finished calls by id (results and progress find their block). */
  tools: Map<string, ToolEntry>;
  /** hx's lines shown since the last tool call began (the todo list a tool prints, ...). */
  infoSinceCall: string[];
  /** The running subagents, by label. */
  subagents: Map<string, SubagentEntry>;
}

export function createTranscript(): TranscriptState {
  return { entries: [], partial: [], tools: new Map(), infoSinceCall: [], subagents: new Map() };
}

/** Empties the transcript (/clear). */
export function clearTranscript(t: TranscriptState): void {
  Object.assign(t, createTranscript());
}

/** Where an event's entries go: the top level, or a subagent's list. */
interface Target {
  indent: string;
  into?: SubagentEntry;
}

const TOP: Target = { indent: "" };

function add(t: TranscriptState, entry: Entry, target: Target = TOP): void {
  if (target.into) {
    target.into.entries.push(entry);
    return;
  }
  t.entries.push(entry);
  t.partial.push(entry);
}

/** A prompt the user sent. */
export function addUser(t: TranscriptState, text: string): void {
  t.entries.push({ kind: "user", text: screenText(text) });
}

/** A line of hx's own. */
export function addLine(t: TranscriptState, level: LineLevel, text: string, target: Target = TOP): void {
  if (level === "info") t.infoSinceCall.push(text);
  add(t, { kind: "line", level, text: screenText(text) }, target);
}

/** Text a command printed (wrapped, not cut). */
export function addPrint(t: TranscriptState, text: string): void {
  add(t, { kind: "print", text: screenText(text) });
}

function endMessage(t: TranscriptState): void {
  t.answer = undefined;
  t.reasoning = undefined;
}

function appendAnswer(t: TranscriptState, text: string): void {
  t.reasoning = undefined;
  if (!t.answer) {
    t.answer = { kind: "answer", text: "" };
    add(t, t.answer);
  }
  t.answer.text += text;
}

function appendReasoning(t: TranscriptState, text: string): void {
  if (!t.reasoning) {
    t.reasoning = { kind: "reasoning", text: "" };
    add(t, t.reasoning);
  }
  t.reasoning.text += text;
}

/** A retried request starts over: what its first attempt streamed is taken off the screen. */
function discardPartial(t: TranscriptState): void {
  const dropped = new Set(t.partial);
  t.entries = t.entries.filter((entry) => !dropped.has(entry));
  t.partial = [];
  endMessage(t);
}

function startCall(
  t: TranscriptState,
  event: Extract<AgentEvent, { type: "tool_call" }>,
  preview: ChangePreview,
  target: Target,
): void {
  endMessage(t);
  const entry: ToolEntry = {
    kind: "tool",
    call: event.call,
    args: event.args,
    change: preview(event.call.name, event.args),
    indent: target.indent,
  };
  t.tools.set(event.call.id, entry);
  add(t, entry, target);
  t.infoSinceCall = [];
}

function progress(t: TranscriptState, callId: string, text: string): void {
  const entry = t.tools.get(callId);
  if (!entry || entry.result) return;
  entry.live ??= new LiveOutput();
  entry.live.append(text);
}

function finishCall(t: TranscriptState, callId: string, result: ToolResultShown): void {
  const entry = t.tools.get(callId);
  if (!entry) return;
  entry.result = { ...result, content: screenText(result.content) };
  entry.live = undefined;
}

function subagentEvent(
  t: TranscriptState,
  event: Extract<AgentEvent, { type: "subagent" }>,
  preview: ChangePreview,
  target: Target,
): void {
  let entry = t.subagents.get(event.label);
  if (!entry) {
    entry = { kind: "subagent", label: screenText(event.label), indent: target.indent, entries: [] };
    add(t, entry, target);
    t.subagents.set(event.label, entry);
  }
  applyEvent(t, event.event, preview, { indent: `${target.indent}  `, into: entry });
  if (event.event.type === "end") t.subagents.delete(event.label);
}

/** What an agent event changes on screen; a subagent's events go indented under its task. */
export function applyEvent(
  t: TranscriptState,
  event: AgentEvent,
  preview: ChangePreview,
  target: Target = TOP,
): void {
  const top = !target.into;
  switch (event.type) {
    case "turn_start":
      if (top) t.partial = [];
      return;
    case "delta":
      if (!top) return;
      if (event.delta.type === "reasoning") appendReasoning(t, event.delta.text);
      else appendAnswer(t, event.delta.text);
      return;
    case "assistant_message":
      if (!top) return;
      // Providers that do not stream still send the whole message.
      if (!t.answer && event.message.content) appendAnswer(t, event.message.content);
      endMessage(t);
      return;
    case "tool_call":
      startCall(t, event, preview, target);
      return;
    case "tool_progress":
      progress(t, event.callId, event.text);
      return;
    case "tool_result": {
      // A result the tool already put on screen (the todo list) is not shown twice.
      const shown = t.infoSinceCall.includes(event.result.content);
      finishCall(t, event.call.id, {
        content: shown ? "" : event.result.content,
        isError: event.result.isError === true,
        blocked: event.blocked,
      });
      return;
    }
    case "retry":
      if (top) discardPartial(t);
      addLine(
        t,
        "warn",
        `${target.indent}retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt}): ${event.reason}`,
        target,
      );
      return;
    case "notice":
      if (event.level === "warn") addLine(t, "warn", `${target.indent}warning: ${event.text}`, target);
      else addLine(t, "info", `${target.indent}${event.text}`, target);
      return;
    case "subagent":
      subagentEvent(t, event, preview, target);
      return;
    case "end":
      endMessage(t);
      return;
  }
}

/** A saved conversation (after /resume, --continue): prompts, answers and tool calls. */
export function showMessages(t: TranscriptState, messages: readonly Message[]): void {
  for (const message of messages) {
    if (message.role === "user") addUser(t, message.content);
    else if (message.role === "assistant") {
      if (message.content) t.entries.push({ kind: "answer", text: message.content });
      for (const call of message.toolCalls) {
        const entry: ToolEntry = { kind: "tool", call, args: parseArgs(call.arguments), indent: "" };
        t.tools.set(call.id, entry);
        t.entries.push(entry);
      }
    } else {
      finishCall(t, message.toolCallId, {
        content: message.content,
        isError: message.isError === true,
        blocked: false,
      });
    }
  }
  t.answer = undefined;
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
