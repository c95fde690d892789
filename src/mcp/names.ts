import { createHash } from "node:crypto";

/** Every provider accepts tool names of letters, digits, `_` and `-`, up to 64 characters. */
const MAX_TOOL_NAME = 64;

/** `mcp__<server>__`: the prefix permission rules and hook matchers address a server by. */
export function serverPrefix(server: string): string {
  return `mcp__${server}__`;
}

/**
 * The name the model calls: `mcp__<server>__<tool>`, as in Claude Code. Characters providers
 * reject become `_`; a name over 64 characters is cut and ends in a short hash of the original,
 * so two long names stay apart.
 */
export function qualifiedToolName(server: string, tool: string): string {
  const name = `${serverPrefix(server)}${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  return `${name.slice(0, MAX_TOOL_NAME - 9)}_${shortHash(tool)}`;
}

/**
 * Qualified names for one server's tools, in order. Tools whose names clash once cleaned
 * (`a.b` and `a_b`) keep the first as is; the others get a hash suffix.
 */
export function qualifyToolNames(server: string, tools: readonly string[]): string[] {
  const seen = new Set<string>();
  return tools.map((tool) => {
    let name = qualifiedToolName(server, tool);
    if (seen.has(name)) name = `${name.slice(0, MAX_TOOL_NAME - 9)}_${shortHash(tool)}`;
    seen.add(name);
    return name;
  });
}

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}
