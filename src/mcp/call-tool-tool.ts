import { toolError, toolErrorText } from "../core/tool.js";
import { closestName } from "../text/suggest.js";
import { defineTool, type Tool, type Zod } from "../tools/tool.js";
import type { ToolShelf } from "./tool-shelf.js";

export const CALL_MCP_TOOL_NAME = "call_mcp_tool";

export const callMcpToolParameters = (z: Zod) =>
  z.object({
    name: z.string().describe("The MCP tool's name, e.g. mcp__github__create_issue."),
    arguments: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("The tool's arguments, matching the input schema load_mcp_tools returned."),
  });

/**
 * `call_mcp_tool {name, arguments}`: the stable way to call an MCP tool whose schema was
 * loaded as a tool result. It never runs anything itself: the registry routes the call to the
 * named tool, so permission rules, hooks and the trace see `mcp__server__tool`.
 */
export function createCallMcpToolTool(shelf: ToolShelf): Tool<ReturnType<typeof callMcpToolParameters>> {
  return defineTool({
    name: CALL_MCP_TOOL_NAME,
    description:
      "Call an MCP tool listed under MCP tools in the system prompt, after loading its schema with load_mcp_tools.",
    parameters: callMcpToolParameters,
    effect: "execute",
    route(args) {
      const tool = shelf.get(args.name.trim());
      if (!tool) {
        const close = closestName(args.name, shelf.names());
        return toolErrorText(
          `no MCP tool named '${args.name}'${close ? ` (did you mean ${close}?)` : ""}. Use a name listed under MCP tools in the system prompt.`,
        );
      }
      return { tool, arguments: args.arguments };
    },
    async execute() {
      // Never reached: the registry runs the tool route() names.
      return toolError("call_mcp_tool could not route the call.");
    },
  });
}
