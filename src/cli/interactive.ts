import readline from "node:readline";
import pc from "picocolors";
import { createSession } from "../session/create-session.js";
import { prepareRun } from "./prepare-run.js";
import type { RunFlags } from "./run-config.js";
import { createTerminalRenderer } from "./terminal-renderer.js";
import { formatStatsLine } from "./trace-format.js";
import { VERSION } from "./version.js";

const PROMPT = "hx >> ";

const HELP = [
  "Type a task and press Enter. The conversation is kept between prompts.",
  "  /help        this help",
  "  /exit        leave (or Ctrl-D)",
  "  Ctrl-C       cancel the running turn (at the prompt: clear the line)",
].join("\n");

/** `hx` without arguments: an interactive session. Returns the exit code. */
export async function runInteractive(flags: RunFlags): Promise<number> {
  const { cwd, config, settings, provider } = await prepareRun(flags);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  for (const warning of settings.warnings) log(`warning: ${warning}`);
  const session = await createSession({
    cwd,
    provider,
    settings,
    maxTurns: config.maxTurns,
    verbose: config.verbose,
    log,
  });
  const render = createTerminalRenderer({
    stdout: process.stdout,
    stderr: process.stderr,
    streamText: true,
    showReasoning: true,
    verbose: config.verbose,
  });

  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    prompt: PROMPT,
    historySize: 500,
    terminal: Boolean(process.stdin.isTTY && process.stdout.isTTY),
  });
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
    if (line === "") {
      rl.prompt();
      continue;
    }
    if (line === "/help") {
      process.stdout.write(`${HELP}\n`);
      rl.prompt();
      continue;
    }
    running = new AbortController();
    const result = await session.run(line, { emit: render, signal: running.signal });
    running = undefined;
    if (result.refused) log(pc.yellow(`refused: ${result.refused}`));
    else if (result.stop === "aborted") log(pc.yellow("cancelled."));
    else if (result.stop !== "done" && result.error) {
      log(pc.red(`error: ${result.error.message}`));
      if (result.error.hint) log(result.error.hint);
    }
    log(pc.dim(formatStatsLine(result.stats, result.subagentStats)));
    rl.prompt();
  }
  rl.close();
  log(pc.dim(`session: ${formatStatsLine(session.total)}`));
  return 0;
}
