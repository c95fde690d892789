import type { Capability, SessionBasics } from "../agent/capability.js";
import type { LoopExtension } from "../agent/extension.js";
import type { BackgroundJobs } from "../background/index.js";
import type { ToolOutput } from "../core/tool.js";
import { findRepoRoot } from "../fs/project-root.js";
import type { SessionHooks } from "../hooks/index.js";
import { preloadSkills, type Skill } from "../skills/index.js";
import {
  createSubagentRunner,
  createTaskTool,
  SUBAGENT_PROMPT_SECTION,
  type SubagentJob,
  type TaskToolDeps,
} from "../subagent/index.js";
import type { Tool } from "../tools/tool.js";
import type { Workspace } from "../tools/workspace.js";
import { buildSystemPrompt } from "./system-prompt.js";
import { createWorktreeIsolation, type WorkspaceKit } from "./worktree-isolation.js";

/**
 * `task`: subagents with a fresh context, the base tools, the session's permissions and the
 * subagent hooks; their system prompt has the project instructions but not the skill catalog.
 */
export function setUpSubagents(
  basics: SessionBasics,
  options: {
    baseTools: readonly Tool[];
    permissions: LoopExtension;
    hooks: SessionHooks;
    /** Extensions every loop needs before the others (secret redaction). */
    first?: readonly LoopExtension[];
    /** Extensions after the permission check (checkpoints: only calls that will run). */
    last?: readonly LoopExtension[];
    /** System-prompt sections subagents share with the session (project instructions). */
    promptSections: readonly string[];
    /** The session's skills as they are now, for `task`'s `skills: [names]`. */
    skills?: () => readonly Skill[];
    /** Where `run_in_background` subagents run as jobs (with the background commands). */
    jobs?: BackgroundJobs;
    /**
     * Tools and extensions bound to another workspace (a worktree), for `isolation:
     * "worktree"`; offered only in a git repository.
     */
    kitFor?: (workspace: Workspace) => Promise<WorkspaceKit>;
  },
): Capability & { runSubagent: (job: SubagentJob) => Promise<ToolOutput> } {
  const system = buildSystemPrompt(basics.workspace.root, [
    ...options.promptSections,
    SUBAGENT_PROMPT_SECTION,
  ]);
  const repoRoot = options.kitFor ? findRepoRoot(basics.workspace.root) : undefined;
  const { kitFor, jobs } = options;
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
    systemPrompt: system,
    onSubagentStart: (info) => options.hooks.runSubagentStart(info),
    onSubagentStop: (info) => options.hooks.runSubagentStop(info),
    offerSkills: (options.skills?.() ?? []).some((skill) => !skill.disableModelInvocation),
    preloadSkills: options.skills
      ? (names) => {
          const preload = preloadSkills(options.skills?.() ?? [], names);
          if ("error" in preload) return preload;
          for (const skill of preload.skills) basics.workspace.allowRead(skill.dir);
          return preload;
        }
      : undefined,
    startInBackground: jobs ? (description, run) => jobs.startSubagent(description, run).id : undefined,
    isolate:
      repoRoot && kitFor
        ? createWorktreeIsolation({ repoRoot, root: basics.workspace.root, kitFor })
        : undefined,
  };
  const runner = createSubagentRunner(deps);
  const task = createTaskTool(deps, runner);
  return { name: "subagents", tools: [task], runSubagent: runner.run };
}
