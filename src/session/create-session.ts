import type { Capability, SessionBasics } from "../agent/capability.js";
import { BackgroundJobs } from "../background/index.js";
import { Conversation } from "../core/conversation.js";
import { formatDiagnostic } from "../core/diagnostic.js";
import { errorMessage } from "../core/error-message.js";
import { DEFAULT_STOP_HOOK_LIMIT, HookRegistry } from "../hooks/index.js";
import { startMcp } from "../mcp/index.js";
import type { McpSetup } from "../mcp/launch.js";
import type { PermissionAsker } from "../permissions/index.js";
import type { PlanAsker } from "../plan/index.js";
import type { ModelProvider } from "../providers/provider.js";
import type { NetworkAsker, SandboxMode } from "../sandbox/index.js";
import type { LoadedSettings, Settings, SettingsFile } from "../settings/index.js";
import { type SkillTrust, setUpSkills } from "../skills/index.js";
import { ToolRegistry } from "../tools/registry.js";
import { Workspace } from "../tools/workspace.js";
import type { ResumedSession } from "../transcript/index.js";
import { type FolderTrust, howToTrust, projectFileTrusted, trustKey } from "../trust/index.js";
import { AgentSession } from "./agent-session.js";
import { setUpBackground } from "./background-setup.js";
import { setUpCheckpoints } from "./checkpoints-setup.js";
import { setUpContext } from "./context-setup.js";
import { setUpGuards } from "./guards-setup.js";
import { setUpHooks } from "./hooks-setup.js";
import { setUpProjectInstructions } from "./instructions-setup.js";
import { setUpPermissions } from "./permissions-setup.js";
import { setUpPlanExit } from "./plan-setup.js";
import { setUpShell } from "./shell-setup.js";
import { setUpSubagents } from "./subagent-setup.js";
import { SwitchableModel } from "./switchable-model.js";
import { buildSystemPrompt } from "./system-prompt.js";
import { setUpTaskBoard } from "./tasks-setup.js";
import { setUpTodo } from "./todo-setup.js";
import { setUpBaseTools } from "./tools-setup.js";
import { setUpTranscript } from "./transcript-setup.js";
import { workspaceKits } from "./worktree-isolation.js";

export interface SessionEnvironment {
  cwd: string;
  provider: ModelProvider;
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

/** A plugin's hooks, run with `CLAUDE_PLUGIN_ROOT` set to its folder. */
function pluginHooks(file: SettingsFile, log: (line: string) => void): HookRegistry {
  const plugin = file.plugin!;
  const { registry, warnings } = HookRegistry.fromSettings(file.settings.hooks, {
    name: plugin.name,
    env: { CLAUDE_PLUGIN_ROOT: plugin.root },
  });
  for (const warning of warnings) log(`warning: ${warning}`);
  return registry;
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
  const mcpServers =
    env.mcp ??
    (await startMcp({
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
    }));
  const model = new SwitchableModel(env.provider, env.contextWindow);
  const basics: SessionBasics<Settings> = {
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

  // Built last, read by capabilities built before it (the Claude Code transcript, hooks).
  let registry: ToolRegistry | undefined;
  let permissionMode = (): string => env.permissionMode ?? "default";
  const transcript = setUpTranscript(basics, {
    resume: env.resume,
    persist: env.persist,
    toolFor: (name) => registry?.get(name),
  });
  const shell = await setUpShell(basics, env); // its sandbox mode and questions
  const jobs = new BackgroundJobs();
  const tools = setUpBaseTools({ bash: { ...shell.bash, background: jobs } });
  const instructions = setUpProjectInstructions(basics, { contextWindow: env.contextWindow });
  const hooks = await setUpHooks(basics, {
    sessionId: transcript.writer.id,
    resumed: env.resume !== undefined,
    transcriptPath: transcript.claude.file,
    permissionMode: () => permissionMode(),
    // Approved plugins' hooks, each with its CLAUDE_PLUGIN_ROOT (src/plugins).
    extra: env.settings.files.flatMap((file) => (file.plugin ? [pluginHooks(file, env.log)] : [])),
    shell,
  });
  // Before the skills: the servers' skills join the catalog (the capability keeps its place below).
  const mcp = mcpServers
    ? await (await import("../mcp/capability.js")).setUpMcp(basics, mcpServers, {
        ask: env.ask,
        askLine: env.askLine,
      })
    : undefined;
  const skills = await setUpSkills(basics, {
    contextWindow: env.contextWindow,
    windowKnown: env.contextWindowKnown,
    reportedContextWindow: env.provider.reportedContextWindow?.bind(env.provider),
    remote: mcp ? () => mcp.skills : undefined,
    refreshRemote: mcp ? () => mcp.refreshSkills() : undefined,
    trust: skillTrust(env.folderTrust ?? untrusted(env.cwd)),
    descriptions: env.skillDescriptions,
    watch: env.watchSkills,
    runtime: {
      // The subagents are set up below (they take the permissions, which take the skills' rules).
      fork: (job) => subagents.runSubagent(job),
      // The tool the user's `!cmd` and the model's commands run as.
      shellTool: tools.tools.find((tool) => tool.effect === "execute")?.name,
      hooksFrom: hooks.hooksFrom,
      ...(env.modelFor ? { modelFor: env.modelFor } : {}),
    },
  });
  const permissions = setUpPermissions(basics, {
    permissionMode: env.permissionMode,
    ask: env.ask,
    hookPermissions: hooks.hooks.permissions,
    hookAnswers: hooks.hooks,
    scopedRules: skills.scopedRules,
    projectSettingsApply: env.folderTrust ? env.folderTrust.trusted : true,
  });
  permissionMode = () => permissions.mode.mode;
  const todo = setUpTodo(basics);
  const checkpoints = setUpCheckpoints(basics, {
    sessionId: transcript.writer.id,
    persist: env.persist !== false,
  });
  const taskBoard = await setUpTaskBoard(basics, { interactive: env.ask !== undefined });
  const subagents = setUpSubagents(basics, {
    baseTools: tools.tools,
    permissions: permissions.extension,
    hooks: hooks.hooks,
    first: shell.extensions,
    last: checkpoints.subagentExtension ? [checkpoints.subagentExtension] : [],
    promptSections: instructions.promptSections ?? [],
    skills: skills.skills,
    jobs,
    kitFor: workspaceKits(basics, env, hooks.hooks.subagentExtension, permissions.forWorkspace),
  });
  const built: Capability[] = [
    transcript,
    shell,
    tools,
    instructions,
    hooks,
    permissions,
    setUpPlanExit({ mode: permissions.mode, ask: env.askPlan }),
    todo,
    setUpBackground(basics, jobs),
    taskBoard,
    subagents,
    skills,
    ...(mcp ? [mcp] : []),
    // After permissions, hooks and skills: only calls that will run are snapshotted.
    checkpoints,
    ...((await env.extraCapabilities?.(basics)) ?? []),
  ];

  registry = new ToolRegistry(built.flatMap((c) => c.tools ?? []));
  mcp?.attach(registry);
  await registry.ready(); // /context and `hx context` read the schemas before any run
  const system = buildSystemPrompt(
    basics.workspace.root,
    built.flatMap((c) => c.promptSections ?? []),
  );
  const context = setUpContext(basics, {
    window: () => model.contextWindow,
    system,
    tools: registry,
    catalog: skills.catalog,
    onPreCompact: async (trigger) => {
      await hooks.hooks.runEvent("PreCompact", { trigger });
    },
    // As in Claude Code: SessionStart runs again after a compaction, its context kept in the summary.
    contextAfterCompact: async () => (await hooks.hooks.runSessionStart("compact")).context,
  });
  const capabilities = [...built, context, setUpGuards()];

  for (const capability of capabilities) {
    for (const warning of capability.warnings ?? []) env.log(`warning: ${warning}`);
    for (const diagnostic of capability.diagnostics ?? [])
      env.log(`${diagnostic.level}: ${formatDiagnostic(diagnostic)}`);
    // A late tool whose name is taken is reported like a failed start, never thrown unhandled.
    capability.lateTools
      ?.then((late) => registry.add(late))
      .catch((error) => env.log(`warning: ${capability.name}: ${errorMessage(error)}`));
  }

  return new AgentSession({
    model,
    workspace: basics.workspace,
    conversation: basics.conversation,
    tools: registry,
    system,
    maxTurns: env.maxTurns,
    maxStopContinuations: env.settings.merged.maxStopHookContinuations ?? DEFAULT_STOP_HOOK_LIMIT,
    capabilities,
    permissions: permissions.mode,
    transcript: { id: transcript.writer.id, file: transcript.writer.file },
    sandbox: shell.sandbox,
    skills: skills.invocable,
    background: jobs,
  });
}
