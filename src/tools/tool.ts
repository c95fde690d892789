import type { z } from "zod";
import type { EventSink } from "../agent/events.js";
import type { Workspace } from "./workspace.js";

/**
 * What a call does to the world. Permission modes decide on this, never on tool names:
 * `read` never changes anything, `write` changes files, `execute` runs programs,
 * `none` touches nothing outside the conversation (todo lists, skills).
 */
export type ToolEffect = "read" | "write" | "execute" | "none";

export interface ToolContext {
  workspace: Workspace;
  signal: AbortSignal;
  /** The id of the call being run (for tools that log or store output). */
  callId: string;
  /** Reports progress (e.g. a subagent's own events) to whoever watches the run. */
  emit: EventSink;
}

/** What a tool returns: text for the model, optionally marked as an error. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
}

export interface Tool<P extends z.ZodType = z.ZodType> {
  name: string;
  /** What the model reads to decide when and how to call the tool. */
  description: string;
  parameters: P;
  effect: ToolEffect;
  /**
   * The text permission rules match against, e.g. the command for `bash(git push*)` or the
   * path for `write_file(src/**)`. Undefined: only bare-name rules apply. Callers should pass
   * the workspace, so path subjects come out relative to its root with symlinks resolved.
   */
  ruleSubject?(args: z.infer<P>, workspace?: Workspace): string | undefined;
  /** Throwing is fine: the registry turns the error into a tool result the model can act on. */
  execute(args: z.infer<P>, ctx: ToolContext): Promise<string | ToolOutput>;
}

/** Identity helper that keeps the parameter type attached to execute(). */
export function defineTool<P extends z.ZodType>(tool: Tool<P>): Tool<P> {
  return tool;
}

/**
 * A tool error with a message written for the model. Give the sentence alone
 * (`file not found: x. Use glob to find the right path.`); the message gets the `Error: `
 * prefix the model reads on every failed call.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(`Error: ${message}`);
    this.name = "ToolError";
  }
}
