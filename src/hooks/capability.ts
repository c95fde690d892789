import type { Capability, PromptFilter, SessionBasics } from "../agent/capability.js";
import type { ProcessGroups } from "../process/process-groups.js";
import { createSessionHooks, type SessionHooks } from "./hooks.js";
import { HookRegistry } from "./registry.js";
import type { HookSettings } from "./settings.js";

export interface HooksCapability extends Capability {
  hooks: SessionHooks;
  /**
   * Hooks given elsewhere than in settings (a skill's `hooks:`, in the settings' shape), run
   * like the session's: same environment, process groups and session id.
   */
  hooksFrom(hooks: Record<string, unknown>): { hooks: SessionHooks; warnings: string[] };
}

/** Approved plugins' hooks, each run with `CLAUDE_PLUGIN_ROOT` set to its folder (src/plugins). */
export function pluginHooks(
  files: readonly { plugin?: { name: string; root: string }; settings: { hooks?: HookSettings } }[],
  log: (line: string) => void,
): HookRegistry[] {
  return files.flatMap((file) => {
    if (!file.plugin) return [];
    const { registry, warnings } = HookRegistry.fromSettings(file.settings.hooks, {
      name: file.plugin.name,
      env: { CLAUDE_PLUGIN_ROOT: file.plugin.root },
    });
    for (const warning of warnings) log(`warning: ${warning}`);
    return [registry];
  });
}

/**
 * Command hooks from settings (and approved plugins): PreToolUse/PostToolUse/Stop as an
 * extension, UserPromptSubmit (and SessionStart context on the first prompt) as a prompt
 * filter. Runs SessionStart now and SessionEnd when the session closes.
 */
export async function setUpHooks(
  basics: SessionBasics<{ hooks?: HookSettings; logHooks?: boolean }>,
  options: {
    sessionId: string;
    resumed: boolean;
    /** The Claude Code-shaped transcript hooks read (`transcript_path`). */
    transcriptPath: string;
    /** The permission mode now (the permissions capability is built after this one). */
    permissionMode: () => string;
    /** Hooks from elsewhere (approved plugins), run after the settings' own. */
    extra?: HookRegistry[];
    /** The environment hooks start from and the groups that die with hx. */
    shell?: { childEnv: () => Record<string, string>; groups: ProcessGroups };
  },
): Promise<HooksCapability> {
  const fromSettings = HookRegistry.fromSettings(basics.settings.hooks);
  const registry = HookRegistry.merge([fromSettings.registry, ...(options.extra ?? [])]);
  const logHooks = basics.verbose || basics.settings.logHooks === true;
  const build = (from: HookRegistry, withLog: boolean) =>
    createSessionHooks({
      registry: from,
      sessionId: options.sessionId,
      workspace: basics.workspace,
      transcriptPath: options.transcriptPath,
      permissionMode: options.permissionMode,
      log: logHooks && withLog ? basics.log : undefined,
      verbose: basics.verbose,
      baseEnv: options.shell?.childEnv(),
      groups: options.shell?.groups,
      // Hooks run outside a loop (SessionStart, UserPromptSubmit, SubagentStop) report here.
      emit: (event) => {
        if (event.type === "notice")
          basics.log(event.level === "warn" ? `warning: ${event.text}` : event.text);
      },
    });
  const hooks = build(registry, true);
  const hooksFrom = (given: Record<string, unknown>) => {
    const scoped = HookRegistry.fromSettings(given as Parameters<typeof HookRegistry.fromSettings>[0]);
    return { hooks: build(scoped.registry, false), warnings: scoped.warnings };
  };

  let startContext = (await hooks.runSessionStart(options.resumed ? "resume" : "startup")).context;
  const promptFilter: PromptFilter = async (prompt) => {
    const verdict = await hooks.runPromptHooks(prompt);
    if (verdict.blocked) return { refuse: verdict.blocked };
    const context = [startContext, verdict.context].filter(Boolean).join("\n");
    startContext = undefined;
    return { prompt: context ? `${prompt}\n\n<hook-context>\n${context}\n</hook-context>` : prompt };
  };

  return {
    name: "hooks",
    extensions: [hooks.extension],
    promptFilters: [promptFilter],
    hooks,
    hooksFrom,
    warnings: fromSettings.warnings,
    close: () => hooks.runSessionEnd("other"),
  };
}
