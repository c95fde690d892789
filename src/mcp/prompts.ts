import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../core/error-message.js";
import { McpCallError, type McpConnection, type McpPromptInfo } from "./connection.js";
import { qualifyToolNames } from "./names.js";
import { argumentHint, mapPromptArguments } from "./prompt-arguments.js";
import { renderBlock } from "./results.js";

/** One prompt of a ready server, as the slash command `/mcp__<server>__<prompt>`. */
export interface McpPromptCommand {
  /** `mcp__<server>__<prompt>` (cleaned as tool names are). */
  name: string;
  server: string;
  prompt: McpPromptInfo;
  connection: McpConnection;
}

/** The prompts of the servers that are ready, in server order. */
export function listPromptCommands(connections: readonly McpConnection[]): McpPromptCommand[] {
  return connections
    .filter((c) => c.status === "ready")
    .flatMap((connection) => {
      const names = qualifyToolNames(
        connection.name,
        connection.prompts.map((p) => p.name),
      );
      return connection.prompts.map((prompt, i) => ({
        name: names[i] as string,
        server: connection.name,
        prompt,
        connection,
      }));
    });
}

/** `/mcp__fx__review <file> [focus]`. */
export function promptUsage(command: McpPromptCommand): string {
  const hint = argumentHint(command.prompt.arguments);
  return `/${command.name}${hint ? ` ${hint}` : ""}`;
}

/**
 * `/mcp__server__prompt args` as the user's turn: the arguments mapped to the prompt's
 * declared ones (see mapPromptArguments), `prompts/get` asked, its messages rendered as one
 * text. An error says what is wrong and how to write it right.
 */
export async function expandPromptCommand(
  command: McpPromptCommand,
  args: string,
  signal?: AbortSignal,
): Promise<{ text: string } | { error: string }> {
  const mapped = mapPromptArguments(args, command.prompt.arguments);
  if (!mapped.ok) return { error: `/${command.name} ${mapped.error}. Usage: ${promptUsage(command)}` };
  let result: GetPromptResult;
  try {
    result = await command.connection.getPrompt(command.prompt.name, mapped.values, signal);
  } catch (error) {
    const why = error instanceof McpCallError ? error.message : errorMessage(error);
    return { error: `/${command.name} failed: ${why}` };
  }
  const text = renderPromptMessages(result);
  if (text === "") {
    return { error: `/${command.name}: MCP server '${command.server}' returned no messages for the prompt.` };
  }
  return { text };
}

/**
 * A prompt's messages as one user turn. Text is passed as it is; images, audio and resources
 * become notes (as in tool results). When the prompt holds assistant messages too (an example
 * exchange), each message is introduced by its role so the model can tell them apart.
 */
export function renderPromptMessages(result: GetPromptResult): string {
  const messages = Array.isArray(result.messages) ? result.messages : [];
  const rendered = messages
    .map((message) => ({ role: message.role, text: renderBlock(message.content).trim() }))
    .filter((m) => m.text !== "");
  const mixed = rendered.some((m) => m.role !== "user");
  return rendered
    .map((m) => (mixed ? `${m.role === "user" ? "User" : "Assistant"}:\n${m.text}` : m.text))
    .join("\n\n");
}
