import { toolErrorText } from "../core/tool.js";
import { closestName } from "../text/suggest.js";
import { defineTool, type Tool, type Zod } from "../tools/tool.js";
import { CALL_MCP_TOOL_NAME } from "./call-tool-tool.js";
import { serverPrefix } from "./names.js";
import type { ToolShelf } from "./tool-shelf.js";

const LOAD_MCP_TOOLS_NAME = "load_mcp_tools";

/** At most this many schemas per call: a model asking for all 200 gets told to pick. */
const MAX_PER_CALL = 20;

export const loadMcpToolsParameters = (z: Zod) =>
  z.object({
    names: z
      .array(z.string())
      .min(1)
      .max(MAX_PER_CALL)
      .describe(
        "Tool names exactly as listed under MCP tools, e.g. mcp__github__create_issue; mcp__<server>__* loads all of a server's tools (waiting for it if it is still starting).",
      ),
  });

/** Servers that were still starting when the session began: `mcp__<server>__*` waits for one. */
export interface StartingServers {
  /** Whether `server` is a server of this session. */
  has(server: string): boolean;
  /**
   * Waits until `server` is ready (its tools then are on the shelf) or failed: undefined when
   * its tools are there, else why not.
   */
  whenReady(server: string, signal: AbortSignal): Promise<string | undefined>;
}

/** `mcp__<server>__*`: the server's name, or undefined for a tool name. */
function wholeServer(name: string): string | undefined {
  return /^mcp__(.+)__\*$/.exec(name)?.[1];
}

/**
 * `load_mcp_tools {names}`: makes catalog-only MCP tools callable. In `call` mode the result
 * holds their schemas (the tools array stays as it is); in `tools` mode they join the tools
 * array for the rest of the session.
 */
export function createLoadMcpToolsTool(
  shelf: ToolShelf,
  servers?: StartingServers,
): Tool<ReturnType<typeof loadMcpToolsParameters>> {
  return defineTool({
    name: LOAD_MCP_TOOLS_NAME,
    description:
      "Load MCP tools listed under MCP tools (in the system prompt or an mcp-update note) so you can call them. Pass every name you need in one call. Loading runs nothing.",
    parameters: loadMcpToolsParameters,
    effect: "none",
    ruleSubject: (args) => args.names.join(" "),
    async execute(args, ctx) {
      const found: Tool[] = [];
      const unknown: string[] = [];
      const notReady: string[] = [];
      for (const name of new Set(args.names.map((n) => n.trim()))) {
        const server = wholeServer(name);
        if (server !== undefined && servers?.has(server)) {
          const why = await servers.whenReady(server, ctx.signal);
          if (why) notReady.push(why);
          else found.push(...shelf.all().filter((tool) => tool.name.startsWith(serverPrefix(server))));
          continue;
        }
        const tool = shelf.get(name);
        if (tool) found.push(tool);
        else unknown.push(name);
      }
      if (found.length === 0) {
        const messages = [...notReady, ...(unknown.length > 0 ? [unknownMessage(unknown, shelf)] : [])];
        return { content: toolErrorText(messages.join(" ")), isError: true };
      }
      shelf.load(found);
      const parts: string[] = [];
      if (shelf.mode === "call") {
        parts.push(
          `Loaded ${found.length} MCP tool${found.length > 1 ? "s" : ""}. Call ${found.length > 1 ? "them" : "it"} with ${CALL_MCP_TOOL_NAME} {"name": "<tool name>", "arguments": {…matching its input schema}}.`,
        );
        for (const tool of found) {
          parts.push(
            `<mcp-tool name="${tool.name}">\n${tool.description}\nInput schema: ${JSON.stringify(tool.jsonSchema ?? {})}\n</mcp-tool>`,
          );
        }
      } else {
        parts.push(
          `Loaded: ${found.map((t) => t.name).join(", ")}. ${found.length > 1 ? "They are" : "It is"} now in your tools; call ${found.length > 1 ? "them" : "it"} directly.`,
        );
      }
      if (unknown.length > 0) parts.push(toolErrorText(unknownMessage(unknown, shelf)));
      for (const why of notReady) parts.push(toolErrorText(why));
      // Schemas the model calls by must survive shortening of old tool results.
      return { content: parts.join("\n\n"), meta: shelf.mode === "call" ? { keepWhole: true } : undefined };
    },
  });
}

function unknownMessage(unknown: readonly string[], shelf: ToolShelf): string {
  const names = shelf.names();
  const hints = unknown.map((name) => {
    const close = closestName(name, names);
    return close ? `'${name}' (did you mean ${close}?)` : `'${name}'`;
  });
  return `no MCP tool named ${hints.join(", ")}. Use names exactly as listed under MCP tools in the system prompt.`;
}
