import os from "node:os";
import type { Capability, SessionBasics, SlashCommand } from "../agent/capability.js";
import { formatDiagnostic } from "../core/diagnostic.js";
import type { PermissionAsker } from "../permissions/index.js";
import type { Skill } from "../skills/index.js";
import type { McpConnection } from "./connection.js";
import type { LineAsker } from "./elicitation-form.js";
import { MCP_DEFAULTS, type McpSetup } from "./launch.js";
import { mcpPromptEntries } from "./prompt-commands.js";
import { McpSkillSet } from "./skills.js";
import { formatServerReports, reportServer } from "./status.js";
import type { ToolSink } from "./tool-shelf.js";
import { buildToolSurface } from "./tool-surface.js";

export interface McpCapability extends Capability {
  /** The session's registry: tools the model loads in `tools` mode, late servers without a loader. */
  attach(sink: ToolSink): void;
  /** Skills the servers offer (source `mcp:<server>`), for the skills capability's catalog. */
  readonly skills: readonly Skill[];
  /**
   * Lists the skills of servers that finished starting since (once each); true when that
   * added any, so the skills capability rescans and announces them.
   */
  refreshSkills(): Promise<boolean>;
}

/**
 * The MCP capability of a session: asks about project servers not approved yet, waits for the
 * servers at most `startupWait` (they have been starting all along), and offers their tools
 * (see buildToolSurface), `/mcp`, and closing them at the end.
 */
export async function setUpMcp(
  basics: SessionBasics,
  setup: McpSetup,
  options: { ask?: PermissionAsker; askLine?: LineAsker },
): Promise<McpCapability> {
  setup.bind(basics.model, options.ask, options.askLine);
  await setup.approve(options.ask);
  await setup.manager.waitForStart(setup.settings.startupWaitMs);
  const skills = new McpSkillSet();
  const first = await skills.listNew(setup.manager.connections(), MCP_DEFAULTS.skillsListMs);
  const surface = buildToolSurface(
    setup.manager,
    setup.settings,
    (connection) => reportSkipped(connection, basics),
    (server, uri, text) =>
      skills.checkResource(server, uri, text === undefined ? undefined : Buffer.from(text)),
  );
  if (basics.verbose) {
    const tools = setup.manager.connections().reduce((n, c) => n + c.tools.length, 0);
    basics.log(
      `mcp: ${tools} tools; ${surface.deferred ? "listed in a catalog, loaded on demand" : "schemas sent as tools"} (budget ${setup.settings.budgetTokens.toLocaleString("en-US")} tokens)`,
    );
  }
  const prompts = mcpPromptEntries(setup.manager);
  const status = mcpCommand(setup, os.homedir(), prompts.commands, skills.counts);
  return {
    name: "mcp",
    tools: surface.tools,
    promptSections: [surface.catalog],
    extensions: [surface.extension],
    promptFilters: [prompts.filter],
    // Read each time: the prompts of a server that finishes starting later join.
    get commands() {
      return [status, ...prompts.commands()];
    },
    attach: surface.attach,
    get skills() {
      return skills.skills;
    },
    async refreshSkills() {
      const late = await skills.listNew(setup.manager.connections(), MCP_DEFAULTS.skillsListMs);
      for (const diagnostic of late.diagnostics)
        basics.log(`${diagnostic.level}: ${formatDiagnostic(diagnostic)}`);
      return late.skills.length > 0;
    },
    diagnostics: first.diagnostics,
    close: () => setup.close(),
  };
}

function reportSkipped(connection: McpConnection, basics: SessionBasics): void {
  if (connection.skipped.length === 0) return;
  basics.log(
    `warning: MCP server '${connection.name}': ${connection.skipped.length} tool(s) left out (${connection.skipped.map((s) => `${s.tool}: ${s.reason}`).join("; ")}).`,
  );
}

/** `/mcp`: the servers and their state; `/mcp approve [NAME…]` starts project servers now. */
function mcpCommand(
  setup: McpSetup,
  home: string,
  prompts: () => SlashCommand[],
  skills: ReadonlyMap<string, number>,
): SlashCommand {
  return {
    name: "mcp",
    usage: "/mcp [approve NAME…]",
    description: "MCP servers: status, tools and schema tokens; approve starts waiting project servers",
    async run(args, io) {
      const [verb, ...names] = args.trim().split(/\s+/).filter(Boolean);
      if (verb === "approve") {
        const waiting = setup.manager.states.filter(
          (s) => !s.connection && (s.approval === "pending" || s.approval === "declined"),
        );
        const chosen = names.length ? waiting.filter((s) => names.includes(s.definition.name)) : waiting;
        if (chosen.length === 0) {
          io.print("No MCP server is waiting for approval.");
          return;
        }
        await setup.approve(
          async () => "yes",
          chosen.map((s) => s.definition.name),
        );
        io.print(
          `Starting ${chosen.map((s) => s.definition.name).join(", ")}; their tools join before the next request.`,
        );
        return;
      }
      io.print(
        formatServerReports(
          setup.manager.states.map((s) => reportServer(s, skills.get(s.definition.name))),
          { home },
        ),
      );
      const offered = prompts();
      if (offered.length === 0) return;
      const width = Math.max(...offered.map((c) => c.usage.length));
      io.print(`Prompts (type one as a command; it is sent as your message):`);
      for (const command of offered) io.print(`  ${command.usage.padEnd(width)}  ${command.description}`);
    },
  };
}
