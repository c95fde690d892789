import type { ToolOutput } from "../core/tool.js";
import type { Tool } from "./tool.js";
import type { Workspace } from "./workspace.js";

/*
 * A call as Claude Code's hooks see it, read from the tool's own `claude` field (Tool.claude):
 * this module knows no tool by name. A tool without one (MCP tools: `mcp__server__tool`) is
 * known to Claude Code by hx's name, with its arguments as they are.
 */

/** `tool_name`: Claude Code's name for the tool. */
export function claudeToolName(tool: Tool): string {
  return tool.claude?.name ?? tool.name;
}

/** Every name a matcher may use for the tool: hx's, Claude Code's, Claude Code's aliases. */
export function toolNames(tool: Tool): string[] {
  return tool.claude ? [tool.name, tool.claude.name, ...(tool.claude.aliases ?? [])] : [tool.name];
}

/** `tool_input`: the arguments in Claude Code's fields, paths absolute. */
export function claudeToolInput(tool: Tool, args: unknown, workspace: Workspace): unknown {
  return tool.claude?.input ? tool.claude.input(args, workspace) : args;
}

/** `tool_response` of PostToolUse, as Claude Code shapes it. */
export function claudeToolResponse(
  tool: Tool,
  args: unknown,
  output: ToolOutput,
  workspace: Workspace,
): unknown {
  return tool.claude?.response ? tool.claude.response(args, output, workspace) : output.content;
}

/**
 * hx's arguments from a PreToolUse hook's `updatedInput` (Claude Code's fields, merged over
 * the call's own input as Claude Code merges it); the tool's schema checks the result.
 */
export function hxArgsFrom(
  tool: Tool,
  args: unknown,
  updated: Record<string, unknown>,
  workspace: Workspace,
): unknown {
  const current = claudeToolInput(tool, args, workspace);
  const merged = { ...(isObject(current) ? current : {}), ...updated };
  return tool.claude?.args ? tool.claude.args(merged) : merged;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
