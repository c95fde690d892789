import readline from "node:readline";
import pc from "picocolors";
import type { EventSink } from "../core/events.js";
import type { Message } from "../core/messages.js";
import type { AgentSession, SessionRunResult } from "../session/agent-session.js";
import type { InteractiveHost } from "./interactive-commands.js";
import type { InteractiveSetup, SessionIO } from "./interactive-setup.js";
import { type PendingContext, runSubmission } from "./interactive-turn.js";
import { editsChoice } from "./permission-choices.js";
import { runOutcomeLines, sessionEndLines } from "./run-outcome.js";
import {
  askOnReadline,
  createPlanAsker,
  createTerminalAsker,
  createTerminalNetworkAsker,
} from "./terminal-ask.js";
import { createTerminalRenderer } from "./terminal-renderer.js";
import { neutraliseTerminalText } from "./terminal-safe.js";
import { formatStatsLine } from "./trace-format.js";
import { VERSION } from "./version.js";

const PROMPT = "hx >> ";

/** The line mode's changing parts: the session (a new one after /clear), the turn under way. */
interface PlainState {
  session: AgentSession;
  running?: AbortController;
  exiting: boolean;
}

/**
 * The line-mode session: for pipes, `TERM=dumb` and terminals that cannot take the full-screen
 * one. Plain text, one line per event; the same commands, `!cmd` and `@path` as the full one.
 */
export async function runPlainInteractive(setup: InteractiveSetup): Promise<number> {
  const prepared = await setup.prepare();
  const log = (line: string) => process.stderr.write(`${neutraliseTerminalText(line)}\n`);
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    prompt: PROMPT,
    historySize: 500,
    terminal: Boolean(process.stdin.isTTY && process.stdout.isTTY),
  });
  // The iterator is taken before anything is awaited (opening the session waits for MCP
  // servers), so no typed or piped line is missed: readline drops lines nobody listens to.
  const typed = rl[Symbol.asyncIterator]();
  // Questions can come while the session opens (project MCP servers): before there is a mode to change.
  let state: PlainState | undefined;
  const io = sessionIO(rl, log, () => state?.session);
  state = { session: await setup.openSession(io), exiting: false };
  const render = createTerminalRenderer({
    stdout: process.stdout,
    stderr: process.stderr,
    streamText: true,
    showReasoning: true,
    verbose: prepared.config.verbose,
  });
  const host = plainHost(setup, state, io, render);
  onCtrlC(rl, state);
  const provider = state.session.model;
  process.stdout.write(
    `${pc.bold("hx")} ${VERSION} · ${provider.name}/${provider.model} · ${prepared.cwd}\n`,
  );
  process.stdout.write(`${pc.dim("Type /help for commands, /exit or Ctrl-D to leave.")}\n`);
  const lines = setup.firstPrompt
    ? prependLine(setup.firstPrompt, typed)
    : { [Symbol.asyncIterator]: () => typed };
  await readLines(rl, lines, state, host, render, log);
  rl.close();
  await state.session.close();
  process.stdout.write("\n");
  for (const line of sessionEndLines(state.session)) log(pc.dim(line));
  return 0;
}

/** The session's questions on the readline, when a person is at the terminal (none otherwise). */
function sessionIO(
  rl: readline.Interface,
  log: (line: string) => void,
  opened: () => AgentSession | undefined,
): SessionIO {
  if (!process.stdin.isTTY) return { log };
  return {
    log,
    ask: createTerminalAsker({
      readline: rl,
      output: process.stderr,
      choiceContext: () => {
        const session = opened();
        return session ? editsChoice(session.permissions) : {};
      },
    }),
    askNetwork: createTerminalNetworkAsker({ readline: rl, output: process.stderr }),
    // Servers' forms (MCP elicitation) are asked one line per field on the same readline.
    askLine: (question: string, signal: AbortSignal) => askOnReadline(rl, question, signal),
    askPlan: createPlanAsker({ readline: rl, output: process.stderr }),
  };
}

function plainHost(
  setup: InteractiveSetup,
  state: PlainState,
  io: SessionIO,
  render: EventSink,
): InteractiveHost {
  return {
    session: () => state.session,
    prices: setup.prices,
    async newConversation() {
      await state.session.close();
      state.session = await setup.openSession(io, { fresh: true });
    },
    showConversation: (messages) => printConversation(messages),
    async sendPrompt(text, signal) {
      report(await state.session.run(text, { emit: render, signal }), io.log);
    },
    switchModel: (name) => setup.switchModel(state.session, name),
    modeChanged: () => {},
    exit: () => {
      state.exiting = true;
    },
    keys: [
      ["Ctrl-C", "cancel the running turn (at the prompt: clear the line)"],
      ["Ctrl-D", "leave"],
    ],
  };
}

/** Ctrl-C cancels the running turn; at the prompt it clears the line. */
function onCtrlC(rl: readline.Interface, state: PlainState): void {
  rl.on("SIGINT", () => {
    if (state.running) {
      state.running.abort();
      return;
    }
    rl.write(null, { ctrl: true, name: "u" });
    process.stdout.write(`\n${pc.dim("(Ctrl-D or /exit to quit)")}\n`);
    rl.prompt();
  });
}

/** Runs each line (a prompt, a command, `!cmd`) until the input ends or /exit. */
async function readLines(
  rl: readline.Interface,
  lines: AsyncIterable<string>,
  state: PlainState,
  host: InteractiveHost,
  render: EventSink,
  log: (line: string) => void,
): Promise<void> {
  const pending: PendingContext = { shell: [] };
  rl.prompt();
  for await (const line of lines) {
    state.running = new AbortController();
    const io = {
      emit: render,
      signal: state.running.signal,
      print: (text: string) => process.stdout.write(`${text}\n`),
    };
    const result = await runSubmission(host, line, io, pending);
    if (result) report(result, log);
    state.running = undefined;
    if (state.exiting) break;
    rl.prompt();
  }
}

const OUTCOME_COLOUR = { warn: pc.yellow, error: pc.red, info: (text: string) => text };

function report(result: SessionRunResult, log: (line: string) => void): void {
  for (const line of runOutcomeLines(result)) log(OUTCOME_COLOUR[line.level](line.text));
  log(pc.dim(formatStatsLine(result.stats, result.subagentStats)));
}

/** The conversation so far, as text: what was asked and answered (tool calls as one line each). */
function printConversation(messages: readonly Message[]): void {
  for (const message of messages) {
    if (message.role === "user")
      process.stdout.write(`${PROMPT}${neutraliseTerminalText(message.content)}\n`);
    else if (message.role === "assistant") {
      if (message.content) process.stdout.write(`${neutraliseTerminalText(message.content)}\n`);
      for (const call of message.toolCalls) process.stdout.write(pc.cyan(`> ${call.name}\n`));
    }
  }
}

/** The typed lines, with `first` before them (the prompt given on the command line). */
async function* prependLine(first: string, typed: AsyncIterator<string>): AsyncGenerator<string> {
  process.stdout.write(`${first}\n`);
  yield first;
  for (;;) {
    const next = await typed.next();
    if (next.done) return;
    yield next.value;
  }
}
