import { readFileSync } from "node:fs";
import path from "node:path";
import { isatty } from "node:tty";
import type { Capability } from "../agent/capability.js";
import type { BudgetCapability } from "../budget/capability.js";
import { monotonicMs } from "../core/clock.js";
import type { EventSink } from "../core/events.js";
import { addUsage } from "../core/messages.js";
import { ProviderError } from "../providers/provider.js";
import type { AgentSession, SessionRunResult } from "../session/agent-session.js";
import {
  createStreamJsonSink,
  type HeadlessOutcome,
  initEvent,
  type PermissionDenial,
  type ResultSubtype,
  resultObject,
} from "./output-formats.js";
import { type PreparedRun, prepareRun } from "./prepare-run.js";
import { costOf, createPriceTable } from "./prices.js";
import { type RunFlags, UsageError } from "./run-config.js";
import { fitTaskToWindow } from "./task-input.js";
import { createTerminalRenderer } from "./terminal-renderer.js";
import { neutraliseTerminalText } from "./terminal-safe.js";
import { formatStatsLine } from "./trace-format.js";
import { VERSION } from "./version.js";

/** Flags of headless runs only (`hx agent`, `hx -p`); docs/headless.md. */
export interface HeadlessFlags {
  outputSchema?: string;
  /** Permission rules added to `permissions.allow` for this run. */
  allowedTools?: string[];
  /** Folders added to `skills.paths` for this run. */
  skillsPath?: string[];
  maxBudgetUsd?: string;
  maxBudgetTokens?: string;
  /** False with `--no-session-persistence`. */
  sessionPersistence?: boolean;
  ephemeral?: boolean;
}

/** Exit codes of a headless run (docs/headless.md). */
const EXIT = { ok: 0, error: 1, usage: 2, budget: 3, sigint: 130, sigterm: 143 } as const;

/**
 * `hx agent "<task>"`: one task to completion. The answer goes to stdout; the trace, notices
 * and the closing stats line to stderr. Returns the exit code.
 */
export async function runAgentCommand(task: string, flags: RunFlags & HeadlessFlags): Promise<number> {
  const started = monotonicMs();
  const headless = readHeadlessFlags(flags);
  const prepared = withHeadlessSettings(await prepareRun(flags), flags);
  const price = createPriceTable(prepared.settings.merged.prices).priceOf(prepared.model);
  if (headless.maxBudgetUsd !== undefined && !price) {
    throw new UsageError(
      `--max-budget-usd: the price of model '${prepared.model}' is unknown, so its cost cannot be counted. Add it under "prices" in settings, or use --max-budget-tokens.`,
    );
  }
  // Lines for a person: file names and server messages in them must not drive the terminal.
  const log = (line: string) => process.stderr.write(`${neutraliseTerminalText(line)}\n`);
  const cancel = createCancellation();
  // Asks only when a person is at the terminal; in scripts and CI such calls are denied at once.
  // Ctrl-C at a question cancels the whole run (exit 130), as it does anywhere else. The
  // question's code (readline, diffs) loads only when there is a terminal to ask at.
  // isatty, not process.stdin.isTTY: building process.stdin costs a run that never reads it.
  const ask = isatty(0)
    ? (await import("./terminal-ask.js")).terminalAskerIfInteractive(process.stdin, process.stderr, () =>
        cancel.interrupt("SIGINT"),
      )
    : undefined;
  const { budget, schema, extra } = await headlessCapabilities(headless, price);

  // The session's modules load after prepareRun has started the MCP servers: they boot meanwhile.
  const { openSession } = await import("./open-session.js");
  const session = await openSession(
    prepared,
    flags,
    { log, ask },
    { persist: headless.persist, extraCapabilities: extra.length > 0 ? () => extra : undefined },
  );
  const fitted = fitTaskToWindow(task, { cwd: prepared.cwd, window: prepared.contextWindow, log });
  const tracker = createRunTracker();
  const shown = outputSink(prepared.config);
  // The run's output ends with its answer: what background jobs still say while hx exits
  // (a subagent it stops) never follows the result line.
  let answered = false;
  const emit: EventSink = (event) => {
    if (answered) return;
    tracker.observe(event);
    shown(event);
  };
  if (prepared.config.outputFormat === "stream-json") writeInitEvent(prepared, session, headless.persist);
  const result = await runUntilSignalled(session, fitted, emit, cancel, log);
  answered = true;

  const verdict = schema && result.stop === "done" && !result.refused ? schema.check(result.text) : undefined;
  const interrupted =
    cancel.signalled() !== undefined && result.stop === "aborted" ? cancel.signalled() : undefined;
  const outcome: HeadlessOutcome = {
    result,
    subtype: resultSubtype(result, { interrupted, budget, schemaFailed: verdict?.ok === false }),
    sessionId: session.transcript.id,
    model: prepared.model,
    provider: prepared.config.provider,
    durationMs: Math.round(monotonicMs() - started),
    durationApiMs: Math.round(tracker.apiMs()),
    costUsd: price ? costOf(addUsage(result.stats.usage, result.subagentStats.usage), price) : null,
    denials: tracker.denials,
    structured: verdict ? (verdict.ok ? { value: verdict.value } : { error: verdict.error }) : undefined,
    signal: interrupted,
    budget: budget?.exceeded(),
    persisted: headless.persist,
    stillRunning: session.background?.running().map((job) => ({
      id: job.id,
      kind: job.kind,
      command: job.command,
      runningMs: Date.now() - job.startedAt,
    })),
  };
  return finishRun(outcome, prepared.config.outputFormat, log);
}

/** The run's cancel switch and the first signal that pulled it. */
function createCancellation() {
  const controller = new AbortController();
  let signalled: NodeJS.Signals | undefined;
  return {
    controller,
    signalled: () => signalled,
    interrupt(signal: NodeJS.Signals = "SIGINT") {
      signalled ??= signal;
      controller.abort();
    },
  };
}

/** `--max-budget-*` and `--output-schema` as capabilities of the session (loaded only when given). */
async function headlessCapabilities(
  headless: ReturnType<typeof readHeadlessFlags>,
  price: ReturnType<ReturnType<typeof createPriceTable>["priceOf"]>,
) {
  const budget =
    headless.maxBudgetUsd !== undefined || headless.maxBudgetTokens !== undefined
      ? (await import("../budget/capability.js")).setUpBudget({
          maxCostUsd: headless.maxBudgetUsd,
          maxTokens: headless.maxBudgetTokens,
          costOf: price ? (usage) => costOf(usage, price) : undefined,
        })
      : undefined;
  const schema = headless.outputSchema
    ? await (await import("../output-schema/capability.js"))
        .setUpOutputSchema(headless.outputSchema.schema)
        .catch((error: Error) => {
          throw new UsageError(`--output-schema ${headless.outputSchema?.file}: ${error.message}`);
        })
    : undefined;
  const extra: Capability[] = [...(budget ? [budget] : []), ...(schema ? [schema] : [])];
  return { budget, schema, extra };
}

/** Where the run's events go: JSON lines, nowhere (`json` prints only the result), or the trace. */
function outputSink(config: PreparedRun["config"]): EventSink {
  if (config.outputFormat === "stream-json") return createStreamJsonSink(process.stdout);
  if (config.outputFormat === "json") return () => {};
  return createTerminalRenderer({
    stdout: process.stdout,
    stderr: process.stderr,
    streamText: false,
    showReasoning: config.verbose || Boolean(process.stderr.isTTY),
    verbose: config.verbose,
  });
}

/** `stream-json`'s first line: the session, its tools, servers, skills and commands. */
function writeInitEvent(prepared: PreparedRun, session: AgentSession, persisted: boolean): void {
  const states = prepared.mcp?.manager.states ?? [];
  const line = initEvent({
    sessionId: session.transcript.id,
    cwd: prepared.cwd,
    model: prepared.model,
    provider: prepared.config.provider,
    tools: session.toolSchemas().map((tool) => tool.name),
    mcpServers: states.map((s) => ({
      name: s.definition.name,
      status: s.connection ? s.connection.status : "not started",
    })),
    skills: session.skills.map((skill) => skill.name),
    slashCommands: session.commands.map((command) => command.name),
    permissionMode: session.permissions.mode,
    version: VERSION,
    persisted,
  });
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/**
 * Runs the task and closes the session. The first Ctrl-C (or SIGTERM) cancels the run: the
 * running tool's process group is ended, the transcript and the result are written. A second
 * one quits at once.
 */
async function runUntilSignalled(
  session: AgentSession,
  task: string,
  emit: EventSink,
  cancel: ReturnType<typeof createCancellation>,
  log: (line: string) => void,
): Promise<SessionRunResult> {
  const onSignal = (signal: NodeJS.Signals) => {
    if (cancel.controller.signal.aborted) process.exit(signal === "SIGTERM" ? EXIT.sigterm : EXIT.sigint);
    log(`cancelling… (${signal === "SIGTERM" ? "SIGTERM" : "Ctrl-C"} again to quit at once)`);
    cancel.interrupt(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await session.run(task, { emit, signal: cancel.controller.signal });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await session.close();
  }
}

/** Prints the answer (or the result object) and the closing lines; returns the exit code. */
function finishRun(
  outcome: HeadlessOutcome,
  format: PreparedRun["config"]["outputFormat"],
  log: (line: string) => void,
): number {
  const { result } = outcome;
  if (format !== "text") {
    process.stdout.write(`${JSON.stringify(resultObject(outcome))}\n`);
  } else if (result.text) {
    // Piped, the answer is passed on byte for byte; on a terminal it is neutralised.
    const text = process.stdout.isTTY ? neutraliseTerminalText(result.text) : result.text;
    process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  }
  if (format === "text") log(formatStatsLine(result.stats, result.subagentStats));
  if (outcome.structured && "error" in outcome.structured) {
    log(`hx: the final answer does not match --output-schema: ${outcome.structured.error}`);
    return EXIT.error;
  }
  if (outcome.budget) {
    log(`hx: ${result.error?.message ?? "stopped at the budget."}`);
    return EXIT.budget;
  }
  const code = reportOutcome(result, log, format === "json");
  // Cancelled by a signal: the shell's convention for "interrupted" (128 + the signal's number).
  if (outcome.signal) return outcome.signal === "SIGTERM" ? EXIT.sigterm : EXIT.sigint;
  return code;
}

/** `--allowed-tools` and `--skills-path` on top of the settings, as if written in them (flags > settings). */
function withHeadlessSettings(prepared: PreparedRun, flags: HeadlessFlags): PreparedRun {
  if (!flags.allowedTools?.length && !flags.skillsPath?.length) return prepared;
  const merged = prepared.settings.merged;
  const cwd = prepared.cwd;
  return {
    ...prepared,
    settings: {
      ...prepared.settings,
      merged: {
        ...merged,
        permissions: {
          ...merged.permissions,
          allow: [...(merged.permissions?.allow ?? []), ...(flags.allowedTools ?? [])],
        },
        skills: {
          ...merged.skills,
          paths: [
            ...(merged.skills?.paths ?? []),
            ...(flags.skillsPath ?? []).map((dir) => path.resolve(cwd, dir)),
          ],
        },
      },
    },
  };
}

/** Checks the headless flags and reads the schema file; throws UsageError on bad input. */
function readHeadlessFlags(flags: HeadlessFlags & RunFlags) {
  const persist = flags.sessionPersistence !== false && !flags.ephemeral;
  if (!persist && (flags.continue || flags.resume !== undefined)) {
    throw new UsageError(
      "--no-session-persistence starts a session that leaves no files; it cannot continue a saved one (drop --continue/--resume, or the flag).",
    );
  }
  return {
    persist,
    maxBudgetUsd: positiveNumber(flags.maxBudgetUsd, "--max-budget-usd"),
    maxBudgetTokens: positiveNumber(flags.maxBudgetTokens, "--max-budget-tokens", true),
    outputSchema: flags.outputSchema ? readSchema(flags.outputSchema, flags.cwd) : undefined,
  };
}

function positiveNumber(value: string | undefined, name: string, whole = false): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || (whole && !Number.isInteger(parsed))) {
    throw new UsageError(
      `${name} must be a ${whole ? "positive whole number" : "positive number"} (got '${value}').`,
    );
  }
  return parsed;
}

function readSchema(
  file: string,
  cwd: string | undefined,
): { file: string; schema: Record<string, unknown> } {
  const full = path.resolve(cwd ?? process.cwd(), file);
  let text: string;
  try {
    text = readFileSync(full, "utf8");
  } catch (error) {
    throw new UsageError(`--output-schema: cannot read '${file}': ${(error as Error).message}`);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--output-schema: '${file}' is not JSON: ${(error as Error).message}`);
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new UsageError(`--output-schema: '${file}' must hold a JSON Schema object.`);
  }
  return { file, schema: schema as Record<string, unknown> };
}

function resultSubtype(
  result: SessionRunResult,
  facts: { interrupted?: NodeJS.Signals; budget?: BudgetCapability; schemaFailed: boolean },
): ResultSubtype {
  if (facts.interrupted || result.refused) return "error_during_execution";
  const exceeded = facts.budget?.exceeded();
  if (exceeded) return exceeded.kind === "usd" ? "error_max_budget_usd" : "error_max_budget_tokens";
  if (facts.schemaFailed) return "error_max_structured_output_retries";
  if (result.stop === "done" || result.stop === "length") return "success";
  if (result.stop === "max_turns") return "error_max_turns";
  return "error_during_execution";
}

/**
 * Facts the result object needs from the events: the calls that were refused (Claude Code's
 * `permission_denials`) and the time spent waiting for the model (`duration_api_ms`, from each
 * request's start to its answer; subagents' requests overlap the parent's tool call and are
 * not added twice).
 */
function createRunTracker() {
  const denials: PermissionDenial[] = [];
  const args = new Map<string, unknown>();
  let apiMs = 0;
  let requestStart: number | undefined;
  return {
    denials,
    apiMs: () => apiMs,
    observe(event: Parameters<EventSink>[0]): void {
      switch (event.type) {
        case "turn_start":
          requestStart = monotonicMs();
          break;
        case "assistant_message":
          if (requestStart !== undefined) apiMs += monotonicMs() - requestStart;
          requestStart = undefined;
          break;
        case "end":
          if (requestStart !== undefined) apiMs += monotonicMs() - requestStart;
          requestStart = undefined;
          break;
        case "tool_call":
          args.set(event.call.id, event.args ?? event.call.arguments);
          break;
        case "tool_result":
          if (event.blocked) {
            denials.push({
              tool_name: event.call.name,
              tool_use_id: event.call.id,
              tool_input: args.get(event.call.id) ?? event.call.arguments,
            });
          }
          break;
      }
    },
  };
}

function reportOutcome(result: SessionRunResult, log: (line: string) => void, quiet: boolean): number {
  if (result.refused) {
    log(`hx: the prompt was refused: ${result.refused}`);
    return EXIT.error;
  }
  switch (result.stop) {
    case "done":
      return EXIT.ok;
    case "length":
      // The trace already warned; --output-format json has no trace, so say it here too.
      if (quiet) log("hx: warning: the answer was cut off at the model's output limit; it is incomplete.");
      return EXIT.ok;
    case "aborted":
      log("hx: cancelled.");
      return EXIT.error;
    default: {
      const error = result.error ?? new ProviderError("network", "The run failed.");
      log(`hx: ${error.message}`);
      if (error.hint) log(error.hint);
      return EXIT.error;
    }
  }
}
