import type { LoopExtension } from "../agent/extension.js";
import type { LoadedSettings } from "../config/settings.js";
import type { ModelProvider } from "../providers/provider.js";
import { createBaseTools } from "../tools/base-tools.js";
import { ToolRegistry } from "../tools/registry.js";
import type { Tool } from "../tools/tool.js";
import { Workspace } from "../tools/workspace.js";
import { AgentSession, type PromptFilter } from "./agent-session.js";
import { buildSystemPrompt } from "./system-prompt.js";

export interface SessionEnvironment {
  cwd: string;
  provider: ModelProvider;
  settings: LoadedSettings;
  maxTurns: number;
  verbose: boolean;
  /** Writes one line for the user (stderr in the CLI). */
  log: (line: string) => void;
}

/**
 * The composition root: builds the workspace, tool registry, system prompt and extensions for
 * one session. Each capability contributes entries here; the loop stays unaware of them.
 */
export async function createSession(env: SessionEnvironment): Promise<AgentSession> {
  const workspace = new Workspace(env.cwd);
  const tools: Tool[] = [...createBaseTools()];
  const sections: string[] = [];
  const extensions: LoopExtension[] = [];
  const promptFilters: PromptFilter[] = [];

  return new AgentSession({
    provider: env.provider,
    workspace,
    tools: new ToolRegistry(tools),
    system: buildSystemPrompt(workspace.root, sections),
    extensions,
    promptFilters,
    maxTurns: env.maxTurns,
    observers: [],
  });
}
