import type * as z from "zod";
import type { EventSink } from "../core/events.js";
import type { Grant, ToolEffect, ToolOutput } from "../core/tool.js";
import type { FileChange } from "./file-change.js";
import type { Workspace } from "./workspace.js";

export interface ToolContext {
  workspace: Workspace;
  signal: AbortSignal;
  /** The id of the call being run (for tools that log or store output). */
  callId: string;
  /** Reports progress (e.g. a subagent's own events) to whoever watches the run. */
  emit: EventSink;
  /** Set only on a re-run the user approved after the sandbox refused the call (tool-calls.ts). */
  grant?: Grant;
}

/** The zod functions handed to a tool's `parameters` (src/tools/zod-for-tools.ts). */
export type Zod = typeof import("./zod-for-tools.js");

export interface Tool<P extends z.ZodType = z.ZodType> {
  name: string;
  /** What the model reads to decide when and how to call the tool. */
  description: string;
  /**
   * Builds the schema the arguments are checked against, with the zod module passed in: zod
   * is loaded on the first call that needs checking, so a run that calls no tool never loads
   * it (see ToolRegistry).
   */
  parameters: (zod: Zod) => P;
  /**
   * The JSON Schema the model reads, when it is known without building `parameters`: an MCP
   * server's schema (`parameters` then only checks that the arguments are an object), or a
   * built-in tool's schema computed when hx was built (builtSchema). Undefined: the registry
   * derives it from `parameters`.
   */
  jsonSchema?: Record<string, unknown>;
  effect: ToolEffect;
  /**
   * Whether the model is offered the tool now (read before each request); absent: always. A
   * tool not offered stays callable, so it says itself when it does not apply.
   */
  offered?(): boolean;
  /**
   * The text permission rules match against, e.g. the command for `bash(git push*)` or the
   * path for `write_file(src/**)`. Undefined: only bare-name rules apply. Callers should pass
   * the workspace, so path subjects come out relative to its root with symlinks resolved.
   */
  ruleSubject?(args: z.infer<P>, workspace?: Workspace): string | undefined;
  /**
   * The file change the call would make, computed without making it (synchronous, bounded):
   * front ends show it as a diff in the approval prompt and after the call.
   */
  preview?(args: z.infer<P>, workspace: Workspace): FileChange | undefined;
  /**
   * For a tool that stands for others (a stable proxy such as `call_mcp_tool`): the tool the
   * checked arguments name and that tool's arguments. The registry then checks and runs that
   * tool, so permissions and hooks see it, not the proxy. A string is an error for the model.
   */
  route?(args: z.infer<P>): { tool: Tool; arguments: unknown } | string;
  /**
   * How Claude Code names and shapes this tool, for hooks and settings written for Claude Code:
   * hook payloads carry `claude.name` as `tool_name` and `claude.input(args)` as `tool_input`,
   * and rules and matchers accept the name (`Bash(npm test:*)`, `"matcher": "Write|Edit"`).
   * Undefined: the tool is known to Claude Code by hx's name (MCP tools: `mcp__server__tool`).
   */
  claude?: ClaudeShape<z.infer<P>>;
  /** Throwing is fine: the registry turns the error into a tool result the model can act on. */
  execute(args: z.infer<P>, ctx: ToolContext): Promise<string | ToolOutput>;
}

/** A tool as Claude Code knows it (see `Tool.claude`). */
export interface ClaudeShape<Args = unknown> {
  /** Claude Code's name for the tool: `Bash`, `Read`, `Edit`. */
  name: string;
  /** Other Claude Code names rules and matchers may use for it (`MultiEdit` for edit_file). */
  aliases?: readonly string[];
  /** `tool_input` with Claude Code's field names and absolute paths. Default: the arguments. */
  input?(args: Args, workspace: Workspace): Record<string, unknown>;
  /** hx's arguments from a hook's `updatedInput` (Claude Code's fields). Default: the input itself. */
  args?(input: Record<string, unknown>): unknown;
  /** PostToolUse's `tool_response`, as Claude Code shapes it. Default: the output text. */
  response?(args: Args, output: ToolOutput, workspace: Workspace): unknown;
}

/** Identity helper that keeps the parameter type attached to execute(). */
export function defineTool<P extends z.ZodType>(tool: Tool<P>): Tool<P> {
  return tool;
}
