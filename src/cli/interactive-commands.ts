import type { SlashCommand, SlashCommandIO } from "../agent/capability.js";
import { errorMessage } from "../core/error-message.js";
import type { Message } from "../core/messages.js";
import { isPermissionMode, PERMISSION_MODES, type PermissionMode } from "../permissions/index.js";
import type { AgentSession } from "../session/agent-session.js";
import type { PriceTable } from "./prices.js";
import { formatCostReport } from "./session-status.js";

/** What a front end (the full-screen one or the plain line mode) does for its commands. */
export interface InteractiveHost {
  session(): AgentSession;
  prices: PriceTable;
  /** A new conversation with the same settings and a new transcript (/clear). */
  newConversation(): Promise<void>;
  /** Puts a conversation's messages on screen (after /resume). */
  showConversation(messages: readonly Message[]): void;
  /** Sends a prompt as if typed (/init). */
  sendPrompt(text: string, signal: AbortSignal): Promise<void>;
  /** Answers the next prompts with another model of the same provider. */
  switchModel(name: string): Promise<void>;
  /** Shows the new mode (status line) after it changed. */
  modeChanged(mode: PermissionMode): void;
  exit(): void;
  /** Keys shown by /help, e.g. ["Ctrl-C", "cancel the turn"]. */
  keys: ReadonlyArray<readonly [string, string]>;
}

/** The order Shift+Tab cycles through (bypassPermissions only by flag or /mode). */
const MODE_CYCLE: readonly PermissionMode[] = ["default", "acceptEdits", "plan"];

export function nextPermissionMode(mode: PermissionMode): PermissionMode {
  const index = MODE_CYCLE.indexOf(mode);
  return MODE_CYCLE[(index + 1) % MODE_CYCLE.length] ?? "default";
}

const INIT_PROMPT =
  "Draft an AGENTS.md for this repository. First look around with your tools (read-only): the layout, " +
  "the build, test and lint scripts, the README and any docs or CONTRIBUTING notes. Then write AGENTS.md at " +
  "the repository root: how to build, test and lint; which folder holds what; the conventions the code " +
  "follows; what a new contributor must know. Keep it short (under 80 lines) and factual. If AGENTS.md " +
  "exists already, improve it and keep what is still right.";

/**
 * The interactive commands: the front end's own (`/help`, `/clear`, `/model`, `/mode`, `/cost`,
 * `/init`, `/exit`) and the session's (`/context`, `/compact`, `/resume`, `/skills`).
 */
export function interactiveCommands(host: InteractiveHost): SlashCommand[] {
  const own: SlashCommand[] = [
    // /help lists the commands as they are when it runs (a /clear brings a new session's).
    helpCommand(host, () => interactiveCommands(host)),
    clearCommand(host),
    modelCommand(host),
    modeCommand(host),
    costCommand(host),
    {
      name: "init",
      usage: "/init",
      description: "draft an AGENTS.md from the repository",
      run: (_args, io) => host.sendPrompt(INIT_PROMPT, io.signal),
    },
    { name: "exit", usage: "/exit", description: "leave (also /quit, Ctrl-D)", run: () => host.exit() },
    { name: "quit", usage: "/quit", description: "leave", run: () => host.exit() },
  ];
  const fromSession = host
    .session()
    .commands.map((command) => (command.name === "resume" ? withConversationShown(command, host) : command));
  const names = new Set([...own, ...fromSession].map((c) => c.name));
  return [...own, ...fromSession, ...ABSENT_COMMANDS.filter((c) => !names.has(c.name))];
}

/** Commands the session brings only when there is something to show: said plainly otherwise. */
const ABSENT_COMMANDS: readonly SlashCommand[] = [
  {
    name: "mcp",
    usage: "/mcp",
    description: "MCP servers (none configured)",
    run: (_args, io) =>
      io.print(
        "No MCP server is configured. Add one with `hx mcp add NAME -- command …`, in .mcp.json, or with --mcp-config FILE (docs/mcp.md).",
      ),
  },
];

function helpCommand(host: InteractiveHost, commands: () => SlashCommand[]): SlashCommand {
  return {
    name: "help",
    usage: "/help",
    description: "commands, skills and keys",
    run: (_args, io) => io.print(helpText(host, commands)),
  };
}

function clearCommand(host: InteractiveHost): SlashCommand {
  return {
    name: "clear",
    usage: "/clear",
    description: "start a new conversation (the mode and model stay)",
    async run(_args, io) {
      // Only the conversation goes: the choices made in this session stay.
      const before = host.session();
      const mode = before.permissions.mode;
      const model = before.model.model;
      await host.newConversation();
      const after = host.session();
      if (after.permissions.mode !== mode) {
        after.permissions.set(mode);
        host.modeChanged(mode);
      }
      if (after.model.model !== model) await host.switchModel(model);
      io.print(
        `New conversation. Kept: permission mode ${mode}, model ${after.model.name}/${after.model.model}.`,
      );
    },
  };
}

function modelCommand(host: InteractiveHost): SlashCommand {
  return {
    name: "model",
    usage: "/model [name]",
    description: "show the model, or answer with another one",
    async run(args, io) {
      const provider = host.session().model;
      if (!args) {
        io.print(`Model: ${provider.name}/${provider.model}. Change it with /model NAME.`);
        return;
      }
      await host.switchModel(args);
      const window = host.session().model.contextWindow.toLocaleString("en-US");
      io.print(`Model: ${provider.name}/${args} from the next prompt on (context window ${window} tokens).`);
    },
  };
}

function modeCommand(host: InteractiveHost): SlashCommand {
  return {
    name: "mode",
    usage: "/mode [mode]",
    description: `show or set the permission mode (${PERMISSION_MODES.join(", ")}; Shift+Tab cycles)`,
    run(args, io) {
      const { permissions } = host.session();
      if (!args)
        return io.print(`Permission mode: ${permissions.mode}. Modes: ${PERMISSION_MODES.join(", ")}.`);
      if (!isPermissionMode(args))
        return io.print(`Unknown permission mode '${args}'. Use one of: ${PERMISSION_MODES.join(", ")}.`);
      permissions.set(args);
      host.modeChanged(args);
      io.print(`Permission mode: ${args}.`);
    },
  };
}

function costCommand(host: InteractiveHost): SlashCommand {
  return {
    name: "cost",
    usage: "/cost",
    description: "tokens used and what they cost",
    run(_args, io) {
      const session = host.session();
      io.print(formatCostReport(session.total.usage, session.model.model, host.prices));
    },
  };
}

/** `/resume ID` puts the resumed conversation on screen. */
function withConversationShown(command: SlashCommand, host: InteractiveHost): SlashCommand {
  return {
    ...command,
    async run(args, io) {
      const before = host.session().conversation.messages.length;
      const first = host.session().conversation.messages[0];
      await command.run(args, io);
      const after = host.session().conversation.messages;
      if (args.trim() && (after.length !== before || after[0] !== first)) host.showConversation(after);
    },
  };
}

export type CommandOutcome = "done" | "skill" | "unknown";

/**
 * Runs `/name args`: a command, or "skill" when a skill has that name (the caller sends it
 * as a prompt), or "unknown" after printing an error that lists commands and skills.
 */
export async function runInteractiveCommand(
  host: InteractiveHost,
  name: string,
  args: string,
  io: SlashCommandIO,
): Promise<CommandOutcome> {
  const commands = interactiveCommands(host);
  const command = commands.find((c) => c.name === name);
  if (command) {
    try {
      await command.run(args, { ...io, submit: (text) => host.sendPrompt(text, io.signal) });
    } catch (error) {
      io.print(`/${name} failed: ${errorMessage(error)}`);
    }
    return "done";
  }
  const skills = host.session().skills;
  if (skills.some((skill) => skill.name === name)) return "skill";
  const skillList = skills.length ? ` Skills: ${skills.map((s) => `/${s.name}`).join(" ")}.` : "";
  io.print(
    `Unknown command /${name}. Commands: ${commands
      .filter((c) => c.name !== "quit")
      .map((c) => `/${c.name}`)
      .join(" ")}.${skillList} (/help explains them)`,
  );
  return "unknown";
}

function helpText(host: InteractiveHost, commands: () => SlashCommand[]): string {
  const skills = host.session().skills;
  const rows: Array<readonly [string, string]> = [
    ...commands()
      .filter((c) => c.name !== "quit")
      .map((c) => [c.usage, c.description] as const),
    [
      "/<skill> [args]",
      skills.length ? `invoke a skill (${skills.length}: see /skills)` : "invoke a skill (none found)",
    ],
    ["!<command>", "run your own shell command (no question asked; in the OS sandbox)"],
    ["@<path>", "attach a file to the prompt"],
    ...host.keys,
  ];
  const width = Math.max(...rows.map(([usage]) => usage.length));
  return [
    "Type a task and press Enter; the conversation is kept between prompts.",
    ...rows.map(([usage, description]) => `  ${usage.padEnd(width)}  ${description}`),
  ].join("\n");
}
