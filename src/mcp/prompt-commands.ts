import type { PromptFilter, SlashCommand } from "../agent/capability.js";
import { parseSlashPrompt } from "../skills/index.js";
import type { McpManager } from "./manager.js";
import { serverPrefix } from "./names.js";
import { argumentHint, mapPromptArguments } from "./prompt-arguments.js";
import { expandPromptCommand, listPromptCommands, type McpPromptCommand, promptUsage } from "./prompts.js";

const MAX_DESCRIPTION = 100;

/**
 * MCP prompts as slash commands. `commands()` lists one `/mcp__<server>__<prompt>` per prompt
 * of the servers ready now (for /help, /mcp and completion); running one sends the line as
 * the user's turn, and `filter` (a prompt filter, so `hx agent "/mcp__s__p args"` works the
 * same) replaces it with what the server's `prompts/get` returns.
 */
export function mcpPromptEntries(manager: McpManager): {
  commands: () => SlashCommand[];
  filter: PromptFilter;
} {
  const current = () => listPromptCommands(manager.connections());
  const commands = () => current().map(toSlashCommand);

  const filter: PromptFilter = async (prompt) => {
    const slash = parseSlashPrompt(prompt);
    if (!slash?.name.startsWith("mcp__")) return { prompt };
    const server = manager
      .connections()
      .find((c) => slash.name.startsWith(serverPrefix(c.name)) && slash.name !== serverPrefix(c.name));
    if (!server) return { prompt }; // not a server of this session: the text goes to the model as typed
    await server.whenSettled();
    const command = current().find((c) => c.name === slash.name);
    if (!command) {
      if (server.status !== "ready") {
        return {
          refuse: `MCP server '${server.name}' is not running (${server.error ?? server.status}); /mcp shows why.`,
        };
      }
      const offered = current().filter((c) => c.server === server.name);
      return {
        refuse: `MCP server '${server.name}' has no prompt /${slash.name}. ${offered.length ? `Its prompts: ${offered.map(promptUsage).join(", ")}` : "It offers no prompts"}.`,
      };
    }
    const expanded = await expandPromptCommand(command, slash.args);
    return "error" in expanded ? { refuse: expanded.error } : { prompt: expanded.text };
  };
  return { commands, filter };
}

function toSlashCommand(command: McpPromptCommand): SlashCommand {
  const hint = argumentHint(command.prompt.arguments);
  const about = (command.prompt.description ?? "").split("\n", 1)[0]?.trim() || "an MCP prompt";
  return {
    name: command.name,
    usage: promptUsage(command),
    description: `${about.length > MAX_DESCRIPTION ? `${about.slice(0, MAX_DESCRIPTION - 1)}…` : about} (MCP server ${command.server})`,
    ...(hint ? { argumentHint: hint } : {}),
    async run(args, io) {
      // Checked here too, so a missing argument is said before anything is sent.
      const mapped = mapPromptArguments(args, command.prompt.arguments);
      if (!mapped.ok) {
        io.print(`/${command.name} ${mapped.error}. Usage: ${promptUsage(command)}`);
        return;
      }
      if (!io.submit) {
        io.print(`/${command.name} sends a prompt; type it at the prompt of an interactive session.`);
        return;
      }
      await io.submit(`/${command.name}${args ? ` ${args}` : ""}`);
    },
  };
}
