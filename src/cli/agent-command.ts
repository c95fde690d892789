import type { EventSink } from "../core/events.js";
import { terminalAskerIfInteractive } from "../permissions/index.js";
import { ProviderError } from "../providers/provider.js";
import type { SessionRunResult } from "../session/agent-session.js";
import { openSession } from "./open-session.js";
import { createStreamJsonSink, resultSummary } from "./output-formats.js";
import { prepareRun } from "./prepare-run.js";
import type { RunFlags } from "./run-config.js";
import { createTerminalRenderer } from "./terminal-renderer.js";
import { formatStatsLine } from "./trace-format.js";

/**
 * `hx agent "<task>"`: one task to completion. The answer goes to stdout; the trace, notices
 * and the closing stats line to stderr. Returns the exit code.
 */
export async function runAgentCommand(task: string, flags: RunFlags): Promise<number> {
  const prepared = await prepareRun(flags);
  const { config } = prepared;
  const log = (line: string) => process.stderr.write(`${line}\n`);
  // Asks only when a person is at the terminal; in scripts and CI such calls are denied at once.
  const session = await openSession(prepared, flags, { log, ask: terminalAskerIfInteractive() });

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

  const controller = new AbortController();
  // First Ctrl-C cancels the run (tools are stopped, the stats still print); a second one quits.
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    log("cancelling… (Ctrl-C again to quit at once)");
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  let result: SessionRunResult;
  try {
    result = await session.run(task, { emit, signal: controller.signal });
  } finally {
    process.off("SIGINT", onSigint);
    await session.close();
  }

  if (config.outputFormat === "json") {
    process.stdout.write(`${JSON.stringify(resultSummary(result))}\n`);
  } else if (config.outputFormat === "stream-json") {
    process.stdout.write(`${JSON.stringify({ type: "end", ...resultSummary(result) })}\n`);
  } else if (result.text) {
    process.stdout.write(result.text.endsWith("\n") ? result.text : `${result.text}\n`);
  }
  if (config.outputFormat === "text") log(formatStatsLine(result.stats, result.subagentStats));
  return reportOutcome(result, log, config.outputFormat === "json");
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
