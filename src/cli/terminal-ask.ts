import { createInterface, type Interface } from "node:readline";
import pc from "picocolors";
import type { PermissionAsker, PermissionRequest } from "../permissions/index.js";
import type { PlanAsker } from "../plan/index.js";
import { formatNetworkQuestion, type NetworkAsker, parseNetworkAnswer } from "../sandbox/index.js";
import { changeCounts, renderDiff } from "./diff-view.js";
import { type ChoiceContext, formatLineQuestion, parseLineAnswer } from "./permission-choices.js";
import { PLAN_CHOICES } from "./plan-choices.js";
import { neutraliseTerminalText } from "./terminal-safe.js";

export interface TerminalAskerOptions {
  /** Default process.stdin. */
  input?: NodeJS.ReadableStream;
  /** Where the question is written; default process.stderr (stdout stays the answer's). */
  output?: NodeJS.WritableStream;
  /** An open readline interface (the REPL's); without one, a short-lived one is opened per question. */
  readline?: Interface;
  /** Ctrl-C at the question: besides answering "no", the caller cancels the run. */
  onInterrupt?: () => void;
  /** What the session can do besides answering, read at each question (see questionChoices). */
  choiceContext?: () => ChoiceContext;
}

/** Diff lines shown above the question; the rest is summarised. */
const MAX_DIFF_LINES = 60;

/**
 * Asks `Allow bash(git status)? [y] yes  [a] yes, always: save bash(git status)  [n] no …` and
 * reads one line (text that is no choice is "no, do this instead"). End of input,
 * a closed interface or a cancelled run count as "no", so it never waits for input that
 * cannot come.
 */
export function createTerminalAsker(options: TerminalAskerOptions = {}): PermissionAsker {
  return async (request) => {
    const output = options.output ?? process.stderr;
    const context = options.choiceContext?.() ?? {};
    const question = neutraliseTerminalText(formatLineQuestion(request, context));
    writePreview(request, output);
    const line = options.readline
      ? await questionOn(options.readline, question, request.signal, options.onInterrupt)
      : await readOneLine(
          options.input ?? process.stdin,
          output,
          question,
          request.signal,
          options.onInterrupt,
        );
    // No answer (Ctrl-C, Ctrl-D): end the question's line so the next output starts clean.
    if (line === undefined) output.write("\n");
    return parseLineAnswer(line, request, context);
  };
}

/**
 * Asks `Allow commands to reach example.com? [o]nce / [s]ession / [a]lways / [n]o` (the network
 * allow-list's question, while a command waits on the proxy) and reads one line; end of input
 * or a closed interface is "no".
 */
export function createTerminalNetworkAsker(options: TerminalAskerOptions = {}): NetworkAsker {
  return async (request) => {
    const output = options.output ?? process.stderr;
    const question = neutraliseTerminalText(formatNetworkQuestion(request));
    const line = options.readline
      ? await questionOn(options.readline, question)
      : await readOneLine(options.input ?? process.stdin, output, question);
    if (line === undefined) output.write("\n");
    return parseNetworkAnswer(line);
  };
}

/**
 * The plan question in the line mode: the plan, then `Carry out this plan? [y] … [d] … [n] …`;
 * text that is no key is what to change (keep planning), as is an empty line or no answer.
 */
export function createPlanAsker(options: { readline: Interface; output?: NodeJS.WritableStream }): PlanAsker {
  return async (plan, signal) => {
    const output = options.output ?? process.stderr;
    output.write(`\nThe model's plan:\n${neutraliseTerminalText(plan)}\n\n`);
    const keys = PLAN_CHOICES.map((c) => `[${c.key}] ${c.label.charAt(0).toLowerCase()}${c.label.slice(1)}`);
    const line = await questionOn(options.readline, `Carry out this plan? ${keys.join("  ")} `, signal);
    if (line === undefined) output.write("\n");
    const text = (line ?? "").trim();
    const picked = PLAN_CHOICES.find((c) => c.key === text.toLowerCase());
    if (picked && picked.choice !== "revise") return { kind: "approve", mode: picked.choice };
    return { kind: "revise", feedback: picked ? "" : text };
  };
}

/** The diff of a file change, coloured when the output is a colour terminal. */
function writePreview(request: PermissionRequest, output: NodeJS.WritableStream): void {
  if (!request.preview) return;
  const colors = pc.createColors(pc.isColorSupported && (output as NodeJS.WriteStream).isTTY === true);
  const { added, removed } = changeCounts(request.preview);
  const lines = [
    colors.dim(`${neutraliseTerminalText(request.preview.path)}: +${added} -${removed}`),
    ...renderDiff(
      request.preview,
      { added: colors.green, removed: colors.red, context: colors.dim, header: colors.cyan },
      MAX_DIFF_LINES,
    ),
  ];
  output.write(`${lines.join("\n")}\n`);
}

/** A terminal asker when stdin is a TTY; undefined otherwise (scripts, CI, pipes). */
export function terminalAskerIfInteractive(
  stdin: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
  onInterrupt?: () => void,
): PermissionAsker | undefined {
  return stdin.isTTY ? createTerminalAsker({ input: stdin, output, onInterrupt }) : undefined;
}

/** Writes `question` and resolves with the next line, or undefined on end of input or abort. */
export function readOneLine(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  question: string,
  signal?: AbortSignal,
  onInterrupt?: () => void,
): Promise<string | undefined> {
  if (signal?.aborted || isEnded(input)) return Promise.resolve(undefined);
  const rl = createInterface({ input, output, terminal: Boolean((input as NodeJS.ReadStream).isTTY) });
  return questionOn(rl, question, signal, onInterrupt).finally(() => rl.close());
}

/** Asks `question` on an open readline interface; undefined on end of input, Ctrl-C or abort. */
export function askOnReadline(
  rl: Interface,
  question: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  return questionOn(rl, neutraliseTerminalText(question), signal, () => {});
}

function questionOn(
  rl: Interface,
  question: string,
  signal?: AbortSignal,
  onInterrupt?: () => void,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: string | undefined) => {
      if (settled) return;
      settled = true;
      rl.off("close", onClose);
      if (onInterrupt) rl.off("SIGINT", onSigint);
      signal?.removeEventListener("abort", onAbort);
      resolve(value);
    };
    const onClose = () => settle(undefined);
    const onAbort = () => settle(undefined);
    const onSigint = () => {
      settle(undefined);
      onInterrupt?.();
    };
    rl.once("close", onClose);
    if (onInterrupt) rl.once("SIGINT", onSigint);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      rl.question(question, (answer) => settle(answer));
    } catch {
      settle(undefined); // the interface was already closed
    }
  });
}

function isEnded(input: NodeJS.ReadableStream): boolean {
  const stream = input as NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean };
  return stream.readableEnded === true || stream.destroyed === true;
}
