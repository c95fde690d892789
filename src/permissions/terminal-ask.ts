import { createInterface, type Interface } from "node:readline";
import { formatPermissionQuestion, type PermissionAsker, parsePermissionAnswer } from "./ask.js";

export interface TerminalAskerOptions {
  /** Default process.stdin. */
  input?: NodeJS.ReadableStream;
  /** Where the question is written; default process.stderr (stdout stays the answer's). */
  output?: NodeJS.WritableStream;
  /** An open readline interface (the REPL's); without one, a short-lived one is opened per question. */
  readline?: Interface;
}

/**
 * Asks `Allow bash(git status)? [y]es / [n]o / [a]lways` and reads one line. End of input,
 * a closed interface or a cancelled run count as "no", so it never waits for input that
 * cannot come.
 */
export function createTerminalAsker(options: TerminalAskerOptions = {}): PermissionAsker {
  return async (request) => {
    const question = formatPermissionQuestion(request);
    const line = options.readline
      ? await questionOn(options.readline, question, request.signal)
      : await readOneLine(
          options.input ?? process.stdin,
          options.output ?? process.stderr,
          question,
          request.signal,
        );
    // No answer (Ctrl-C, Ctrl-D): end the question's line so the next output starts clean.
    if (line === undefined) (options.output ?? process.stderr).write("\n");
    return parsePermissionAnswer(line);
  };
}

/** A terminal asker when stdin is a TTY; undefined otherwise (scripts, CI, pipes). */
export function terminalAskerIfInteractive(
  stdin: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): PermissionAsker | undefined {
  return stdin.isTTY ? createTerminalAsker({ input: stdin, output }) : undefined;
}

/** Writes `question` and resolves with the next line, or undefined on end of input or abort. */
export function readOneLine(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  question: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (signal?.aborted || isEnded(input)) return Promise.resolve(undefined);
  const rl = createInterface({ input, output, terminal: Boolean((input as NodeJS.ReadStream).isTTY) });
  return questionOn(rl, question, signal).finally(() => rl.close());
}

function questionOn(rl: Interface, question: string, signal?: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: string | undefined) => {
      if (settled) return;
      settled = true;
      rl.off("close", onClose);
      signal?.removeEventListener("abort", onAbort);
      resolve(value);
    };
    const onClose = () => settle(undefined);
    const onAbort = () => settle(undefined);
    rl.once("close", onClose);
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
