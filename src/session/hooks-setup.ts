import { createSessionHooks, HookRegistry, type SessionHooks } from "../hooks/index.js";
import type { ProcessGroups } from "../process/process-groups.js";
import type { Capability, PromptFilter, SessionBasics } from "./capability.js";

export interface HooksCapability extends Capability {
  hooks: SessionHooks;
}

/**
 * Command hooks from settings: PreToolUse/PostToolUse/Stop as an extension, UserPromptSubmit
 * (and SessionStart context on the first prompt) as a prompt filter. Runs SessionStart now.
 */
export async function setUpHooks(
  basics: SessionBasics,
  options: {
    sessionId: string;
    resumed: boolean;
    /** The environment hooks start from and the groups that die with hx. */
    shell?: { childEnv: () => Record<string, string>; groups: ProcessGroups };
  },
): Promise<HooksCapability> {
  const { registry, warnings } = HookRegistry.fromSettings(basics.settings.hooks);
  const logHooks = basics.verbose || basics.settings.logHooks === true;
  const hooks = createSessionHooks({
    registry,
    sessionId: options.sessionId,
    cwd: basics.workspace.root,
    log: logHooks ? basics.log : undefined,
    verbose: basics.verbose,
    baseEnv: options.shell?.childEnv(),
    groups: options.shell?.groups,
    // Hooks run outside a loop (SessionStart, UserPromptSubmit, SubagentStop) report here.
    emit: (event) => {
      if (event.type === "notice") basics.log(event.level === "warn" ? `warning: ${event.text}` : event.text);
    },
  });

  let startContext = (await hooks.runSessionStart(options.resumed ? "resume" : "startup")).context;
  const promptFilter: PromptFilter = async (prompt) => {
    const verdict = await hooks.runPromptHooks(prompt);
    if (verdict.blocked) return { refuse: verdict.blocked };
    const context = [startContext, verdict.context].filter(Boolean).join("\n");
    startContext = undefined;
    return { prompt: context ? `${prompt}\n\n<hook-context>\n${context}\n</hook-context>` : prompt };
  };

  return { name: "hooks", extensions: [hooks.extension], promptFilters: [promptFilter], hooks, warnings };
}
