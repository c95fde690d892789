import { toolError, toolErrorText } from "../core/tool.js";
import { closestName } from "../text/suggest.js";
import { defineTool, type Tool, type Zod } from "../tools/tool.js";
import { McpCallError, type McpConnection } from "./connection.js";
import { toToolOutput } from "./results.js";

export const READ_MCP_RESOURCE_NAME = "read_mcp_resource";

/** Lines listed for the model at most, of resources and of templates each. */
const LISTED = 100;

/** What a server offers to read: its resources, then its URI templates (fill `{…}` to read one). */
function listing(connection: McpConnection): string {
  const resources = connection.resources.slice(0, LISTED).map((r) => `- ${r.uri} (${r.name})`);
  const templates = connection.resourceTemplates
    .slice(0, LISTED)
    .map((t) => `- ${t.uriTemplate} (${t.name}${t.description ? `: ${t.description}` : ""})`);
  const more = (all: number) => (all > LISTED ? [`… and ${all - LISTED} more`] : []);
  if (resources.length === 0 && templates.length === 0)
    return `MCP server '${connection.name}' lists no resources.`;
  return [
    ...(resources.length
      ? [`Resources of ${connection.name}:`, ...resources, ...more(connection.resources.length)]
      : []),
    ...(templates.length
      ? [
          `URI templates of ${connection.name} (replace each {name} and read the URI):`,
          ...templates,
          ...more(connection.resourceTemplates.length),
        ]
      : []),
  ].join("\n");
}

/** Content checks by URI: returns an error for the model, or undefined when the bytes may be used. */
export type ResourceCheck = (server: string, uri: string, text: string | undefined) => string | undefined;

export const readMcpResourceParameters = (z: Zod) =>
  z.object({
    server: z.string().describe("The MCP server's name (the middle part of mcp__<server>__<tool>)."),
    uri: z
      .string()
      .optional()
      .describe(
        "The resource's URI, e.g. from a resource link in a tool result or a template filled in. Omit it to list the server's resources and URI templates.",
      ),
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
      "Read a resource from an MCP server by its URI (resource links in MCP tool results, files of MCP skills, a URI template filled in); without a uri, list the server's resources and templates.",
    parameters: readMcpResourceParameters,
    effect: "read",
    ruleSubject: (args) => `${args.server}:${args.uri ?? ""}`,
    async execute(args, ctx) {
      const servers = deps.connections();
      const connection = servers.find((c) => c.name === args.server);
      if (!connection) {
        const close = closestName(
          args.server,
          servers.map((c) => c.name),
        );
        return {
          content: toolErrorText(
            `no MCP server named '${args.server}'${close ? ` (did you mean ${close}?)` : ""}. Servers: ${servers.map((c) => c.name).join(", ") || "none"}.`,
          ),
          isError: true,
        };
      }
      if (args.uri === undefined || args.uri === "") return { content: listing(connection) };
      try {
        const result = await connection.readResource(args.uri, ctx.signal);
        const contents = Array.isArray(result.contents) ? result.contents : [];
        const text = contents.length === 1 && "text" in contents[0] ? String(contents[0].text) : undefined;
        const refused = deps.check?.(args.server, args.uri, text);
        if (refused) return toolError(refused);
        return toToolOutput({
          content: contents.map((resource) => ({ type: "resource" as const, resource })),
        });
      } catch (error) {
        return {
          content: toolErrorText(error instanceof McpCallError ? error.message : String(error)),
          isError: true,
        };
      }
    },
  });
}
