import path from "node:path";
import { createProvider } from "../providers/registry.js";
import type { AgentSession } from "../session/agent-session.js";
import { type PreparedRun, resolveRun, withProvider } from "./prepare-run.js";
import { createPriceTable, type PriceTable } from "./prices.js";
import type { RunFlags } from "./run-config.js";

/** What both interactive front ends start from. */
export interface InteractiveSetup {
  /** Settings, configuration, model and window: known at once. */
  resolved: Omit<PreparedRun, "provider">;
  /** The same with the provider (its SDK loaded); the full screen draws before awaiting it. */
  prepare(): Promise<PreparedRun>;
  flags: RunFlags;
  prices: PriceTable;
  /** `hx "task"`: sent as the first prompt. */
  firstPrompt?: string;
  /** `/model NAME`: the same provider and settings with another model. */
  switchModel(session: AgentSession, model: string): Promise<void>;
}

/**
 * `hx` (and `hx "task"`): the interactive session. On a terminal it is the full-screen one
 * (its UI library is loaded only here); with a pipe or `TERM=dumb`, the plain line mode.
 */
export async function runInteractive(flags: RunFlags, firstPrompt?: string): Promise<number> {
  const resolved = resolveRun(flags);
  const { config } = resolved;
  let prepared: Promise<PreparedRun> | undefined;
  const setup: InteractiveSetup = {
    resolved,
    prepare: () => {
      prepared ??= withProvider(resolved);
      return prepared;
    },
    flags,
    firstPrompt,
    prices: createPriceTable(resolved.settings.merged.prices),
    async switchModel(session, model) {
      const provider = await createProvider({
        provider: config.provider,
        model,
        baseURL: config.baseURL,
        thinking: config.thinking,
        script: config.script ? path.resolve(config.script) : undefined,
        timeoutMs: config.requestTimeoutMs,
        maxRetries: config.maxRetries,
      });
      session.model.switchTo(provider);
    },
  };
  if (canDrawFullScreen()) {
    const { runFullScreen } = await import("./tui/app.js");
    return runFullScreen(setup);
  }
  await setup.prepare(); // a missing key is reported before the prompt
  const { runPlainInteractive } = await import("./interactive-plain.js");
  return runPlainInteractive(setup);
}

/** A terminal on both ends that understands cursor movement. */
function canDrawFullScreen(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY) && process.env.TERM !== "dumb";
}
