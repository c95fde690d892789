import { closestName } from "../skills/suggest.js";
import { defineTool, type Tool, type Zod } from "../tools/tool.js";
import { McpCallError, type McpConnection } from "./connection.js";
import { toToolOutput } from "./results.js";

export const READ_MCP_RESOURCE_NAME = "read_mcp_resource";

/** Content checks by URI: returns an error for the model, or undefined when the bytes may be used. */
export type ResourceCheck = (server: string, uri: string, text: string | undefined) => string | undefined;

export const readMcpResourceParameters = (z: Zod) =>
  z.object({
    server: z.string().describe("The MCP server's name (the middle part of mcp__<server>__<tool>)."),
    uri: z.string().describe("The resource's URI, e.g. from a resource link in a tool result."),
  });

/**
 * A read of one resource from the server that offered it (a resource link in a tool result,
 * a file of a skill the server serves). `check` may refuse or verify what comes back (skill
 * files are checked against their digests).
 */
export function createReadMcpResourceTool(deps: {
  connections: () => readonly McpConnection[];
  check?: ResourceCheck;
}): Tool<ReturnType<typeof readMcpResourceParameters>> {
  return defineTool({
    name: READ_MCP_RESOURCE_NAME,
    description:
      "Read a resource from an MCP server by its URI (resource links in MCP tool results, files of MCP skills).",
    parameters: readMcpResourceParameters,
    effect: "read",
    ruleSubject: (args) => `${args.server}:${args.uri}`,
    async execute(args, ctx) {
      const servers = deps.connections();
      const connection = servers.find((c) => c.name === args.server);
      if (!connection) {
        const close = closestName(
          args.server,
          servers.map((c) => c.name),
        );
        return {
          content: `Error: no MCP server named '${args.server}'${close ? ` (did you mean ${close}?)` : ""}. Servers: ${servers.map((c) => c.name).join(", ") || "none"}.`,
          isError: true,
        };
      }
      try {
        const result = await connection.readResource(args.uri, ctx.signal);
        const contents = Array.isArray(result.contents) ? result.contents : [];
        const text = contents.length === 1 && "text" in contents[0] ? String(contents[0].text) : undefined;
        const refused = deps.check?.(args.server, args.uri, text);
        if (refused) return { content: `Error: ${refused}`, isError: true };
        return toToolOutput({
          content: contents.map((resource) => ({ type: "resource" as const, resource })),
        });
      } catch (error) {
        return {
          content: `Error: ${error instanceof McpCallError ? error.message : String(error)}`,
          isError: true,
        };
      }
    },
  });
}
