import type { LoadedSettings } from "../config/settings.js";
import { findLoadedSkills } from "../context/index.js";
import type { Message } from "../core/messages.js";
import { createRepeatedCallGuard } from "../guards/repeated-call-guard.js";
import type { PermissionAsker } from "../permissions/index.js";
import type { ModelProvider } from "../providers/provider.js";
import { createBaseTools } from "../tools/base-tools.js";
import { ToolRegistry } from "../tools/registry.js";
import { Workspace } from "../tools/workspace.js";
import { type ResumedSession, TranscriptWriter } from "../transcript/index.js";
import { AgentSession } from "./agent-session.js";
import { setUpContext } from "./context-setup.js";
import { setUpHarness } from "./harness-setup.js";
import { loadProjectInstructions } from "./project-instructions.js";
import { setUpSkills } from "./skills-setup.js";
import { createSlashCommands } from "./slash-commands.js";
import { buildSystemPrompt } from "./system-prompt.js";

export interface SessionEnvironment {
  cwd: string;
  provider: ModelProvider;
  settings: LoadedSettings;
  maxTurns: number;
  verbose: boolean;
  /** The model's context window in tokens (resolved by the CLI). */
  contextWindow: number;
  permissionMode?: string;
  /** Asks the user about a tool call; undefined when nobody can answer (scripts, CI). */
  ask?: PermissionAsker;
  /** A saved session to continue. */
  resume?: ResumedSession;
  /** Writes one line for the user (stderr in the CLI). */
  log: (line: string) => void;
}

/**
 * The composition root: builds the workspace, tools, system prompt and extensions for one
 * session. Each capability contributes entries (tools, extensions, prompt filters, slash
 * commands); the loop stays unaware of them.
 */
export async function createSession(env: SessionEnvironment): Promise<AgentSession> {
  const workspace = new Workspace(env.cwd);
  const settings = env.settings.merged;

  const skills = setUpSkills({
    cwd: env.cwd,
    workspace,
    settings,
    contextWindow: env.contextWindow,
    verbose: env.verbose,
    log: env.log,
  });
  const instructions = loadProjectInstructions(env.cwd);
  if (env.verbose && instructions.files.length > 0) {
    env.log(`instructions: ${instructions.files.join(", ")}${instructions.truncated ? " (cut to fit)" : ""}`);
  }
  const baseTools = createBaseTools();
  const writer =
    env.resume?.writer ??
    TranscriptWriter.create({
      workspaceRoot: workspace.root,
      provider: env.provider.name,
      model: env.provider.model,
      onError: (error) => env.log(`warning: the session transcript could not be written: ${error.message}`),
    });
  const harness = await setUpHarness({
    sessionId: writer.id,
    workspace,
    provider: env.provider,
    settings,
    permissionMode: env.permissionMode,
    ask: env.ask,
    verbose: env.verbose,
    log: env.log,
    baseTools,
    subagentSystemPrompt: buildSystemPrompt(workspace.root, [instructions.section]),
    resumed: env.resume !== undefined,
  });
  for (const warning of harness.warnings) env.log(`warning: ${warning}`);

  const tools = new ToolRegistry([...baseTools, ...harness.tools, skills.tool]);
  const system = buildSystemPrompt(workspace.root, [instructions.section, skills.catalog]);

  let session: AgentSession | undefined;
  const history = () => session?.messages ?? [];
  const context = setUpContext({
    provider: env.provider,
    workspaceRoot: workspace.root,
    window: env.contextWindow,
    system,
    toolSchemas: tools.schemas(),
    writer,
    loadedSkills: skills.loaded,
    history,
    onPreCompact: async (trigger) => {
      await harness.hooks.runEvent("PreCompact", { trigger });
    },
  });

  session = new AgentSession({
    provider: env.provider,
    workspace,
    tools,
    system,
    extensions: [...harness.extensions, ...context.extensions, createRepeatedCallGuard()],
    promptFilters: [harness.promptFilter, skills.promptFilter],
    maxTurns: env.maxTurns,
    observers: [writer.observe(history)],
    transcript: { id: writer.id, file: writer.file },
  });
  const current = session;
  /** Replaces the history (resume); skills loaded in it count as loaded and stay readable. */
  const replaceHistory = (messages: Message[]) => {
    current.messages.splice(0, current.messages.length, ...messages);
    for (const { name } of findLoadedSkills(messages)) {
      const skill = skills.skills.find((s) => s.name === name);
      if (!skill) continue;
      skills.loaded.add(name);
      workspace.allowRead(skill.dir);
    }
  };
  if (env.resume) replaceHistory(env.resume.messages);
  session.commands = createSlashCommands({
    session,
    skills: skills.skills,
    compactor: context.compactor,
    catalog: skills.catalog,
    window: env.contextWindow,
    replaceHistory,
  });
  return session;
}
