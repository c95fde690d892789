import type { PermissionAsker } from "../permissions/index.js";
import type { PlanAsker } from "../plan/index.js";
import type { NetworkAsker } from "../sandbox/index.js";
import type { AgentSession } from "../session/agent-session.js";
import { contextWindowFor, type PreparedRun, reportTrust, resolveRun, withProvider } from "./prepare-run.js";
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
  /**
   * Opens the session (with --continue/--resume, the saved one); `fresh`: a new conversation
   * whatever the flags say (/clear). The session's modules load on the first call.
   */
  openSession(io: SessionIO, options?: { fresh?: boolean }): Promise<AgentSession>;
  /** `/model NAME`: the same provider and settings with another model. */
  switchModel(session: AgentSession, model: string): Promise<void>;
}

/** Where a front end's session writes its lines and asks its questions. */
export interface SessionIO {
  log: (line: string) => void;
  ask?: PermissionAsker;
  /** The network allow-list's question (line mode); without it, `ask` asks it as a permission. */
  askNetwork?: NetworkAsker;
  /** One line of free text from the user (MCP servers' forms); absent: forms are declined. */
  askLine?: (question: string, signal: AbortSignal) => Promise<string | undefined>;
  /** Shows the model's plan for approval (exit_plan_mode). */
  askPlan?: PlanAsker;
}

/**
 * Resolves the run; in a folder that is not trusted and whose project files would loosen
 * something, first asks once whether to trust it (`options.ask`; without one, says what was
 * ignored). `options.log`: where those lines go (default stderr).
 */
export async function createInteractiveSetup(
  flags: RunFlags,
  firstPrompt?: string,
  options: { ask?: PermissionAsker; log?: (line: string) => void } = {},
): Promise<InteractiveSetup> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let resolved = await resolveRun(flags, undefined, { quietTrust: true });
  if (options.ask && !resolved.settings.trust.trusted) {
    const { askFolderTrust } = await import("./trust-question.js");
    if (await askFolderTrust(resolved.settings, resolved.cwd, options.ask, log)) {
      flags = { ...flags, trust: true };
      resolved = await resolveRun(flags, undefined, { quietTrust: true });
    }
  }
  reportTrust(resolved.settings, resolved.cwd, log);
  let prepared: Promise<PreparedRun> | undefined;
  const prepare = (): Promise<PreparedRun> => {
    prepared ??= withProvider(resolved);
    return prepared;
  };
  return {
    resolved,
    prepare,
    flags,
    firstPrompt,
    prices: createPriceTable(resolved.settings.merged.prices),
    async openSession(io, options) {
      const { openSession } = await import("./open-session.js");
      const sessionFlags = options?.fresh ? { ...flags, continue: false, resume: undefined } : flags;
      // The interactive session keeps skills live: their roots are watched (headless runs not).
      return openSession(await prepare(), sessionFlags, io, { watchSkills: true });
    },
    async switchModel(session, model) {
      const window = contextWindowFor(model, resolved.config, resolved.settings);
      const { provider } = await withProvider({ ...resolved, model, contextWindow: window.tokens });
      session.model.switchTo(provider, window.tokens);
    },
  };
}
