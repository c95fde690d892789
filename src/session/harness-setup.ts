import type { LoopExtension } from "../agent/extension.js";
import type { Settings } from "../config/settings.js";
import { createSessionHooks, HookRegistry, type SessionHooks } from "../hooks/index.js";
import {
  createPermissionExtension,
  type PermissionAsker,
  permissionsFromSettings,
} from "../permissions/index.js";
import type { ModelProvider } from "../providers/provider.js";
import { SUBAGENT_PROMPT_SECTION } from "../subagent/index.js";
import { createTodoReminderExtension, TodoList } from "../todo/index.js";
import { createTaskTool } from "../tools/task.js";
import { createTodoWriteTool } from "../tools/todo-write.js";
import type { Tool } from "../tools/tool.js";
import type { Workspace } from "../tools/workspace.js";
import type { PromptFilter } from "./agent-session.js";

export interface HarnessSetup {
  hooks: SessionHooks;
  permissions: LoopExtension;
  /** Extensions of the top-level loop, in order. */
  extensions: LoopExtension[];
  /** todo_write and task. */
  tools: Tool[];
  /** UserPromptSubmit hooks (and SessionStart context on the first prompt). */
  promptFilter: PromptFilter;
  warnings: string[];
}

/**
 * The harness around the loop: permissions, hooks, the todo list and subagents. Each is an
 * extension or a tool; the loop sees only those.
 */
export async function setUpHarness(options: {
  /** The session's id (its transcript's), given to hooks as `session_id`. */
  sessionId: string;
  workspace: Workspace;
  provider: ModelProvider;
  settings: Settings;
  permissionMode?: string;
  ask?: PermissionAsker;
  verbose: boolean;
  log: (line: string) => void;
  baseTools: readonly Tool[];
  subagentSystemPrompt: string;
  resumed: boolean;
}): Promise<HarnessSetup> {
  const warnings: string[] = [];
  const {
    mode,
    rules,
    warnings: permissionWarnings,
  } = permissionsFromSettings(options.settings.permissions, options.permissionMode);
  warnings.push(...permissionWarnings);
  const permissions = createPermissionExtension({
    mode,
    rules,
    projectRoot: options.workspace.root,
    workspace: options.workspace,
    ask: options.ask,
  });

  const { registry, warnings: hookWarnings } = HookRegistry.fromSettings(options.settings.hooks);
  warnings.push(...hookWarnings);
  const logHooks = options.verbose || options.settings.logHooks === true;
  const hooks = createSessionHooks({
    registry,
    sessionId: options.sessionId,
    cwd: options.workspace.root,
    log: logHooks ? options.log : undefined,
    verbose: options.verbose,
    // Hooks run outside a loop (SessionStart, UserPromptSubmit, SubagentStop) report here.
    emit: (event) => {
      if (event.type === "notice")
        options.log(event.level === "warn" ? `warning: ${event.text}` : event.text);
    },
  });

  const todos = new TodoList();
  const todoTool = createTodoWriteTool(todos, { onUpdate: (rendered) => options.log(rendered) });
  const taskTool = createTaskTool({
    provider: options.provider,
    tools: options.baseTools,
    workspace: options.workspace,
    extensions: [hooks.subagentExtension, permissions],
    systemPrompt: `${options.subagentSystemPrompt}\n\n${SUBAGENT_PROMPT_SECTION}`,
    onSubagentStop: (info) => hooks.runSubagentStop(info),
  });

  let startContext = (await hooks.runSessionStart(options.resumed ? "resume" : "startup")).context;
  const promptFilter: PromptFilter = async (prompt) => {
    const verdict = await hooks.runPromptHooks(prompt);
    if (verdict.blocked) return { refuse: verdict.blocked };
    const context = [startContext, verdict.context].filter(Boolean).join("\n");
    startContext = undefined;
    return { prompt: context ? `${prompt}\n\n<hook-context>\n${context}\n</hook-context>` : prompt };
  };

  return {
    hooks,
    permissions,
    extensions: [hooks.extension, permissions, createTodoReminderExtension(todos)],
    tools: [todoTool, taskTool],
    promptFilter,
    warnings,
  };
}
