import type { Tool } from "../tools/tool.js";
import type { LoadedToolMode } from "./tool-shelf.js";

/** A catalog line's description is the first sentence or line of the tool's, at most this long. */
const LINE_DESCRIPTION_CHARS = 120;

/**
 * The system-prompt section for MCP tools kept off the tools array: one `- name: description`
 * line per tool, sorted, and how to load them. Pure: the same tools give the same bytes.
 */
export function buildToolCatalog(tools: readonly Tool[], mode: LoadedToolMode): string {
  if (tools.length === 0) return "";
  const how =
    mode === "call"
      ? "Before calling one, load its schema with load_mcp_tools {names: [...]} (several at once if you need several), then call it with call_mcp_tool {name, arguments}."
      : "Before calling one, load it with load_mcp_tools {names: [...]} (several at once if you need several); it then appears in your tools and you call it directly.";
  return [
    "# MCP tools",
    `These tools come from MCP servers; their schemas are not loaded yet. ${how} Loaded tools stay available for the whole session.`,
    ...catalogLines(tools),
  ].join("\n");
}

/**
 * The system-prompt lines for servers still starting when the first request went out: their
 * tools follow in an mcp-update note, and loading `mcp__<server>__*` waits for one.
 */
export function startingServersSection(servers: readonly string[]): string {
  if (servers.length === 0) return "";
  return [
    "# MCP servers still starting",
    `${servers.join(", ")}: their tools are announced in an <mcp-update> note when ready. If the task needs one now, call load_mcp_tools {names: ["mcp__<server>__*"]}: it waits for the server and loads its tools.`,
  ].join("\n");
}

/** `- mcp__srv__tool: first sentence of its description`, sorted by name. */
export function catalogLines(tools: readonly Tool[]): string[] {
  return [...tools]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((tool) => `- ${tool.name}: ${shortDescription(tool.description)}`);
}

export function shortDescription(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > LINE_DESCRIPTION_CHARS
    ? `${sentence.slice(0, LINE_DESCRIPTION_CHARS - 1)}…`
    : sentence;
}
