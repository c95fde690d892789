import { Command, CommanderError, Option } from "commander";
import { errorMessage } from "../core/error-message.js";
import { ProviderError } from "../providers/provider.js";
import { registerDoctorCommand } from "./doctor-command.js";
import { registerMcpCommand } from "./mcp-command.js";
import { registerPermissionsCommand } from "./permissions-command.js";
import { registerPluginCommand } from "./plugin-command.js";
import { registerRewindCommand } from "./rewind-command.js";
import { UsageError } from "./run-config.js";
import { registerSessionsCommand } from "./sessions-command.js";
import { registerSkillsCommand } from "./skills-command.js";
import { registerTasksCommand } from "./tasks-command.js";
import { registerTrustCommand } from "./trust-command.js";
import { VERSION } from "./version.js";
import { registerWorktreeCommand } from "./worktree-command.js";

/** Options shared by `hx agent` and the interactive session. */
function addRunOptions(command: Command): Command {
  return command
    .addOption(new Option("--provider <name>", "model provider: deepseek, openai, anthropic, scripted"))
    .option("--model <name>", "model name (default: the provider's default)")
    .option("--base-url <url>", "API base URL, e.g. http://127.0.0.1:11434/v1 for a local server")
    .option("--max-turns <n>", "stop after N model requests (default 50)")
    .option("-C, --cwd <dir>", "work in DIR instead of the current folder")
    .option("-w, --worktree [name]", "work in a new git worktree .hx/worktrees/NAME (branch hx/NAME)")
    .addOption(new Option("--output-format <format>", "text, json or stream-json").default(undefined))
    .option("--thinking <on|off>", "DeepSeek thinking mode (default on)")
    .option("--script <file>", "reply script for --provider scripted")
    .option("--permission-mode <mode>", "default, acceptEdits, plan or bypassPermissions")
    .option("--sandbox <mode>", "OS sandbox for commands: workspace-write (default), read-only or off")
    .option("--context-window <tokens>", "override the model's context window")
    .option("-c, --continue", "continue this project's latest saved session")
    .option("--resume <id>", "continue the saved session ID (see hx sessions list)")
    .option(
      "--mcp-config <file...>",
      "start the MCP servers of these JSON files (mcpServers, as in .mcp.json)",
    )
    .option("--strict-mcp-config", "use only the --mcp-config servers")
    .option(
      "--trust",
      "trust this folder for this run: its project settings and skills apply whole (see hx trust)",
    )
    .option("-v, --verbose", "show tool results, hook lines and what the catalog shortened");
}

/** Options of headless runs (`hx agent`, `hx -p`): docs/headless.md. */
function addHeadlessOptions(command: Command): Command {
  return command
    .option("--output-schema <file>", "the final answer must be JSON valid against this JSON Schema")
    .option("--max-budget-usd <dollars>", "stop before the next model request once the run cost this much")
    .option(
      "--max-budget-tokens <n>",
      "stop before the next model request once the run used this many tokens",
    )
    .option(
      "--allowed-tools <rules...>",
      'also allow these permission rules, e.g. "bash(npm test*)" read_file',
    )
    .option("--skills-path <dirs...>", "also read skills from these folders (as skills.paths in settings)")
    .option("--no-session-persistence", "write no session files (the run cannot be resumed)")
    .option("--ephemeral", "same as --no-session-persistence");
}

function buildProgram(): Command {
  const program = new Command("hx")
    .description("HarnessX: a coding agent whose model learns project rules on demand.")
    .version(VERSION, "-V, --version")
    .showHelpAfterError("(run hx --help for usage)")
    .enablePositionalOptions()
    .exitOverride()
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        '  hx agent "fix the failing test"               one task; answer on stdout, trace on stderr',
        "  hx                                            interactive session (/help inside)",
        '  hx "explain this repo"                        interactive session, starting with that prompt',
        '  hx -p "fix the failing test"                  same as hx agent "..."',
        '  cat build.log | hx -p "why did it fail?"      piped input is attached to the task',
        '  hx agent --provider openai --base-url http://127.0.0.1:11434/v1 --model qwen3 "..."',
        "",
        "Environment: DEEPSEEK_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY; HX_PROVIDER, HX_MODEL,",
        "HX_BASE_URL, HX_CONTEXT_WINDOW, HX_MAX_RETRIES, HX_REQUEST_TIMEOUT_MS.",
        "Settings: ~/.hx/settings.json, .hx/settings.json, .hx/settings.local.json (flags > env > project > user).",
      ].join("\n"),
    );
  // `hx --provider openai agent "hi"`: options given before the subcommand are the subcommand's.
  program.hook("preAction", (root, action) => adoptGlobalOptions(root, action));
  // Commands load their modules on use, so `hx --help` and `hx --version` stay fast.
  addHeadlessOptions(addRunOptions(program))
    .argument("[prompt...]", "the first prompt of the session (with -p: the task, as hx agent)")
    .option("-p, --print", 'run the prompt to completion and print the answer (same as hx agent "<prompt>")')
    .helpCommand("help [command]", "show help for a command")
    .action(async (words: string[], options) => {
      if (options.print) {
        const { runAgentCommand } = await import("./agent-command.js");
        process.exitCode = await runAgentCommand(await taskText(words), options);
        return;
      }
      refuseHeadlessOptions(options);
      const { runInteractive } = await import("./interactive.js");
      const prompt = words.join(" ").trim();
      process.exitCode = await runInteractive(options, prompt || undefined);
    });

  addHeadlessOptions(
    addRunOptions(
      program
        .command("agent")
        .description("run one task to completion; the answer goes to stdout, the trace to stderr")
        .argument("[task...]", "what to do (or '-' / nothing to read it from piped stdin)"),
    ),
  ).action(async (task: string[], options) => {
    const { runAgentCommand } = await import("./agent-command.js");
    process.exitCode = await runAgentCommand(await taskText(task), options);
  });

  addRunOptions(
    program
      .command("context")
      .description("show what the next request would hold, in tokens (sends nothing)"),
  ).action(async (options) => {
    const { runContextCommand } = await import("./context-command.js");
    process.exitCode = await runContextCommand(options);
  });
  addRunOptions(
    program
      .command("acp")
      .description(
        "serve the Agent Client Protocol on stdin/stdout, for editors (Zed, JetBrains, Neovim, Emacs)",
      ),
  ).action(async (options) => {
    const { runAcpCommand } = await import("./acp/acp-command.js");
    process.exitCode = await runAcpCommand(options);
  });
  registerSkillsCommand(program);
  registerSessionsCommand(program);
  registerTasksCommand(program);
  registerRewindCommand(program);
  registerWorktreeCommand(program);
  registerDoctorCommand(program);
  registerPermissionsCommand(program);
  registerMcpCommand(program);
  registerPluginCommand(program);
  registerTrustCommand(program);
  return program;
}

/** The headless options mean nothing to the interactive session: say so instead of ignoring them. */
function refuseHeadlessOptions(options: Record<string, unknown>): void {
  const given = [
    options.outputSchema !== undefined && "--output-schema",
    options.allowedTools !== undefined && "--allowed-tools",
    options.skillsPath !== undefined && "--skills-path",
    options.maxBudgetUsd !== undefined && "--max-budget-usd",
    options.maxBudgetTokens !== undefined && "--max-budget-tokens",
    options.sessionPersistence === false && "--no-session-persistence",
    options.ephemeral && "--ephemeral",
  ].filter(Boolean);
  if (given.length > 0) {
    throw new UsageError(
      `${given.join(", ")}: only with -p or hx agent (headless runs; see docs/headless.md).`,
    );
  }
}

/**
 * Options given before a subcommand (parsed by `hx` itself) go to the subcommand when it has
 * them (`hx --model m agent "hi"` is `hx agent --model m "hi"`); one it does not have, or the
 * same option given on both sides with different values, is a usage error (exit 2) — never
 * silently ignored.
 */
function adoptGlobalOptions(root: Command, action: Command): void {
  if (action === root) return;
  const name = commandPath(action);
  for (const option of root.options) {
    const key = option.attributeName();
    if (root.getOptionValueSource(key) !== "cli") continue;
    const flag = option.long ?? option.short ?? key;
    const value = root.getOptionValue(key);
    if (!action.options.some((o) => o.attributeName() === key))
      throw new UsageError(`${flag} does not apply to hx ${name} (see hx ${name} --help).`);
    if (action.getOptionValueSource(key) === "cli") {
      if (JSON.stringify(action.getOptionValue(key)) !== JSON.stringify(value))
        throw new UsageError(`${flag} is given twice, before and after ${name}, with different values.`);
      continue;
    }
    action.setOptionValueWithSource(key, value, "cli");
  }
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** Piped input larger than this is refused (the model could not read it in one request anyway). */
const MAX_STDIN_BYTES = 1024 * 1024;

/**
 * The task: the arguments, with piped stdin attached after them (`cat log | hx agent "explain
 * this"`, as `claude -p` does); or stdin alone when the task is `-` or missing.
 */
async function taskText(words: string[]): Promise<string> {
  const joined = words.join(" ").trim();
  const piped = (await readPipedStdin())?.trim();
  if (joined !== "" && joined !== "-") {
    return piped ? `${joined}\n\n<stdin>\n${piped}\n</stdin>` : joined;
  }
  if (piped) return piped;
  throw new UsageError('missing task: hx agent "<task>", or pipe it: echo "<task>" | hx agent -');
}

/**
 * Stdin when something is piped in, capped: a shell pipe or a file is read to its end; a socket
 * (how many programs spawn hx) only when its first bytes or its end come within
 * SOCKET_GRACE_MS, so a parent that leaves stdin open does not hang the run. Never a terminal.
 */
async function readPipedStdin(): Promise<string | undefined> {
  // fstat first: process.stdin is built only for input there is to read (a terminal is neither).
  const { fstatSync } = await import("node:fs");
  let stat: import("node:fs").Stats;
  try {
    stat = fstatSync(0);
  } catch {
    return undefined;
  }
  if (!stat.isFIFO() && !stat.isFile() && !stat.isSocket()) return undefined;
  if (stat.isSocket() && !(await inputArrives(SOCKET_GRACE_MS))) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_STDIN_BYTES) {
      process.stdin.destroy();
      throw new UsageError(
        `piped input is over ${MAX_STDIN_BYTES / 1024 / 1024} MB. Save it to a file in the workspace and name the file in the task instead.`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const SOCKET_GRACE_MS = 250;

/** Whether stdin becomes readable (data or its end) within `ms`. */
function inputArrives(ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      process.stdin.off("readable", onReadable);
      process.stdin.off("end", onReadable);
      if (!value) {
        // Not read after all: it must not keep hx running once the task is done.
        process.stdin.pause();
        (process.stdin as { unref?: () => void }).unref?.();
      }
      resolve(value);
    };
    const onReadable = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    process.stdin.once("readable", onReadable);
    process.stdin.once("end", onReadable);
  });
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    return reportFatal(error);
  }
}

/** One clear line for the user, never a stack trace (unless HX_DEBUG is set). */
function reportFatal(error: unknown): number {
  if (error instanceof CommanderError) {
    if (
      error.exitCode === 0 ||
      error.code === "commander.helpDisplayed" ||
      error.code === "commander.version"
    ) {
      return 0;
    }
    return 2;
  }
  if (error instanceof UsageError) {
    process.stderr.write(`hx: ${error.message}\n`);
    return 2;
  }
  if (error instanceof ProviderError) {
    process.stderr.write(`hx: ${error.message}${error.hint ? `\n${error.hint}` : ""}\n`);
    return 1;
  }
  process.stderr.write(`hx: ${errorMessage(error)}\n`);
  if (process.env.HX_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  return 1;
}

// `hx --help | head` closes the pipe early: stop quietly instead of dying on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// No top-level await: the bundle is CommonJS (scripts/build.mjs says why).
void main(process.argv).then((code) => {
  process.exitCode = code;
});
