import type { ToolImage, ToolResultMeta } from "./messages.js";

/**
 * What a call does to the world. Permission modes decide on this, never on tool names:
 * `read` never changes anything, `write` changes files, `execute` runs programs,
 * `none` touches nothing outside the conversation (todo lists, skills).
 */
export type ToolEffect = "read" | "write" | "execute" | "none";

/** What a tool returns: text for the model, optionally marked as an error, and facts about it. */
export interface ToolOutput {
  content: string;
  /** Images for models that take them (the provider decides); `content` should note each. */
  images?: ToolImage[];
  isError?: boolean;
  /**
   * The exit code of the command the tool ran (bash), when it exited. A non-zero code is a
   * failed call for hooks (`PostToolUseFailure`, as in Claude Code); the model reads it in
   * `content`.
   */
  exitCode?: number;
  /** Kept on the tool-result message (never sent to the model), e.g. which skill it carries. */
  meta?: ToolResultMeta;
  /**
   * Set when the OS sandbox refused what the call tried (a write, the network): the user may
   * grant a re-run (tool-calls.ts asks the extensions), never the model. Not part of the
   * result message.
   */
  escalation?: Escalation;
}

/** What the OS sandbox refused a call, for the question that offers a re-run with more. */
export interface Escalation {
  /** What was refused, for the question: "a write to /tmp/x (Read-only file system)". */
  refused: string;
  /** What "for the session" adds, when the refusal names it: a folder to write, or the network. */
  session?: { writable: string } | { network: true };
}

/**
 * What the user granted a refused call's re-run: outside the sandbox this once, or the
 * escalation's `session` addition for the rest of the session (then in the sandbox).
 */
export type Grant = { scope: "once" } | { scope: "session"; escalation: Escalation };

/** A tool as the model sees it: name, description and JSON Schema of its arguments. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * A tool error with a message written for the model. Give the sentence alone
 * (`file not found: x. Use glob to find the right path.`); the message gets the `Error: `
 * prefix the model reads on every failed call.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(toolErrorText(message));
    this.name = "ToolError";
  }
}

/**
 * The text of a failed call as the model reads it: `Error: ` and the sentence. The one way
 * to write a model-facing error, whether a tool throws (`ToolError`) or returns one
 * (`toolError`); never write the prefix by hand.
 */
export function toolErrorText(message: string): string {
  return `Error: ${message}`;
}

/** A failed call's result: `toolErrorText(message)`, marked as an error. */
export function toolError(message: string): ToolOutput & { isError: true } {
  return { content: toolErrorText(message), isError: true };
}
