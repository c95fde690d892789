import type { EventSink } from "../core/events.js";
import { ProviderError } from "../providers/provider.js";
import type { SessionRunResult } from "../session/agent-session.js";
import { createStreamJsonSink, resultSummary } from "./output-formats.js";
import { prepareRun } from "./prepare-run.js";
import type { RunFlags } from "./run-config.js";
import { fitTaskToWindow } from "./task-input.js";
import { createTerminalRenderer } from "./terminal-renderer.js";
import { neutraliseTerminalText } from "./terminal-safe.js";
import { formatStatsLine } from "./trace-format.js";

/**
 * `hx agent "<task>"`: one task to completion. The answer goes to stdout; the trace, notices
 * and the closing stats line to stderr. Returns the exit code.
 */
export async function runAgentCommand(task: string, flags: RunFlags): Promise<number> {
  const prepared = await prepareRun(flags);
  const { config } = prepared;
  // Lines for a person: file names and server messages in them must not drive the terminal.
  const log = (line: string) => process.stderr.write(`${neutraliseTerminalText(line)}\n`);
  const controller = new AbortController();
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    controller.abort();
  };
  // Asks only when a person is at the terminal; in scripts and CI such calls are denied at once.
  // Ctrl-C at a question cancels the whole run (exit 130), as it does anywhere else. The
  // question's code (readline, diffs) loads only when there is a terminal to ask at.
  const ask = process.stdin.isTTY
    ? (await import("./terminal-ask.js")).terminalAskerIfInteractive(process.stdin, process.stderr, interrupt)
    : undefined;
  // The session's modules load after prepareRun has started the MCP servers: they boot meanwhile.
  const { openSession } = await import("./open-session.js");
  const session = await openSession(prepared, flags, { log, ask });
  const fitted = fitTaskToWindow(task, { cwd: prepared.cwd, window: prepared.contextWindow, log });

  const emit: EventSink =
    config.outputFormat === "stream-json"
      ? createStreamJsonSink(process.stdout)
      : config.outputFormat === "json"
        ? () => {}
        : createTerminalRenderer({
            stdout: process.stdout,
            stderr: process.stderr,
            streamText: false,
            showReasoning: config.verbose || Boolean(process.stderr.isTTY),
            verbose: config.verbose,
          });

  // First Ctrl-C cancels the run (tools are stopped, the stats still print); a second one quits.
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    log("cancelling… (Ctrl-C again to quit at once)");
    interrupt();
  };
  process.on("SIGINT", onSigint);
  let result: SessionRunResult;
  try {
    result = await session.run(fitted, { emit, signal: controller.signal });
  } finally {
    process.off("SIGINT", onSigint);
    await session.close();
  }

  if (config.outputFormat === "json") {
    process.stdout.write(`${JSON.stringify(resultSummary(result))}\n`);
  } else if (config.outputFormat === "stream-json") {
    process.stdout.write(`${JSON.stringify({ type: "end", ...resultSummary(result) })}\n`);
  } else if (result.text) {
    // Piped, the answer is passed on byte for byte; on a terminal it is neutralised.
    const text = process.stdout.isTTY ? neutraliseTerminalText(result.text) : result.text;
    process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  }
  if (config.outputFormat === "text") log(formatStatsLine(result.stats, result.subagentStats));
  const code = reportOutcome(result, log, config.outputFormat === "json");
  // Cancelled by Ctrl-C: the shell's convention for "interrupted".
  return interrupted && result.stop === "aborted" ? 130 : code;
}

function reportOutcome(result: SessionRunResult, log: (line: string) => void, quiet: boolean): number {
  if (result.refused) {
    log(`hx: the prompt was refused: ${result.refused}`);
    return 1;
  }
  switch (result.stop) {
    case "done":
      return 0;
    case "length":
      // The trace already warned; --output-format json has no trace, so say it here too.
      if (quiet) log("hx: warning: the answer was cut off at the model's output limit; it is incomplete.");
      return 0;
    case "aborted":
      log("hx: cancelled.");
      return 1;
    default: {
      const error = result.error ?? new ProviderError("network", "The run failed.");
      log(`hx: ${error.message}`);
      if (error.hint) log(error.hint);
      return 1;
    }
  }
}
