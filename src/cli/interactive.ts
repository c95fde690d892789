import readline from "node:readline";
import pc from "picocolors";
import { errorMessage } from "../core/error-message.js";
import { createTerminalAsker } from "../permissions/index.js";
import type { AgentSession } from "../session/agent-session.js";
import type { SlashCommand } from "../session/capability.js";
import { openSession } from "./open-session.js";
import { prepareRun } from "./prepare-run.js";
import type { RunFlags } from "./run-config.js";
import { createTerminalRenderer } from "./terminal-renderer.js";
import { formatStatsLine } from "./trace-format.js";
import { VERSION } from "./version.js";

const PROMPT = "hx >> ";

/** `hx` without arguments: an interactive session. Returns the exit code. */
export async function runInteractive(flags: RunFlags): Promise<number> {
  const prepared = await prepareRun(flags);
  const { cwd, config, provider } = prepared;
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    prompt: PROMPT,
    historySize: 500,
    terminal: Boolean(process.stdin.isTTY && process.stdout.isTTY),
  });
  const session = await openSession(prepared, flags, {
    log,
    ask: process.stdin.isTTY ? createTerminalAsker({ readline: rl, output: process.stderr }) : undefined,
  });
  const render = createTerminalRenderer({
    stdout: process.stdout,
    stderr: process.stderr,
    streamText: true,
    showReasoning: true,
    verbose: config.verbose,
  });
  const commands = session.commands;

  let running: AbortController | undefined;
  rl.on("SIGINT", () => {
    if (running) {
      running.abort();
      return;
    }
    rl.write(null, { ctrl: true, name: "u" });
    process.stdout.write(`\n${pc.dim("(Ctrl-D or /exit to quit)")}\n`);
    rl.prompt();
  });

  process.stdout.write(`${pc.bold("hx")} ${VERSION} · ${provider.name}/${provider.model} · ${cwd}\n`);
  process.stdout.write(`${pc.dim("Type /help for commands, /exit or Ctrl-D to leave.")}\n`);
  rl.prompt();
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === "/exit" || line === "/quit") break;
    running = new AbortController();
    const io = {
      print: (text: string) => process.stdout.write(`${text}\n`),
      emit: render,
      signal: running.signal,
    };
    if (line === "") {
      // nothing to do
    } else if (line === "/help") {
      io.print(helpText(commands));
    } else {
      const [name, ...rest] = line.slice(1).split(/\s+/);
      const command = line.startsWith("/") ? commands.find((c) => c.name === name) : undefined;
      if (command) await runCommand(command, rest.join(" "), io, log);
      else await runPrompt(session, line, running.signal, render, log);
    }
    running = undefined;
    rl.prompt();
  }
  rl.close();
  await session.close();
  process.stdout.write("\n");
  log(pc.dim(`session: ${formatStatsLine(session.total)}`));
  log(pc.dim(`continue it later with: hx --resume ${session.transcript.id}`));
  return 0;
}

async function runPrompt(
  session: AgentSession,
  prompt: string,
  signal: AbortSignal,
  render: ReturnType<typeof createTerminalRenderer>,
  log: (line: string) => void,
): Promise<void> {
  const result = await session.run(prompt, { emit: render, signal });
  if (result.refused) log(pc.yellow(`refused: ${result.refused}`));
  else if (result.stop === "aborted") log(pc.yellow("cancelled."));
  else if (result.stop !== "done" && result.error) {
    log(pc.red(`error: ${result.error.message}`));
    if (result.error.hint) log(result.error.hint);
  }
  log(pc.dim(formatStatsLine(result.stats, result.subagentStats)));
}

async function runCommand(
  command: SlashCommand,
  args: string,
  io: Parameters<SlashCommand["run"]>[1],
  log: (line: string) => void,
): Promise<void> {
  try {
    await command.run(args, io);
  } catch (error) {
    log(pc.red(`/${command.name} failed: ${errorMessage(error)}`));
  }
}

function helpText(commands: readonly SlashCommand[]): string {
  const rows: Array<[string, string]> = [
    ["/help", "this help"],
    ...commands.map((c): [string, string] => [c.usage, c.description]),
    ["/<skill> [args]", "invoke a skill (see /skills)"],
    ["/exit", "leave (or Ctrl-D)"],
    ["Ctrl-C", "cancel the running turn (at the prompt: clear the line)"],
  ];
  const width = Math.max(...rows.map(([usage]) => usage.length));
  return [
    "Type a task and press Enter; the conversation is kept between prompts.",
    ...rows.map(([u, d]) => `  ${u.padEnd(width)}  ${d}`),
  ].join("\n");
}
