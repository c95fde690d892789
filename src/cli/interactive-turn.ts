import type { EventSink } from "../core/events.js";
import type { SessionRunResult } from "../session/agent-session.js";
import { type InteractiveHost, runInteractiveCommand } from "./interactive-commands.js";
import { classifyInput } from "./interactive-input.js";
import { attachFiles } from "./prompt-attachments.js";
import { runShellEscape } from "./shell-escape.js";

/** Where one submission's output goes. */
export interface SubmissionIO {
  emit: EventSink;
  signal: AbortSignal;
  /** hx's own lines (command output, notices). */
  print: (text: string) => void;
}

/** Output of `!cmd` not yet seen by the model: it goes in front of the next prompt. */
export interface PendingContext {
  shell: string[];
}

/** The largest `!cmd` output carried into the next prompt. */
const MAX_SHELL_CONTEXT_CHARS = 20_000;

/**
 * One submitted input: a command (`/name`), a shell command (`!cmd`), or a prompt (with `@path`
 * attachments and any pending `!cmd` output) for the model. Returns the run's result for a
 * prompt, undefined otherwise.
 */
export async function runSubmission(
  host: InteractiveHost,
  text: string,
  io: SubmissionIO,
  pending: PendingContext,
): Promise<SessionRunResult | undefined> {
  const input = classifyInput(text);
  switch (input.kind) {
    case "empty":
      return undefined;
    case "command": {
      const outcome = await runInteractiveCommand(host, input.name, input.args, io);
      return outcome === "skill" ? runModelPrompt(host, text.trim(), io, pending) : undefined;
    }
    case "shell": {
      const result = await runShellEscape(host.session(), input.command, io);
      const output =
        result.output.length > MAX_SHELL_CONTEXT_CHARS
          ? `${result.output.slice(0, MAX_SHELL_CONTEXT_CHARS)}\n…(cut)`
          : result.output;
      pending.shell.push(
        `<user-shell-command command=${JSON.stringify(input.command)}>\n${output}\n</user-shell-command>`,
      );
      return undefined;
    }
    case "prompt":
      return runModelPrompt(host, input.text, io, pending);
  }
}

async function runModelPrompt(
  host: InteractiveHost,
  text: string,
  io: SubmissionIO,
  pending: PendingContext,
): Promise<SessionRunResult> {
  const session = host.session();
  const attachments = attachFiles(text, session.workspace);
  for (const problem of attachments.problems) io.print(problem);
  if (attachments.attached.length) io.print(`attached: ${attachments.attached.join(", ")}`);
  const shell = pending.shell.splice(0);
  // After the text, so a `/skill args` prompt still starts with its name.
  const prompt = shell.length
    ? `${attachments.prompt}\n\nThe user ran these commands before this prompt; their output is for context:\n${shell.join("\n\n")}`
    : attachments.prompt;
  return session.run(prompt, { emit: io.emit, signal: io.signal });
}
