import { type ToolEffect, toolError, toolErrorText } from "../core/tool.js";
import { defineTool, type Tool, type Zod } from "../tools/tool.js";
import { McpCallError, type McpConnection, type McpToolInfo } from "./connection.js";
import { checkStructuredContent, type OutputCheck } from "./output-schema.js";
import { toToolOutput } from "./results.js";

/** Descriptions longer than this are cut (as Claude Code does): some servers send pages. */
const MAX_DESCRIPTION_CHARS = 2048;

/** The arguments of an MCP tool are checked by its server; hx only needs an object. */
const anyObject = (z: Zod) => z.record(z.string(), z.unknown());

export interface McpToolOptions {
  /** `mcp__<server>__<tool>`. */
  name: string;
  server: string;
  info: McpToolInfo;
  connection: McpConnection;
  timeoutMs: number;
}

/**
 * One MCP tool as an hx tool: the server's JSON Schema goes to the model as it is, the call
 * goes to the server with a timeout and the run's cancellation.
 *
 * Effect: `execute` (asked in default mode, refused in plan mode) unless the server marks the
 * tool read-only (`readOnlyHint: true` and not `destructiveHint: true`); then `read`. The
 * server already runs with the user's rights once approved, so its own hint is believed;
 * an `ask` or `deny` rule (`mcp__server`) still wins over it.
 */
export function createMcpTool(options: McpToolOptions): Tool<ReturnType<typeof anyObject>> {
  const { info, connection } = options;
  let check: OutputCheck | undefined;
  return defineTool({
    name: options.name,
    description: describe(info),
    parameters: anyObject,
    jsonSchema: info.inputSchema,
    effect: effectOf(info),
    async execute(args, ctx) {
      try {
        const result = await connection.callTool(info.name, args, {
          signal: ctx.signal,
          timeoutMs: options.timeoutMs,
        });
        if (info.outputSchema && result.isError !== true) {
          check ??= await checkStructuredContent(info.outputSchema);
          const problem = check(result.structuredContent);
          if (problem) {
            return {
              content: toolErrorText(
                `MCP server '${options.server}' returned a result for ${info.name} that does not match the tool's outputSchema (${problem}); do not rely on its fields. What it returned:\n${toToolOutput(result).content}`,
              ),
              isError: true,
            };
          }
        }
        return toToolOutput(result);
      } catch (error) {
        const message = error instanceof McpCallError ? error.message : String(error);
        return toolError(message);
      }
    },
  });
}

export function effectOf(info: McpToolInfo): ToolEffect {
  const hints = info.annotations;
  return hints?.readOnlyHint === true && hints.destructiveHint !== true ? "read" : "execute";
}

function describe(info: McpToolInfo): string {
  const text = info.description.trim() || info.title || info.annotations?.title || info.name;
  return text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : text;
}
