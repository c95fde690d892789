import type { EventSink } from "../core/events.js";
import type { AgentSession } from "../session/agent-session.js";

/** The tool `!cmd` runs: the shell tool the model calls, so the same OS sandbox holds it. */
const SHELL_TOOL = "bash";

export interface ShellEscapeResult {
  /** What the command printed (or why it could not start). */
  output: string;
  isError: boolean;
}

/**
 * `!cmd` at the interactive prompt: the user's own command. It runs as a call of the shell
 * tool without a permission question, rule or hook — the user typed it — but inside the OS
 * sandbox the tool holds (unless the user turned the sandbox off); the screen shows it as it
 * shows the model's calls, its output live.
 */
export async function runShellEscape(
  session: AgentSession,
  command: string,
  options: { emit: EventSink; signal: AbortSignal },
): Promise<ShellEscapeResult> {
  const call = {
    id: `user_shell_${Date.now().toString(36)}`,
    name: SHELL_TOOL,
    arguments: JSON.stringify({ command }),
  };
  const message = await session.runUserCall(call, options);
  return { output: message.content, isError: message.isError === true };
}
