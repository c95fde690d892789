import path from "node:path";
import type { Command } from "commander";

/** The definitions stay light; the work is imported when a command runs (fast `hx --help`). */
const load = () => import("./mcp-actions.js");

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Adds `hx mcp list|add|remove|approve|login|logout|reset-project-choices`. */
export function registerMcpCommand(program: Command): Command {
  const mcp = program
    .command("mcp")
    .description("MCP servers: list, add, remove and approve them (see docs/mcp.md)");
  addListCommand(mcp);
  addAddCommand(mcp);
  addRemoveCommand(mcp);
  addApproveCommand(mcp);
  addLoginCommand(mcp);
  addLogoutCommand(mcp);
  addResetProjectChoicesCommand(mcp);
  return mcp;
}

const cwdOf = (command: Command): string =>
  path.resolve((command.optsWithGlobals().cwd as string | undefined) ?? process.cwd());

const run = async (work: Promise<number>) => {
  process.exitCode = await work;
};

function addListCommand(mcp: Command): void {
  mcp
    .command("list")
    .description("the configured servers: status, tools, prompts and schema tokens (starts approved ones)")
    .option("--json", "print JSON")
    .option("-C, --cwd <dir>", "look from DIR instead of the current folder")
    .option("--mcp-config <file...>", "also these JSON files of mcpServers")
    .action(async (options: { json?: boolean; mcpConfig?: string[] }, command: Command) => {
      const { listServers } = await load();
      await run(listServers(cwdOf(command), options));
    });
}

function addAddCommand(mcp: Command): void {
  mcp
    .command("add")
    .description("add a server: hx mcp add NAME -- command args…, or hx mcp add --transport http NAME URL")
    .argument("<name>", "letters, digits, '_' and '-'; tools become mcp__NAME__tool")
    .argument("<command-or-url>", "the program to run (stdio) or the server's URL (http, sse)")
    .argument("[args...]", "the program's arguments (put -- before them)")
    .option("-t, --transport <type>", "stdio, http or sse", "stdio")
    .option(
      "-s, --scope <scope>",
      "local (this folder, just you), project (.mcp.json) or user (every project)",
      "local",
    )
    .option("-e, --env <KEY=value>", "environment variable for a stdio server (repeatable)", collect)
    .option("-H, --header <Name: value>", "HTTP header for a remote server (repeatable)", collect)
    .option("--no-sandbox", 'run this stdio server outside the OS sandbox (writes "sandbox": false)')
    .option("-C, --cwd <dir>", "the project folder (default: the current folder)")
    .action(
      async (
        name: string,
        target: string,
        args: string[],
        options: { transport: string; scope: string; env?: string[]; header?: string[]; sandbox: boolean },
        command: Command,
      ) => {
        const { addServer } = await load();
        await run(addServer(cwdOf(command), { name, target, args, ...options }));
      },
    );
}

function addRemoveCommand(mcp: Command): void {
  mcp
    .command("remove")
    .description("remove a server from the settings or .mcp.json that define it")
    .argument("<name>", "the server's name")
    .option("-s, --scope <scope>", "only from this scope: local, project or user")
    .option("-C, --cwd <dir>", "the project folder (default: the current folder)")
    .action(async (name: string, options: { scope?: string }, command: Command) => {
      const { removeServer } = await load();
      await run(removeServer(cwdOf(command), name, options.scope));
    });
}

function addApproveCommand(mcp: Command): void {
  mcp
    .command("approve")
    .description("start this project's servers (from .mcp.json or project settings) from now on")
    .argument("[names...]", "which servers (default: every one waiting for approval)")
    .option("--all", "also every server the project adds later")
    .option("-C, --cwd <dir>", "the project folder (default: the current folder)")
    .action(async (names: string[], options: { all?: boolean }, command: Command) => {
      const { approveServers } = await load();
      await run(approveServers(cwdOf(command), names, options.all === true));
    });
}

function addLoginCommand(mcp: Command): void {
  mcp
    .command("login")
    .description(
      "authorize hx with a remote server that asks for OAuth (opens the browser or prints the URL)",
    )
    .argument("<name>", "the server's name")
    .option("-C, --cwd <dir>", "the project folder (default: the current folder)")
    .option("--mcp-config <file...>", "also these JSON files of mcpServers")
    .action(async (name: string, options: { mcpConfig?: string[] }, command: Command) => {
      const { loginServer } = await import("./mcp-login.js");
      await run(loginServer(cwdOf(command), name, options));
    });
}

function addLogoutCommand(mcp: Command): void {
  mcp
    .command("logout")
    .description("forget the OAuth tokens and client registration hx keeps for a server")
    .argument("<name>", "the server's name")
    .option("-C, --cwd <dir>", "the project folder (default: the current folder)")
    .option("--mcp-config <file...>", "also these JSON files of mcpServers")
    .action(async (name: string, options: { mcpConfig?: string[] }, command: Command) => {
      const { logoutServer } = await import("./mcp-login.js");
      await run(logoutServer(cwdOf(command), name, options));
    });
}

function addResetProjectChoicesCommand(mcp: Command): void {
  mcp
    .command("reset-project-choices")
    .description("forget which of this project's servers were approved or declined (hx asks again)")
    .option("-C, --cwd <dir>", "the project folder (default: the current folder)")
    .action(async (_options: unknown, command: Command) => {
      const { resetChoices } = await load();
      await run(resetChoices(cwdOf(command)));
    });
}
