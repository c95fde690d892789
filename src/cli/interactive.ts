import type { RunFlags } from "./run-config.js";

/**
 * `hx` (and `hx "task"`): the interactive session. On a terminal it is the full-screen one
 * (its UI library is loaded only here, and it draws before the settings and the session
 * load); with a pipe or `TERM=dumb`, the plain line mode.
 */
export async function runInteractive(flags: RunFlags, firstPrompt?: string): Promise<number> {
  if (canDrawFullScreen()) {
    const { runFullScreen } = await import("./tui/app.js");
    return runFullScreen(flags, firstPrompt);
  }
  const { createInteractiveSetup } = await import("./interactive-setup.js");
  const ask = process.stdin.isTTY
    ? (await import("./terminal-ask.js")).terminalAskerIfInteractive(process.stdin, process.stderr)
    : undefined;
  const setup = await createInteractiveSetup(flags, firstPrompt, { ask });
  await setup.prepare(); // a missing key is reported before the prompt
  const { runPlainInteractive } = await import("./interactive-plain.js");
  return runPlainInteractive(setup);
}

/** A terminal on both ends that understands cursor movement. */
function canDrawFullScreen(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY) && process.env.TERM !== "dumb";
}
