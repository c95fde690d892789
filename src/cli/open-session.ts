import { realpathSync } from "node:fs";
import type { PermissionAsker } from "../permissions/index.js";
import type { PlanAsker } from "../plan/index.js";
import type { NetworkAsker } from "../sandbox/index.js";
import type { AgentSession } from "../session/agent-session.js";
import { createSession, type SessionEnvironment } from "../session/create-session.js";
import type { ResumedSession } from "../transcript/sessions.js";
import type { PreparedRun } from "./prepare-run.js";
import type { RunFlags } from "./run-config.js";
import { VERSION } from "./version.js";

/** Creates the session for a prepared run, continuing a saved one for --continue/--resume. */
export async function openSession(
  /** Without a provider (`hx context`): a session that is measured, never run. */
  prepared: Omit<PreparedRun, "provider"> & { provider?: PreparedRun["provider"] },
  flags: RunFlags,
  io: {
    log: (line: string) => void;
    ask?: PermissionAsker;
    askNetwork?: NetworkAsker;
    askLine?: (question: string, signal: AbortSignal) => Promise<string | undefined>;
    askPlan?: PlanAsker;
  },
  extra: Pick<SessionEnvironment, "persist" | "extraCapabilities" | "watchSkills"> = {},
): Promise<AgentSession> {
  const { cwd, config, settings, provider } = prepared;
  const named = { name: config.provider, model: prepared.model };
  const resume = await findResumed(cwd, flags, io.log, provider ?? named);
  return createSession({
    cwd,
    provider,
    model: named,
    settings,
    maxTurns: config.maxTurns,
    verbose: config.verbose,
    contextWindow: prepared.contextWindow,
    contextWindowKnown: prepared.contextWindowKnown,
    permissionMode: config.permissionMode,
    sandboxMode: config.sandboxMode,
    ask: io.ask,
    askNetwork: io.askNetwork,
    askLine: io.askLine,
    askPlan: io.askPlan,
    resume,
    log: io.log,
    mcpConfigFiles: flags.mcpConfig,
    strictMcpConfig: flags.strictMcpConfig,
    version: VERSION,
    mcp: prepared.mcp,
    ...extra,
    folderTrust: settings.trust,
    // A skill's `model:` needs a provider to switch from; a measured session has none.
    ...(provider
      ? {
          modelFor: async (model: string) =>
            (await import("./skills-model.js")).skillModelFor({ ...prepared, provider }, model),
        }
      : {}),
  });
}

/**
 * The saved session named by --resume ID or --continue (the latest); throws when there is none.
 * The transcript reader (and its zod line schema) loads only then.
 */
async function findResumed(
  cwd: string,
  flags: RunFlags,
  log: (line: string) => void,
  model: { name: string; model: string },
): Promise<ResumedSession | undefined> {
  if (!flags.continue && flags.resume === undefined) return undefined;
  const { findSession, latestSession, resumeSession } = await import("../transcript/sessions.js");
  const root = realpathSync(cwd);
  const options = {
    provider: model.name,
    model: model.model,
    onError: (error: Error) => log(`warning: the session transcript could not be written: ${error.message}`),
  };
  if (flags.resume !== undefined) {
    const lookup = findSession(root, flags.resume);
    if (lookup.kind !== "found") throw new Error(lookup.message);
    return announce(resumeSession(lookup.session, options), log);
  }
  const latest = latestSession(root);
  if (!latest)
    throw new Error("--continue: this project has no saved session yet. Start one with hx agent or hx.");
  return announce(resumeSession(latest, options), log);
}

/** Says what is being resumed, and every line of the transcript that could not be used. */
function announce(resumed: ResumedSession, log: (line: string) => void): ResumedSession {
  const { transcript, forkedFrom } = resumed;
  const name = forkedFrom ? forkedFrom.info.id : resumed.info.id;
  for (const warning of transcript.warnings) log(`warning: session ${name}: ${warning}`);
  const extra = transcript.truncatedTail ? " (its last line was cut short and was skipped)" : "";
  if (forkedFrom) {
    const owner = forkedFrom.owner ? ` (pid ${forkedFrom.owner.pid})` : "";
    log(
      `session ${name} is in use by another hx${owner}; continuing in a new session ${resumed.info.id} with its ${resumed.messages.length} messages${extra}`,
    );
  } else {
    log(`resuming session ${name}: ${resumed.messages.length} messages${extra}`);
  }
  return resumed;
}
