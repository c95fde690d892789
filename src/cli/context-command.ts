import { openSession } from "./open-session.js";
import { resolveRun } from "./prepare-run.js";
import type { RunFlags } from "./run-config.js";

/**
 * `hx context`: what the next request of a new session (or, with --continue/--resume, of a
 * saved one) would hold, in tokens. Needs no API key: nothing is sent.
 */
export async function runContextCommand(flags: RunFlags): Promise<number> {
  const resolved = await resolveRun(flags);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  // No provider: the session is measured, never run (its model is named, not loaded).
  const session = await openSession(resolved, flags, { log });
  const context = session.commands.find((c) => c.name === "context");
  context?.run("", {
    print: (text) => process.stdout.write(`${text}\n`),
    emit: () => {},
    signal: new AbortController().signal,
  });
  await session.close();
  return 0;
}
