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

export function createInteractiveSetup(flags: RunFlags, firstPrompt?: string): InteractiveSetup {
  const resolved = resolveRun(flags);
  let prepared: Promise<PreparedRun> | undefined;
  return {
    resolved,
    prepare: () => {
      prepared ??= withProvider(resolved);
      return prepared;
    },
    flags,
    firstPrompt,
    prices: createPriceTable(resolved.settings.merged.prices),
    async switchModel(session, model) {
      const { provider } = await withProvider({ ...resolved, model });
      session.model.switchTo(provider);
    },
  };
}
