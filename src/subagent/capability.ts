import type { Capability, SessionBasics } from "../agent/capability.js";
import type { LoopExtension } from "../agent/extension.js";
import type { BackgroundJobs } from "../background/index.js";
import type { ToolOutput } from "../core/tool.js";
import type { Tool } from "../tools/tool.js";
import { SUBAGENT_PROMPT_SECTION } from "./system-prompt.js";
import { createSubagentRunner, createTaskTool, type SubagentJob, type TaskToolDeps } from "./task-tool.js";

/** The session's hooks as subagents use them (SubagentStart, SubagentStop, their tool hooks). */
interface SubagentHooks {
  readonly subagentExtension: LoopExtension;
  runSubagentStart: NonNullable<TaskToolDeps["onSubagentStart"]>;
  runSubagentStop: NonNullable<TaskToolDeps["onSubagentStop"]>;
}

/** The session's skills as `task`'s `skills: [names]` uses them (see the skills capability). */
interface SubagentSkills {
  /** Whether any skill may be preloaded now (else the parameter is not offered). */
  offered: () => boolean;
  preload: NonNullable<TaskToolDeps["preloadSkills"]>;
}

/**
 * `task`: subagents with a fresh context, the base tools, the session's permissions and the
 * subagent hooks; their system prompt has the project instructions but not the skill catalog.
 */
export function setUpSubagents(
  basics: SessionBasics,
  options: {
    baseTools: readonly Tool[];
    permissions: LoopExtension;
    hooks: SubagentHooks;
    /** Extensions every loop needs before the others (secret redaction). */
    first?: readonly LoopExtension[];
    /** Extensions after the permission check (checkpoints: only calls that will run). */
    last?: readonly LoopExtension[];
    /** System-prompt sections subagents share with the session (project instructions). */
    promptSections: readonly string[];
    /** The session's system prompt around sections (the subagents' is built the same way). */
    systemPrompt: (sections: string[]) => string;
    skills?: SubagentSkills;
    /** Where `run_in_background` subagents run as jobs (with the background commands). */
    jobs?: BackgroundJobs;
    /** `isolation: "worktree"` (each subagent in its own worktree); offered only in a git repository. */
    isolate?: TaskToolDeps["isolate"];
  },
): Capability & { runSubagent: (job: SubagentJob) => Promise<ToolOutput> } {
  const { jobs } = options;
  const deps: TaskToolDeps = {
    provider: basics.model,
    tools: options.baseTools,
    workspace: basics.workspace,
    extensions: [
      ...(options.first ?? []),
      options.hooks.subagentExtension,
      options.permissions,
      ...(options.last ?? []),
    ],
    systemPrompt: options.systemPrompt([...options.promptSections, SUBAGENT_PROMPT_SECTION]),
    onSubagentStart: (info) => options.hooks.runSubagentStart(info),
    onSubagentStop: (info) => options.hooks.runSubagentStop(info),
    offerSkills: options.skills?.offered() ?? false,
    preloadSkills: options.skills?.preload,
    startInBackground: jobs ? (description, run) => jobs.startSubagent(description, run).id : undefined,
    isolate: options.isolate,
  };
  const runner = createSubagentRunner(deps);
  const task = createTaskTool(deps, runner);
  return { name: "subagents", tools: [task], runSubagent: runner.run };
}
