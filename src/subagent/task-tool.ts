import type { LoopExtension } from "../agent/extension.js";
import { errorMessage } from "../core/error-message.js";
import type { AgentResult, EventSink } from "../core/events.js";
import type { SkillSpan, UserMessageMeta } from "../core/messages.js";
import { type ToolOutput, toolError } from "../core/tool.js";
import type { ModelProvider } from "../providers/provider.js";
import { builtSchema } from "../tools/built-schemas.js";
import { defined } from "../tools/claude-shape.js";
import { ToolRegistry } from "../tools/registry.js";
import { type ClaudeShape, defineTool, type Tool, type Zod } from "../tools/tool.js";
import type { Workspace } from "../tools/workspace.js";
import { lastAssistantText, runSubagent } from "./run-subagent.js";
import { AGENT_TYPES, type AgentType, SUBAGENT_TOOL_NAMES, selectSubagentTools } from "./tool-selection.js";
import type { SubagentStartInfo, SubagentStopInfo } from "./types.js";

const SUBAGENT_MAX_TURNS = 30;

export interface TaskToolDeps {
  provider: ModelProvider;
  /** The session's base tools; the subagent gets those named in `allowedTools`. */
  tools: readonly Tool[];
  workspace: Workspace;
  /** Extensions inside the subagent: the session's permissions and subagent hooks, not its todo reminder. */
  extensions: LoopExtension[];
  systemPrompt: string;
  /** Default 30. */
  maxTurns?: number;
  /** Called when a subagent ends (SubagentStop hooks); failures are reported, never fatal. */
  onSubagentStop?: (info: SubagentStopInfo) => Promise<void> | void;
  /** Before a subagent starts; `context` (SubagentStart hooks' additionalContext) joins its prompt. */
  onSubagentStart?: (info: SubagentStartInfo) => Promise<{ context?: string }>;
  /**
   * Skill bodies to start the subagent with (`skills: [names]`); without it the parameter is
   * refused. The subagent itself never gets load_skill.
   */
  preloadSkills?: (names: readonly string[]) => { text: string; spans: SkillSpan[] } | { error: string };
  /** Offer the `skills` parameter (only when a skill is visible: else it costs every request). */
  offerSkills?: boolean;
  /** Default SUBAGENT_TOOL_NAMES: bash, read_file, write_file, edit_file, glob, grep. */
  allowedTools?: readonly string[];
  /**
   * Runs a subagent as a background job (`run_in_background`) and returns the job's id; its
   * answer reaches the model when it ends. Without it the parameter is not offered.
   */
  startInBackground?: (description: string, run: (signal: AbortSignal) => Promise<ToolOutput>) => string;
  /**
   * A place of its own for a subagent (`isolation: "worktree"`): a new git worktree with its
   * own workspace, tools and permission root. Without it the parameter is not offered.
   */
  isolate?: (job: { id: string; description: string }) => Promise<IsolatedPlace>;
}

/** Where an isolated subagent works, and what is said about it when it ends. */
export interface IsolatedPlace {
  workspace: Workspace;
  tools: readonly Tool[];
  extensions: LoopExtension[];
  /** Adds the branch and the diff summary to the answer (or removes a worktree left clean). */
  finish(output: ToolOutput): ToolOutput;
}

export const taskParameters = (z: Zod) =>
  z.object({
    description: z.string().min(1).describe("A 3-6 word label"),
    prompt: z.string().min(1).describe("What to find or do, and what to report"),
    agent_type: z.enum(AGENT_TYPES).optional().describe("explore: read-only; general: all tools (default)"),
    skills: z.array(z.string()).optional().describe("Skills to preload (it cannot load any)"),
    run_in_background: z.boolean().optional().describe("Return now; answer comes when done"),
    isolation: z.enum(["worktree"]).optional().describe("Edit in its own git worktree"),
  });

type TaskParameter = "skills" | "run_in_background" | "isolation";

/** `task`'s parameters without those the session cannot serve (each costs every request). */
function taskParametersWithout(omitted: readonly TaskParameter[]) {
  const mask = Object.fromEntries(omitted.map((name) => [name, true])) as Record<TaskParameter, true>;
  return (z: Zod) => taskParameters(z).omit(mask) as ReturnType<typeof taskParameters>;
}

/** The built JSON Schema without the omitted properties (all optional: `required` stays). */
function taskSchemaWithout(omitted: readonly TaskParameter[]): Record<string, unknown> | undefined {
  const schema = builtSchema("task");
  const properties = schema?.properties as Record<string, unknown> | undefined;
  for (const name of omitted) delete properties?.[name];
  return schema;
}

/** task as Claude Code's Task: hx's `explore` / `general` are Claude's `Explore` / `general-purpose`. */
type TaskArgs = {
  description: string;
  prompt: string;
  agent_type?: string;
  skills?: string[];
  run_in_background?: boolean;
  isolation?: "worktree";
};

/**
 * task as Claude Code's Task: hx's `explore` / `general` are Claude's `Explore` /
 * `general-purpose`; `run_in_background` is Claude's own; `skills` and `isolation` ride along
 * (so a hook's `updatedInput` keeps them).
 */
export const TASK_CLAUDE: ClaudeShape<TaskArgs> = {
  name: "Task",
  input: (args) =>
    defined({
      description: args.description,
      prompt: args.prompt,
      subagent_type: args.agent_type === "explore" ? "Explore" : "general-purpose",
      run_in_background: args.run_in_background,
      skills: args.skills,
      isolation: args.isolation,
    }),
  args: (input) =>
    defined({
      description: input.description,
      prompt: input.prompt,
      agent_type: String(input.subagent_type ?? "").toLowerCase() === "explore" ? "explore" : "general",
      run_in_background: input.run_in_background === true ? true : undefined,
      skills: Array.isArray(input.skills) ? input.skills : undefined,
      isolation: input.isolation === "worktree" ? "worktree" : undefined,
    }),
  response: (_args, output) => ({ content: [{ type: "text", text: output.content }] }),
};

/** One job for a subagent: what `task` is called with, or a `context: fork` skill. */
export interface SubagentJob {
  /** The call that started it (Claude Code's `agent_id` for the subagent hooks). */
  id: string;
  /** A 3-6 word label (its events are wrapped with it). */
  description: string;
  /** The subagent's first message. */
  prompt: string;
  meta?: UserMessageMeta;
  agentType: AgentType;
  /** Another model than the session's (a skill's `model:`). */
  provider?: ModelProvider;
  emit: EventSink;
  signal: AbortSignal;
  /** A background job: nobody can answer its permission questions (they are refused). */
  unattended?: boolean;
  /** Its own workspace, tools and extensions (a worktree); default the session's. */
  place?: Pick<IsolatedPlace, "workspace" | "tools" | "extensions">;
}

/**
 * Runs subagent jobs with the deps' tools, extensions and turn limit: the subagent sees only
 * the job's prompt (never the parent's history); only its final text comes back. The
 * SubagentStart and SubagentStop hooks run around each job.
 */
export function createSubagentRunner(deps: TaskToolDeps): {
  run(job: SubagentJob): Promise<ToolOutput>;
  maxTurns: number;
} {
  const allowed = deps.allowedTools ?? SUBAGENT_TOOL_NAMES;
  const registriesFor = (tools: readonly Tool[]) =>
    new Map<AgentType, ToolRegistry>(
      AGENT_TYPES.map((type) => [type, new ToolRegistry(selectSubagentTools(tools, allowed, type))]),
    );
  const registries = registriesFor(deps.tools);
  const maxTurns = deps.maxTurns ?? SUBAGENT_MAX_TURNS;
  const run = async (job: SubagentJob): Promise<ToolOutput> => {
    let { prompt } = job;
    const started = await deps
      .onSubagentStart?.({ id: job.id, description: job.description, agentType: job.agentType })
      .catch((error) => {
        job.emit({ type: "notice", level: "warn", text: `SubagentStart failed: ${errorMessage(error)}` });
        return undefined;
      });
    if (started?.context) prompt = `${prompt}\n\n<hook-context>\n${started.context}\n</hook-context>`;
    const { result, messages } = await runSubagent(
      {
        provider: job.provider ?? deps.provider,
        system: deps.systemPrompt,
        tools: (job.place ? registriesFor(job.place.tools) : registries).get(job.agentType)!,
        workspace: job.place?.workspace ?? deps.workspace,
        extensions: job.place?.extensions ?? deps.extensions,
        maxTurns,
        label: job.description,
        emit: job.emit,
        signal: job.signal,
        unattended: job.unattended,
      },
      prompt,
      job.meta,
    );
    const { stats } = result;
    job.emit({
      type: "notice",
      level: "info",
      text: `subagent "${job.description}" stats turns=${stats.turns} tool_calls=${stats.toolCalls} blocked=${stats.blocked}`,
    });
    if (deps.onSubagentStop) {
      try {
        await deps.onSubagentStop({
          id: job.id,
          description: job.description,
          agentType: job.agentType,
          result,
        });
      } catch (error) {
        job.emit({
          type: "notice",
          level: "warn",
          text: `SubagentStop failed: ${errorMessage(error)}`,
        });
      }
    }
    return toToolOutput(result, lastAssistantText(messages), maxTurns);
  };
  return { run, maxTurns };
}

/**
 * `task`: hands a self-contained job to a subagent with a fresh context. The subagent works
 * with its own tools and turn limit; only its final text comes back as the tool result.
 */
export function createTaskTool(deps: TaskToolDeps, runner = createSubagentRunner(deps)) {
  const { maxTurns } = runner;
  const omitted: TaskParameter[] = [
    ...(deps.offerSkills ? [] : (["skills"] as const)),
    ...(deps.startInBackground ? [] : (["run_in_background"] as const)),
    ...(deps.isolate ? [] : (["isolation"] as const)),
  ];
  return defineTool({
    name: "task",
    description: `Runs a subagent in a fresh context on a self-contained job (research, a focused edit); only its final answer returns. It sees only your prompt: include every detail. Stops after ${maxTurns} turns.`,
    parameters: taskParametersWithout(omitted),
    jsonSchema: taskSchemaWithout(omitted),
    effect: "none",
    claude: TASK_CLAUDE,
    async execute(args, ctx): Promise<ToolOutput> {
      const agentType: AgentType = args.agent_type ?? "general";
      let prompt = args.prompt;
      let meta: UserMessageMeta | undefined;
      if (args.skills && args.skills.length > 0) {
        const preload = deps.preloadSkills?.(args.skills) ?? { error: "skills cannot be preloaded here" };
        if ("error" in preload) return toolError(`task.skills: ${preload.error}`);
        const start = `${preload.text}\n\nThe instructions above are skills for this task. Your task:\n`;
        prompt = `${start}${args.prompt}`;
        meta = { skills: preload.spans };
      }
      const job: SubagentJob = {
        id: ctx.callId,
        description: args.description,
        prompt,
        meta,
        agentType,
        emit: ctx.emit,
        signal: ctx.signal,
      };
      const run = async (signal: AbortSignal, unattended: boolean): Promise<ToolOutput> => {
        if (args.isolation !== "worktree" || !deps.isolate) return runner.run({ ...job, signal, unattended });
        const place = await deps.isolate({ id: job.id, description: job.description });
        return place.finish(await runner.run({ ...job, signal, unattended, place }));
      };
      if (!args.run_in_background || !deps.startInBackground) return run(ctx.signal, false);
      const id = deps.startInBackground(args.description, (signal) =>
        run(signal, true).catch((error) => toolError(errorMessage(error))),
      );
      return {
        content: `Started the subagent in the background as ${id}; its answer comes to you when it ends (bash_output {"id": "${id}"} waits for it, bash_kill stops it). It cannot ask the user: calls that need a question are refused.`,
      };
    },
  });
}

function toToolOutput(result: AgentResult, lastText: string, maxTurns: number): ToolOutput {
  switch (result.stop) {
    case "done":
      return { content: result.text.trim() || "(The subagent finished without a final message.)" };
    case "length":
      return {
        content: `${result.text.trim() || "(no text)"}\n\n[Note: the subagent's answer was cut off at its output limit; it is incomplete.]`,
      };
    case "max_turns":
      return {
        content: `${lastText || "(no text)"}\n\n[Note: the subagent stopped after ${maxTurns} turns without a final answer; the text above is its last message. Split the task or ask for less.]`,
      };
    case "aborted":
      return toolError("the subagent was cancelled by the user.");
    default:
      return toolError(
        `the subagent failed: ${result.error?.message ?? "unknown error"}${lastText ? `\nIts last message: ${lastText}` : ""}`,
      );
  }
}
