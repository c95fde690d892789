import type { PromptRun } from "../agent/capability.js";
import type { LoopExtension } from "../agent/extension.js";
import type { EventSink } from "../core/events.js";
import { type ToolOutput, toolError } from "../core/tool.js";
import type { SessionHooks } from "../hooks/index.js";
import type { ModelProvider } from "../providers/provider.js";
import type { AgentType, SubagentJob } from "../subagent/index.js";
import { expandShellLines, type ShellLineOutcome, shellCommandsIn } from "./body-expansion.js";
import { formatSkillContent } from "./skill-content.js";
import type { Skill } from "./types.js";

/**
 * What Claude Code's runtime fields of a skill need from the rest of the session: subagents
 * (`context: fork`), other models (`model:`), the shell tool (`` !`cmd` ``) and folder trust.
 */
export interface SkillRuntime {
  /** Runs a subagent job (the task tool's runner). */
  fork?: (job: SubagentJob) => Promise<ToolOutput>;
  /**
   * The provider for a skill's `model:`, or why it is not used (the session's provider does
   * not offer it): the run then stays on the session's model.
   */
  modelFor?: (model: string) => Promise<{ provider: ModelProvider } | { note: string }>;
  /** The tool `` !`cmd` `` lines run as (the one the model's shell calls use). */
  shellTool?: string;
  /** Hooks in the settings' shape, run as the session's hooks are (a skill's `hooks:`). */
  hooksFrom?: (hooks: Record<string, unknown>) => { hooks: SessionHooks; warnings: string[] };
  /** Whether a skill file may run commands or add hooks (folder trust). */
  fileTrusted: (file: string) => boolean;
  /** How to trust the folder, for the end of a line (`trust it with \`hx trust DIR\` …`). */
  howToTrust?: string;
  log: (line: string) => void;
}

/** Claude Code's `agent:` names (`Explore`, `Plan`, `general-purpose`) as hx's subagent types. */
function agentTypeFor(agent: string | undefined): { type: AgentType; note?: string } {
  if (agent === undefined) return { type: "general" };
  const name = agent.toLowerCase();
  if (name === "explore" || name === "plan") return { type: "explore" };
  if (name === "general" || name === "general-purpose") return { type: "general" };
  return {
    type: "general",
    note: `agent type '${agent}' is not one hx has (explore, general); running as general`,
  };
}

/** The model a skill asks for, when the provider has it; a note for the user otherwise. */
export async function skillModel(skill: Skill, runtime: SkillRuntime): Promise<ModelProvider | undefined> {
  if (!skill.model || !runtime.modelFor) return undefined;
  const found = await runtime.modelFor(skill.model);
  if ("note" in found) {
    runtime.log(`skills: ${skill.name}: model '${skill.model}' not used: ${found.note}`);
    return undefined;
  }
  return found.provider;
}

/**
 * A `context: fork` skill, run: a subagent (its `agent:` type, its `model:`) whose first
 * message is the skill's instructions and then the task; it never sees this conversation.
 * Its final answer is the result.
 */
export async function runForkedSkill(
  skill: Skill,
  task: string,
  runtime: SkillRuntime,
  run: { id: string; emit: EventSink; signal: AbortSignal },
): Promise<ToolOutput> {
  if (!runtime.fork) return toolError("subagents are not available here");
  const { type, note } = agentTypeFor(skill.agent);
  if (note) runtime.log(`skills: ${skill.name}: ${note}`);
  const body = formatSkillContent(skill);
  const prompt = `${body}\n\nThe instructions above are the skill ${skill.name}. Follow them for this task:\n${
    task.trim() || "(no arguments were given: do what the skill describes)"
  }`;
  const provider = await skillModel(skill, runtime);
  return runtime.fork({
    id: run.id,
    description: `skill ${skill.name}`,
    prompt,
    meta: { skills: [{ name: skill.name, start: 0, end: body.length }] },
    agentType: type,
    ...(provider ? { provider } : {}),
    emit: run.emit,
    signal: run.signal,
  });
}

/**
 * A user-invoked skill's `` !`cmd` `` lines, run through the shell tool as the user's calls
 * (the permission check, hooks and sandbox of any shell call) with their output inlined. In a
 * folder that is not trusted they do not run, and the body and the user say so.
 */
export async function runSkillShellLines(
  skill: Skill,
  body: string,
  runtime: SkillRuntime,
  run: PromptRun,
): Promise<string> {
  if (shellCommandsIn(body).length === 0) return body;
  if (skill.remote || !runtime.shellTool) {
    return (await expandShellLines(body, async () => ({ notRun: "commands of this skill cannot run here" })))
      .text;
  }
  if (!runtime.fileTrusted(skill.file)) {
    runtime.log(
      `skills: ${skill.name}: its !\`cmd\` lines were not run: this folder is not trusted (${runtime.howToTrust ?? "trust it with `hx trust`"})`,
    );
    const notRun = "this folder is not trusted, so the skill's commands were not run";
    return (await expandShellLines(body, async () => ({ notRun }))).text;
  }
  let count = 0;
  const shell = runtime.shellTool;
  const expanded = await expandShellLines(body, async (command): Promise<ShellLineOutcome> => {
    count += 1;
    const { message, blocked } = await run.runToolCall({
      id: `skill_${skill.name}_${count}_${Date.now().toString(36)}`,
      name: shell,
      arguments: JSON.stringify({ command }),
    });
    if (blocked) return { notRun: message.content.replace(/\n+/g, " ") };
    return { output: message.content };
  });
  return expanded.text;
}

/**
 * The `hooks:` of the active skills (PreToolUse, PostToolUse, Stop), each run like a settings
 * hook while its skill is active; a skill file in a folder that is not trusted adds none (said
 * once). Built once per skill file and hooks.
 */
export function skillHooksExtension(active: () => readonly Skill[], runtime: SkillRuntime): LoopExtension {
  const built = new Map<string, SessionHooks>();
  const told = new Set<string>();
  const hooksOf = (skill: Skill): SessionHooks | undefined => {
    if (!skill.hooks || !runtime.hooksFrom || skill.remote) return undefined;
    if (!runtime.fileTrusted(skill.file)) {
      if (!told.has(skill.file))
        runtime.log(
          `skills: ${skill.name}: its hooks are not used: this folder is not trusted (trust it with \`hx trust\`)`,
        );
      told.add(skill.file);
      return undefined;
    }
    const key = `${skill.file}\0${JSON.stringify(skill.hooks)}`;
    let hooks = built.get(key);
    if (!hooks) {
      const made = runtime.hooksFrom(skill.hooks);
      for (const warning of made.warnings) runtime.log(`warning: skills: ${skill.name}: ${warning}`);
      hooks = made.hooks;
      built.set(key, hooks);
    }
    return hooks;
  };
  const current = () => active().flatMap((skill) => hooksOf(skill) ?? []);
  return {
    name: "skill-hooks",
    async beforeToolCall(prepared, state) {
      for (const hooks of current()) {
        const decision = await hooks.extension.beforeToolCall?.(prepared, state);
        if (decision) return decision;
      }
      return undefined;
    },
    async afterToolCall(prepared, output, state) {
      let now = output;
      let changed = false;
      for (const hooks of current()) {
        const replaced = await hooks.extension.afterToolCall?.(prepared, now, state);
        if (replaced) {
          now = replaced;
          changed = true;
        }
      }
      return changed ? now : undefined;
    },
    async onStop(text, state) {
      for (const hooks of current()) {
        const more = await hooks.extension.onStop?.(text, state);
        if (more) return more;
      }
      return undefined;
    },
  };
}
