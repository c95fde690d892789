import type { EventSink } from "../core/events.js";
import type { AgentSession } from "../session/agent-session.js";

/** The tool `!cmd` runs: the same one the model calls, so the same rules and hooks apply. */
const SHELL_TOOL = "bash";

export interface ShellEscapeResult {
  /** What the command printed (or why it did not run). */
  output: string;
  /** Refused by the permission check or a hook. */
  blocked: boolean;
  isError: boolean;
}

/**
 * `!cmd` at the interactive prompt: runs `cmd` as a call of the shell tool through the
 * session, so every check comes first (permission rules, the mode, the block list, PreToolUse
 * hooks) — it is allowed, asked or refused exactly as the model's call would be — and the
 * screen shows it as it shows the model's calls.
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
  const { message, blocked } = await session.runToolCall(call, options);
  return { output: message.content, blocked, isError: message.isError === true };
}
