import type { Capability, SessionBasics } from "../agent/capability.js";
import { setUpBackground } from "../background/capability.js";
import { BackgroundJobs } from "../background/index.js";
import { setUpCheckpoints } from "../checkpoints/capability.js";
import { setUpContext } from "../context/capability.js";
import { Conversation } from "../core/conversation.js";
import { formatDiagnostic } from "../core/diagnostic.js";
import { errorMessage } from "../core/error-message.js";
import type { ToolOutput } from "../core/tool.js";
import { setUpGuards } from "../guards/capability.js";
import { pluginHooks, setUpHooks } from "../hooks/capability.js";
import { DEFAULT_STOP_HOOK_LIMIT } from "../hooks/index.js";
import { setUpProjectInstructions } from "../instructions/capability.js";
import { startMcp } from "../mcp/index.js";
import type { McpSetup, McpSetupOptions } from "../mcp/launch.js";
import { setUpPermissions } from "../permissions/capability.js";
import type { PermissionAsker } from "../permissions/index.js";
import { setUpPlanExit } from "../plan/capability.js";
import type { PlanAsker } from "../plan/index.js";
import type { ModelProvider } from "../providers/provider.js";
import type { NetworkAsker, SandboxMode } from "../sandbox/index.js";
import type { LoadedSettings, Settings } from "../settings/index.js";
import { setUpShell } from "../shell/capability.js";
import { type SkillTrust, setUpSkills } from "../skills/index.js";
import { setUpSubagents } from "../subagent/capability.js";
import type { SubagentJob } from "../subagent/index.js";
import { setUpTaskBoard } from "../tasks/capability.js";
import { setUpTodo } from "../todo/capability.js";
import { ToolRegistry } from "../tools/registry.js";
import { Workspace } from "../tools/workspace.js";
import type { ResumedSession } from "../transcript/index.js";
import { type FolderTrust, howToTrust, projectFileTrusted, trustKey } from "../trust/index.js";
import { AgentSession } from "./agent-session.js";
import { SwitchableModel } from "./switchable-model.js";
import { buildSystemPrompt } from "./system-prompt.js";
import { setUpBaseTools } from "./tools-setup.js";
import { setUpTranscript } from "./transcript-setup.js";
import { worktreeIsolation } from "./worktree-isolation.js";

export interface SessionEnvironment {
  cwd: string;
  /**
   * The model that answers. Absent: a session opened to be measured, never run (`hx context`):
   * `model` names it, and a request fails with a config error saying so.
   */
  provider?: ModelProvider;
  /** The provider and model, when there is no `provider` to say (shown by /context, kept in transcripts). */
  model?: { name: string; model: string };
  settings: LoadedSettings;
  maxTurns: number;
  verbose: boolean;
  /** The model's context window in tokens (resolved by the CLI). */
  contextWindow: number;
  /** False when `contextWindow` is hx's guess for a model nobody reported (default true). */
  contextWindowKnown?: boolean;
  permissionMode?: string;
  /** `--sandbox MODE`; settings and the default (workspace-write) otherwise. */
  sandboxMode?: SandboxMode;
  /** Asks the user about a tool call; undefined when nobody can answer (scripts, CI). */
  ask?: PermissionAsker;
  /** Shows the model's plan (exit_plan_mode) for approval; undefined when nobody can answer. */
  askPlan?: PlanAsker;
  /** Asks about a host the network allow-list does not list (line mode); otherwise `ask` does. */
  askNetwork?: NetworkAsker;
  /** One line of free text from the user (MCP servers' forms, line mode). */
  askLine?: (question: string, signal: AbortSignal) => Promise<string | undefined>;
  /** A saved session to continue. */
  resume?: ResumedSession;
  /** False: keep no transcript (throwaway sessions such as `hx skills eval` runs). Default true. */
  persist?: boolean;
  /** Writes one line for the user (stderr in the CLI). */
  log: (line: string) => void;
  /**
   * More capabilities, for programs that embed hx (and tests): built after the built-in ones,
   * before the context capability measures the tools and the system prompt.
   */
  extraCapabilities?: (basics: SessionBasics<Settings>) => Capability[] | Promise<Capability[]>;
  /** `--mcp-config` files (the user's own MCP servers) and `--strict-mcp-config`. */
  mcpConfigFiles?: string[];
  strictMcpConfig?: boolean;
  /** MCP servers the CLI already started (prepareRun); otherwise the session starts them. */
  mcp?: McpSetup;
  /** hx's version (MCP servers are told it). */
  version?: string;
  /**
   * Whether the user trusts the folder (src/trust): the settings given are already filtered by
   * it; skills read from an untrusted project grant nothing. Default: untrusted.
   */
  folderTrust?: FolderTrust;
  /**
   * A provider for another model of the session's provider (a skill's `model:`), or why it
   * cannot be had; absent: skills always run on the session's model.
   */
  modelFor?: (model: string) => Promise<{ provider: ModelProvider } | { note: string }>;
  /** Skill descriptions to use instead of the files' (`hx skills eval --description`), by name. */
  skillDescriptions?: Readonly<Record<string, string>>;
  /** Watch the skill roots for hot reload (the interactive session); headless runs do not. */
  watchSkills?: boolean;
}

/** A folder nobody said they trust: project files grant nothing. */
function untrusted(cwd: string): FolderTrust {
  return { trusted: false, source: "none", key: trustKey(cwd) };
}

/** Folder trust as the skills need it: may a skill file grant or run anything. */
function skillTrust(trust: FolderTrust): SkillTrust {
  // The user's own skills always; the project's only in a trusted folder.
  return { fileTrusted: (file) => projectFileTrusted(file, trust), howToTrust: howToTrust(trust) };
}

/**
 * The composition root: one capability after another, each built from what came before it,
 * then the session that collects their tools, extensions, prompt filters, commands and
 * prompt sections in this order. The loop stays unaware of all of them.
 */
export async function createSession(env: SessionEnvironment): Promise<AgentSession> {
  // MCP servers boot while the rest is set up (the CLI starts them even earlier).
  const mcpServers = env.mcp ?? (await startMcp(mcpOptions(env)));
  const model = new SwitchableModel(
    env.provider ?? env.model ?? { name: "none", model: "none" },
    env.contextWindow,
  );
  const basics = sessionBasics(env, model);
  // Read by capabilities built before what they read (the Claude Code transcript, hooks, skills).
  const late: Late = {};
  const base = await baseCapabilities(env, basics, late);
  const features = await featureCapabilities(env, basics, base, mcpServers, late);
  const built: Capability[] = [
    base.transcript,
    base.shell,
    base.tools,
    base.instructions,
    base.hooks,
    features.permissions,
    setUpPlanExit({ mode: features.permissions.mode, ask: env.askPlan }),
    setUpTodo(basics),
    setUpBackground(basics, base.jobs),
    await setUpTaskBoard(basics, { interactive: env.ask !== undefined }),
    features.subagents,
    features.skills,
    ...(features.mcp ? [features.mcp] : []),
    // After permissions, hooks and skills: only calls that will run are snapshotted.
    features.checkpoints,
    ...((await env.extraCapabilities?.(basics)) ?? []),
  ];
  const registry = new ToolRegistry(built.flatMap((c) => c.tools ?? []));
  late.registry = registry;
  features.mcp?.attach(registry);
  await registry.ready(); // /context and `hx context` read the schemas before any run
  const system = buildSystemPrompt(
    basics.workspace.root,
    built.flatMap((c) => c.promptSections ?? []),
  );
  const context = setUpContext(basics, {
    window: () => model.contextWindow,
    system,
    tools: registry,
    catalog: features.skills.catalog,
    onPreCompact: async (trigger) => {
      await base.hooks.hooks.runEvent("PreCompact", { trigger });
    },
    // As in Claude Code: SessionStart runs again after a compaction, its context kept in the summary.
    contextAfterCompact: async () => (await base.hooks.hooks.runSessionStart("compact")).context,
  });
  const capabilities = [...built, context, setUpGuards()];
  reportAndAddLateTools(capabilities, registry, env.log);
  return new AgentSession({
    model,
    workspace: basics.workspace,
    conversation: basics.conversation,
    tools: registry,
    system,
    maxTurns: env.maxTurns,
    maxStopContinuations: env.settings.merged.maxStopHookContinuations ?? DEFAULT_STOP_HOOK_LIMIT,
    capabilities,
    permissions: features.permissions.mode,
    transcript: { id: base.transcript.writer.id, file: base.transcript.writer.file },
    sandbox: base.shell.sandbox,
    skills: features.skills.invocable,
    background: base.jobs,
  });
}

/** What a capability reads from one built after it, set once that one exists. */
interface Late {
  registry?: ToolRegistry;
  permissionMode?: () => string;
  runSubagent?: (job: SubagentJob) => Promise<ToolOutput>;
}

function mcpOptions(env: SessionEnvironment): McpSetupOptions {
  return {
    cwd: env.cwd,
    settings: env.settings,
    contextWindow: env.contextWindow,
    configFiles: env.mcpConfigFiles,
    strictConfig: env.strictMcpConfig,
    clientVersion: env.version ?? "0.0.0",
    log: env.log,
    verbose: env.verbose,
    sandboxMode: env.sandboxMode,
    interactive: env.ask !== undefined,
  };
}

function sessionBasics(env: SessionEnvironment, model: SwitchableModel): SessionBasics<Settings> {
  return {
    cwd: env.cwd,
    workspace: new Workspace(env.cwd),
    settings: env.settings.merged,
    model,
    conversation: new Conversation(env.resume?.messages, (error) =>
      env.log(`warning: a history listener failed: ${errorMessage(error)}`),
    ),
    verbose: env.verbose,
    log: env.log,
  };
}

/** The transcript, the shell and the base tools, the project instructions and the hooks. */
async function baseCapabilities(env: SessionEnvironment, basics: SessionBasics<Settings>, late: Late) {
  const transcript = setUpTranscript(basics, {
    resume: env.resume,
    persist: env.persist,
    toolFor: (name) => late.registry?.get(name),
  });
  const shell = await setUpShell(basics, env); // its sandbox mode and questions
  const jobs = new BackgroundJobs();
  const tools = setUpBaseTools({ bash: { ...shell.bash, background: jobs } });
  const instructions = setUpProjectInstructions(basics, { contextWindow: env.contextWindow });
  const hooks = await setUpHooks(basics, {
    sessionId: transcript.writer.id,
    resumed: env.resume !== undefined,
    transcriptPath: transcript.claude.file,
    permissionMode: () => late.permissionMode?.() ?? env.permissionMode ?? "default",
    extra: pluginHooks(env.settings.files, env.log),
    shell,
  });
  return { transcript, shell, jobs, tools, instructions, hooks };
}

/** MCP, skills, permissions (which take the skills' rules), checkpoints and subagents. */
async function featureCapabilities(
  env: SessionEnvironment,
  basics: SessionBasics<Settings>,
  base: Awaited<ReturnType<typeof baseCapabilities>>,
  mcpServers: McpSetup | undefined,
  late: Late,
) {
  // Before the skills: the servers' skills join the catalog (the capability keeps its place later).
  const mcp = mcpServers
    ? await (await import("../mcp/capability.js")).setUpMcp(basics, mcpServers, {
        ask: env.ask,
        askLine: env.askLine,
      })
    : undefined;
  const skills = await setUpSkills(basics, {
    contextWindow: env.contextWindow,
    windowKnown: env.contextWindowKnown,
    reportedContextWindow: env.provider?.reportedContextWindow?.bind(env.provider),
    remote: mcp ? () => mcp.skills : undefined,
    refreshRemote: mcp ? () => mcp.refreshSkills() : undefined,
    trust: skillTrust(env.folderTrust ?? untrusted(env.cwd)),
    descriptions: env.skillDescriptions,
    watch: env.watchSkills,
    runtime: {
      // The subagents are set up below (they take the permissions, which take the skills' rules).
      fork: (job) => late.runSubagent!(job),
      // The tool the user's `!cmd` and the model's commands run as.
      shellTool: base.tools.tools.find((tool) => tool.effect === "execute")?.name,
      hooksFrom: base.hooks.hooksFrom,
      ...(env.modelFor ? { modelFor: env.modelFor } : {}),
    },
  });
  const permissions = setUpPermissions(basics, {
    permissionMode: env.permissionMode,
    ask: env.ask,
    hookPermissions: base.hooks.hooks.permissions,
    hookAnswers: base.hooks.hooks,
    scopedRules: skills.scopedRules,
    projectSettingsApply: env.folderTrust ? env.folderTrust.trusted : true,
  });
  late.permissionMode = () => permissions.mode.mode;
  const checkpoints = setUpCheckpoints(basics, {
    sessionId: base.transcript.writer.id,
    persist: env.persist !== false,
  });
  const subagents = setUpSubagents(basics, {
    baseTools: base.tools.tools,
    permissions: permissions.extension,
    hooks: base.hooks.hooks,
    first: base.shell.extensions,
    last: checkpoints.subagentExtension ? [checkpoints.subagentExtension] : [],
    promptSections: base.instructions.promptSections ?? [],
    systemPrompt: (sections) => buildSystemPrompt(basics.workspace.root, sections),
    skills: skills.forSubagents,
    jobs: base.jobs,
    isolate: worktreeIsolation(basics, env, base.hooks.hooks.subagentExtension, permissions.forWorkspace),
  });
  late.runSubagent = subagents.runSubagent;
  return { mcp, skills, permissions, checkpoints, subagents };
}

/** Logs each capability's warnings and diagnostics once; adds late tools when they arrive. */
function reportAndAddLateTools(
  capabilities: readonly Capability[],
  registry: ToolRegistry,
  log: (line: string) => void,
): void {
  for (const capability of capabilities) {
    for (const warning of capability.warnings ?? []) log(`warning: ${warning}`);
    for (const diagnostic of capability.diagnostics ?? [])
      log(`${diagnostic.level}: ${formatDiagnostic(diagnostic)}`);
    // A late tool whose name is taken is reported like a failed start, never thrown unhandled.
    capability.lateTools
      ?.then((late) => registry.add(late))
      .catch((error) => log(`warning: ${capability.name}: ${errorMessage(error)}`));
  }
}
