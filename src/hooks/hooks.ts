import type { LoopExtension, LoopState } from "../agent/extension.js";
import type { EventSink } from "../core/events.js";
import type { ToolOutput } from "../core/tool.js";
import type { ProcessGroups } from "../process/process-groups.js";
import type { SubagentStartInfo, SubagentStopInfo } from "../subagent/index.js";
import {
  claudeToolInput,
  claudeToolName,
  claudeToolResponse,
  hxArgsFrom,
  toolNames,
} from "../tools/claude-call.js";
import type { PreparedCall } from "../tools/registry.js";
import type { Workspace } from "../tools/workspace.js";
import { type DispatchOptions, dispatchHooks, type HookVerdict } from "./dispatch.js";
import type { HookEventName } from "./events.js";
import { hookLogLine } from "./log-lines.js";
import type { HookRegistry } from "./registry.js";
import type { PreToolUsePermission } from "./verdict.js";

/** How many times Stop hooks may send the model back in one prompt, unless settings say otherwise. */
export const DEFAULT_STOP_HOOK_LIMIT = 100;

export interface HooksOptions {
  registry: HookRegistry;
  sessionId: string;
  workspace: Workspace;
  /** The Claude Code-shaped transcript hooks read (`transcript_path`). */
  transcriptPath: string;
  /** The permission mode now (`permission_mode`). */
  permissionMode?: () => string;
  /** The built-in log hook's writer; give it with --verbose or settings.logHooks. */
  log?: (line: string) => void;
  /** Show what successful hooks print on stdout and stderr (as info notices). */
  verbose?: boolean;
  /** Where warnings go for hooks run outside a loop (SessionStart, UserPromptSubmit, SubagentStop…). */
  emit?: EventSink;
  /** Prefix of the log lines of hooks run inside a subagent; default two spaces. */
  subagentLogPrefix?: string;
  /** The environment hooks start from (secrets removed); default hx's own without secrets. */
  baseEnv?: Record<string, string>;
  /** Registers running hooks so hx's exit kills them. */
  groups?: ProcessGroups;
}

/**
 * What PreToolUse hooks said about each call (allow, ask or deny), for the permission check
 * that runs right after them and decides (permissions/decide.ts: bands hook-deny, hook-ask,
 * hook-allow). A hook's allow only skips the question the mode would ask; it never overrides a
 * deny or ask rule, the block list or a protected path.
 *
 * Fails closed: until a permission extension takes the verdicts (`handOver`), the hooks
 * extension refuses a denied call itself, so a deny is never lost (skills' `hooks:`, which
 * run after the permission check, and hooks used without one).
 */
class HookPermissions {
  private readonly byCall = new WeakMap<PreparedCall, PreToolUsePermission>();
  private decider = false;

  set(prepared: PreparedCall, permission: PreToolUsePermission): void {
    this.byCall.set(prepared, permission);
  }

  /** What was said about this call, or about the call it replaced (a hook's `updatedInput`). */
  get(prepared: PreparedCall): PreToolUsePermission | undefined {
    return this.byCall.get(prepared) ?? (prepared.original ? this.byCall.get(prepared.original) : undefined);
  }

  /** Called by the permission extension that reads these verdicts: from now on it refuses. */
  handOver(): void {
    this.decider = true;
  }

  /** True once a permission extension decides with these verdicts. */
  get handedOver(): boolean {
    return this.decider;
  }
}

/** A PermissionRequest hook's answer to a question hx would ask (see SessionHooks.answerPermission). */
interface HookPermissionAnswer {
  behavior: "allow" | "deny";
  message?: string;
}

/** Hooks of one session: loop extensions plus the calls the session and the task tool make. */
export interface SessionHooks {
  /** PreToolUse, PostToolUse(Failure) and Stop for the main loop. */
  readonly extension: LoopExtension;
  /** PreToolUse and PostToolUse(Failure) inside subagents (their end is SubagentStop, run by the task tool). */
  readonly subagentExtension: LoopExtension;
  /** At session start; `context` is what the hooks printed, for the session to add if it likes. */
  runSessionStart(source?: string): Promise<{ context?: string }>;
  /** When the session ends (`reason` as Claude Code's: `prompt_input_exit`, `clear`, `other`). */
  runSessionEnd(reason: string): Promise<void>;
  /** Before a prompt goes to the model; `blocked` is the reason to show when a hook refused it. */
  runPromptHooks(prompt: string): Promise<{ blocked?: string; context?: string }>;
  /** When a subagent starts; `context` joins its prompt. Pass as the task tool's onSubagentStart. */
  runSubagentStart(info: SubagentStartInfo): Promise<{ context?: string }>;
  /** When a subagent ended; pass as the task tool's onSubagentStop. */
  runSubagentStop(info: SubagentStopInfo): Promise<void>;
  /** When hx would ask the user about a call: PermissionRequest hooks may answer instead. */
  answerPermission(prepared: PreparedCall, signal?: AbortSignal): Promise<HookPermissionAnswer | undefined>;
  /** When something waits for the user (a permission question): Notification hooks. */
  notify(message: string, type: string): Promise<void>;
  /** Any event by name (PreCompact). */
  runEvent(event: HookEventName, fields: Record<string, unknown>): Promise<HookVerdict>;
  /** What PreToolUse hooks said about permissions; give it to the permission extension. */
  readonly permissions: HookPermissions;
}

/**
 * Builds the hooks of a session. Command hooks come from the registry; the built-in log hook
 * prints the `[HOOK] ...` lines when a `log` writer is given. A hook that fails or hangs
 * only produces a warning: hooks never stop the agent.
 */
export function createSessionHooks(options: HooksOptions): SessionHooks {
  const hooks = hookRunner(options);
  const { log, run, subagentPrefix } = hooks;
  const { registry } = options;
  return {
    extension: { ...toolHooks(hooks, "hooks", ""), onStop: stopHook(hooks) },
    subagentExtension: toolHooks(hooks, "subagent-hooks", subagentPrefix),
    async runSessionStart(source = "startup") {
      // No log line: the built-in log hook prints the seed's lines only.
      return contextOf(await run("SessionStart", { source }, options.emit));
    },
    async runSessionEnd(reason) {
      if (registry.has("SessionEnd")) await run("SessionEnd", { reason }, options.emit);
    },
    async runPromptHooks(prompt) {
      log(hookLogLine.userPromptSubmit(options.workspace.root));
      const verdict = await run("UserPromptSubmit", { prompt }, options.emit);
      if (verdict.blocked !== undefined) return { blocked: verdict.blocked };
      if (verdict.stop !== undefined) return { blocked: verdict.stop };
      return contextOf(verdict);
    },
    runSubagentStart: (info) => subagentStart(hooks, info),
    runSubagentStop: (info) => subagentStop(hooks, info),
    answerPermission: (prepared, signal) => permissionRequest(hooks, prepared, signal),
    async notify(message, type) {
      if (registry.has("Notification"))
        await run("Notification", { message, notification_type: type }, options.emit);
    },
    runEvent: (event, fields) => run(event, fields, options.emit),
    permissions: hooks.permissions,
  };
}

/** What every hook of a session shares: the options, the log, one way to run an event. */
interface HookRunner {
  options: HooksOptions;
  log: (line: string) => void;
  subagentPrefix: string;
  /** Runs an event's hooks and shows their warnings and messages as notices. */
  run(
    event: HookEventName,
    fields: Record<string, unknown>,
    emit: EventSink | undefined,
    names?: readonly string[],
    signal?: AbortSignal,
  ): Promise<HookVerdict>;
  /** The tool fields of a payload: Claude Code's name and input, hx's riding along. */
  toolFields(prepared: PreparedCall): Record<string, unknown>;
  permissions: HookPermissions;
  /** Runs that a Stop hook already sent back to work (Claude Code's `stop_hook_active`). */
  continuedRuns: WeakSet<LoopState>;
}

function hookRunner(options: HooksOptions): HookRunner {
  const { workspace, registry } = options;
  const dispatchOptions = (signal?: AbortSignal): DispatchOptions => ({
    sessionId: options.sessionId,
    cwd: workspace.root,
    transcriptPath: options.transcriptPath,
    permissionMode: options.permissionMode ?? (() => "default"),
    signal,
    baseEnv: options.baseEnv,
    groups: options.groups,
  });
  return {
    options,
    log: options.log ?? (() => undefined),
    subagentPrefix: options.subagentLogPrefix ?? "  ",
    async run(event, fields, emit, names, signal) {
      const verdict = await dispatchHooks(registry, event, fields, { ...dispatchOptions(signal), names });
      if (emit) showVerdict(event, verdict, emit, options.verbose === true);
      return verdict;
    },
    toolFields: (prepared) => ({
      tool_name: claudeToolName(prepared.tool),
      tool_input: claudeToolInput(prepared.tool, prepared.args, workspace),
      tool_use_id: prepared.call.id,
      hx_tool_name: prepared.tool.name,
      hx_tool_input: prepared.args,
    }),
    permissions: new HookPermissions(),
    continuedRuns: new WeakSet<LoopState>(),
  };
}

/** A verdict's warnings and messages as notices (with `verbose`, what the hooks printed too). */
function showVerdict(event: HookEventName, verdict: HookVerdict, emit: EventSink, verbose: boolean): void {
  for (const warning of verdict.warnings) emit({ type: "notice", level: "warn", text: warning });
  for (const message of verdict.messages)
    emit({ type: "notice", level: "info", text: `${event} hook: ${message}` });
  if (verdict.stop !== undefined)
    emit({ type: "notice", level: "warn", text: `${event} hook stopped the run: ${verdict.stop}` });
  if (!verbose) return;
  for (const output of verdict.outputs)
    emit({ type: "notice", level: "info", text: `${event} hook: ${output}` });
  for (const stderr of verdict.stderr) emit({ type: "notice", level: "info", text: `stderr of ${stderr}` });
}

/** PreToolUse and PostToolUse(Failure) as a loop extension; `prefix` starts its log lines. */
function toolHooks(hooks: HookRunner, name: string, prefix: string): LoopExtension {
  const { registry, workspace } = hooks.options;
  return {
    name,
    async beforeToolCall(prepared, state) {
      hooks.log(prefix + hookLogLine.preToolUse(prepared.tool.name, prepared.args));
      if (!registry.has("PreToolUse")) return undefined;
      const fields = hooks.toolFields(prepared);
      const verdict = await hooks.run(
        "PreToolUse",
        fields,
        state.emit,
        toolNames(prepared.tool),
        state.signal,
      );
      const denial = denialOf(verdict);
      // `continue: false` wins over a block: the call is refused and the run ends here.
      if (verdict.stop !== undefined) state.endRun(`A PreToolUse hook stopped the run: ${verdict.stop}`);
      if (denial) {
        // The permission check refuses it (band hook-deny); without one, this extension does.
        if (!hooks.permissions.handedOver) return { block: denial.message };
        hooks.permissions.set(prepared, denial);
        return undefined;
      }
      if (verdict.permission) hooks.permissions.set(prepared, verdict.permission);
      if (verdict.updatedInput)
        return { args: hxArgsFrom(prepared.tool, prepared.args, verdict.updatedInput, workspace) };
      return undefined;
    },
    async afterToolCall(prepared, output, state) {
      hooks.log(prefix + hookLogLine.postToolUse(prepared.tool.name, output.content));
      // As in Claude Code, a command that exits non-zero is a failed call.
      const failed = output.isError === true || (output.exitCode ?? 0) !== 0;
      const event = failed ? "PostToolUseFailure" : "PostToolUse";
      if (!registry.has(event)) return undefined;
      const fields = failed
        ? { ...hooks.toolFields(prepared), error: output.content, is_interrupt: state.signal.aborted }
        : {
            ...hooks.toolFields(prepared),
            tool_response: claudeToolResponse(prepared.tool, prepared.args, output, workspace),
            tool_output: output.content,
          };
      const verdict = await hooks.run(event, fields, state.emit, toolNames(prepared.tool), state.signal);
      return withPostNotes(event, output, verdict, state);
    },
  };
}

/** A PreToolUse verdict that refuses the call, with what the model reads (as the hook said it). */
function denialOf(verdict: HookVerdict): Extract<PreToolUsePermission, { decision: "deny" }> | undefined {
  if (verdict.stop !== undefined)
    return {
      decision: "deny",
      reason: `it stopped the run: ${verdict.stop}`,
      message: `Not run: a hook stopped the run (${verdict.stop}).`,
    };
  if (verdict.blocked !== undefined)
    return { decision: "deny", reason: verdict.blocked, message: verdict.blocked };
  return undefined;
}

/** The main loop's Stop hooks: a block sends the model back to work (once per run it says so). */
function stopHook(hooks: HookRunner): NonNullable<LoopExtension["onStop"]> {
  return async (finalText, state) => {
    hooks.log(hookLogLine.stop(state.stats));
    const verdict = await hooks.run(
      "Stop",
      { stop_hook_active: hooks.continuedRuns.has(state), last_message: finalText },
      state.emit,
      undefined,
      state.signal,
    );
    // `continue: false` wins over a block: the run ends here.
    if (verdict.blocked === undefined || verdict.stop !== undefined) return undefined;
    hooks.continuedRuns.add(state);
    // The user sees why the answer goes on (the model's reply to it follows).
    const reason = verdict.blocked.trim().split("\n", 1)[0] ?? "";
    state.emit({ type: "notice", level: "info", text: `Stop hook sent the model back: ${reason}` });
    return verdict.blocked;
  };
}

async function subagentStart(hooks: HookRunner, info: SubagentStartInfo): Promise<{ context?: string }> {
  if (!hooks.options.registry.has("SubagentStart")) return {};
  const verdict = await hooks.run(
    "SubagentStart",
    { agent_id: info.id, agent_type: info.agentType, description: info.description },
    hooks.options.emit,
  );
  return verdict.context.length > 0 ? { context: verdict.context.join("\n") } : {};
}

async function subagentStop(hooks: HookRunner, info: SubagentStopInfo): Promise<void> {
  hooks.log(hooks.subagentPrefix + hookLogLine.subagentStop(info.result.stats));
  await hooks.run(
    "SubagentStop",
    {
      stop_hook_active: false,
      agent_id: info.id,
      agent_type: info.agentType ?? "general",
      description: info.description,
      final_text: info.result.text,
    },
    hooks.options.emit,
  );
}

/** PermissionRequest hooks answering a question hx would ask: allow, deny, or no answer. */
async function permissionRequest(
  hooks: HookRunner,
  prepared: PreparedCall,
  signal: AbortSignal | undefined,
): Promise<HookPermissionAnswer | undefined> {
  if (!hooks.options.registry.has("PermissionRequest")) return undefined;
  const verdict = await hooks.run(
    "PermissionRequest",
    { ...hooks.toolFields(prepared), permission_suggestions: [] },
    hooks.options.emit,
    toolNames(prepared.tool),
    signal,
  );
  if (verdict.blocked !== undefined) return { behavior: "deny", message: verdict.blocked };
  return verdict.answer ? { behavior: verdict.answer.behavior, message: verdict.answer.message } : undefined;
}

/** What SessionStart or UserPromptSubmit hooks printed, for the session to add. */
function contextOf(verdict: HookVerdict): { context?: string } {
  const context = [...verdict.outputs, ...verdict.context];
  return context.length > 0 ? { context: context.join("\n") } : {};
}

/** A PostToolUse(Failure) verdict applied to the output the model reads. */
function withPostNotes(
  event: string,
  output: ToolOutput,
  verdict: HookVerdict,
  state: LoopState,
): ToolOutput | undefined {
  const notes = [
    ...(verdict.blocked !== undefined ? [`[${event} hook] ${verdict.blocked}`] : []),
    ...verdict.context.map((context) => `[${event} hook context] ${context}`),
    ...(verdict.stop !== undefined ? [`[${event} hook] The run was stopped: ${verdict.stop}`] : []),
  ];
  if (verdict.stop !== undefined) state.endRun(`A ${event} hook stopped the run: ${verdict.stop}`);
  if (notes.length === 0) return undefined;
  return { ...output, content: `${output.content}\n\n${notes.join("\n")}` };
}
