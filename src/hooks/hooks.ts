import type { LoopExtension, LoopState } from "../agent/extension.js";
import type { EventSink } from "../core/events.js";
import type { ProcessGroups } from "../process/process-groups.js";
import type { SubagentStopInfo } from "../subagent/types.js";
import type { PreparedCall } from "../tools/registry.js";
import { type DispatchOptions, dispatchHooks, type HookPermission, type HookVerdict } from "./dispatch.js";
import type { HookEventName } from "./events.js";
import { hookLogLine } from "./log-lines.js";
import type { HookRegistry } from "./registry.js";

export interface HooksOptions {
  registry: HookRegistry;
  sessionId: string;
  cwd: string;
  /** The built-in log hook's writer; give it with --verbose or settings.logHooks. */
  log?: (line: string) => void;
  /** Show what successful hooks print on stdout (as info notices). */
  verbose?: boolean;
  /** Where warnings go for hooks run outside a loop (SessionStart, UserPromptSubmit, SubagentStop). */
  emit?: EventSink;
  /** Prefix of the log lines of hooks run inside a subagent; default two spaces. */
  subagentLogPrefix?: string;
  /** The environment hooks start from (secrets removed); default hx's own without secrets. */
  baseEnv?: Record<string, string>;
  /** Registers running hooks so hx's exit kills them. */
  groups?: ProcessGroups;
}

/**
 * What PreToolUse hooks said about the permission of each call (`permissionDecision` allow or
 * ask), for the permission check that runs after them. A hook's allow only skips the question
 * the mode would ask; it never overrides a deny or ask rule, the block list or a protected path.
 */
export class HookPermissions {
  private readonly byCall = new WeakMap<PreparedCall, HookPermission>();

  set(prepared: PreparedCall, permission: HookPermission): void {
    this.byCall.set(prepared, permission);
  }

  get(prepared: PreparedCall): HookPermission | undefined {
    return this.byCall.get(prepared);
  }
}

/** Hooks of one session: loop extensions plus the calls the session and the task tool make. */
export interface SessionHooks {
  /** PreToolUse, PostToolUse and Stop for the main loop. */
  readonly extension: LoopExtension;
  /** PreToolUse and PostToolUse inside subagents (their end is SubagentStop, run by the task tool). */
  readonly subagentExtension: LoopExtension;
  /** At session start; `context` is what the hooks printed, for the session to add if it likes. */
  runSessionStart(source?: string): Promise<{ context?: string }>;
  /** Before a prompt goes to the model; `blocked` is the reason to show when a hook refused it. */
  runPromptHooks(prompt: string): Promise<{ blocked?: string; context?: string }>;
  /** When a subagent ended; pass as the task tool's onSubagentStop. */
  runSubagentStop(info: SubagentStopInfo): Promise<void>;
  /** Any event by name (e.g. PreCompact once compaction exists). */
  runEvent(event: HookEventName, fields: Record<string, unknown>, tool?: string): Promise<HookVerdict>;
  /** What PreToolUse hooks said about permissions; give it to the permission extension. */
  readonly permissions: HookPermissions;
}

/**
 * Builds the hooks of a session. Command hooks come from the registry; the built-in log hook
 * prints the `[HOOK] ...` lines when a `log` writer is given. A hook that fails or hangs
 * only produces a warning: hooks never stop the agent.
 */
export function createSessionHooks(options: HooksOptions): SessionHooks {
  const log = options.log ?? (() => undefined);
  const subagentPrefix = options.subagentLogPrefix ?? "  ";
  const dispatchOptions = (signal?: AbortSignal): DispatchOptions => ({
    sessionId: options.sessionId,
    cwd: options.cwd,
    signal,
    baseEnv: options.baseEnv,
    groups: options.groups,
  });
  const permissions = new HookPermissions();
  /** Runs that a Stop hook already sent back to work (Claude Code's `stop_hook_active`). */
  const continuedRuns = new WeakSet<LoopState>();

  const run = async (
    event: HookEventName,
    fields: Record<string, unknown>,
    emit: EventSink | undefined,
    tool?: string,
    signal?: AbortSignal,
  ): Promise<HookVerdict> => {
    const verdict = await dispatchHooks(options.registry, event, fields, {
      ...dispatchOptions(signal),
      tool,
    });
    for (const warning of verdict.warnings) emit?.({ type: "notice", level: "warn", text: warning });
    for (const message of verdict.messages)
      emit?.({ type: "notice", level: "info", text: `${event} hook: ${message}` });
    if (verdict.stop !== undefined)
      emit?.({ type: "notice", level: "warn", text: `${event} hook stopped the run: ${verdict.stop}` });
    if (options.verbose) {
      for (const output of verdict.outputs)
        emit?.({ type: "notice", level: "info", text: `${event} hook: ${output}` });
    }
    return verdict;
  };

  const toolHooks = (name: string, prefix: string): LoopExtension => ({
    name,
    async beforeToolCall(prepared, state) {
      log(prefix + hookLogLine.preToolUse(prepared.tool.name, prepared.args));
      const verdict = await run(
        "PreToolUse",
        { tool_name: prepared.tool.name, tool_input: prepared.args },
        state.emit,
        prepared.tool.name,
        state.signal,
      );
      // `continue: false` wins over a block: the call is refused and the run ends here.
      if (verdict.stop !== undefined) {
        state.endRun(`A PreToolUse hook stopped the run: ${verdict.stop}`);
        return { block: `Not run: a hook stopped the run (${verdict.stop}).` };
      }
      if (verdict.blocked !== undefined) return { block: verdict.blocked };
      if (verdict.permission) permissions.set(prepared, verdict.permission);
      return undefined;
    },
    async afterToolCall(prepared, output, state) {
      log(prefix + hookLogLine.postToolUse(prepared.tool.name, output.content));
      const verdict = await run(
        "PostToolUse",
        { tool_name: prepared.tool.name, tool_input: prepared.args, tool_output: output.content },
        state.emit,
        prepared.tool.name,
        state.signal,
      );
      const notes = [
        ...(verdict.blocked !== undefined ? [`[PostToolUse hook] ${verdict.blocked}`] : []),
        ...verdict.context.map((context) => `[PostToolUse hook context] ${context}`),
        ...(verdict.stop !== undefined ? [`[PostToolUse hook] The run was stopped: ${verdict.stop}`] : []),
      ];
      if (verdict.stop !== undefined) state.endRun(`A PostToolUse hook stopped the run: ${verdict.stop}`);
      if (notes.length === 0) return undefined;
      return { ...output, content: `${output.content}\n\n${notes.join("\n")}` };
    },
  });

  const mainExtension: LoopExtension = {
    ...toolHooks("hooks", ""),
    async onStop(finalText, state) {
      log(hookLogLine.stop(state.stats));
      const verdict = await run(
        "Stop",
        { stop_hook_active: continuedRuns.has(state), last_message: finalText },
        state.emit,
        undefined,
        state.signal,
      );
      // `continue: false` wins over a block: the run ends here.
      if (verdict.blocked === undefined || verdict.stop !== undefined) return undefined;
      continuedRuns.add(state);
      // The user sees why the answer goes on (the model's reply to it follows).
      const reason = verdict.blocked.trim().split("\n", 1)[0] ?? "";
      state.emit({ type: "notice", level: "info", text: `Stop hook sent the model back: ${reason}` });
      return verdict.blocked;
    },
  };

  return {
    extension: mainExtension,
    subagentExtension: toolHooks("subagent-hooks", subagentPrefix),
    async runSessionStart(source = "startup") {
      // No log line: the built-in log hook prints the seed's lines only.
      const verdict = await run("SessionStart", { source }, options.emit);
      const context = [...verdict.outputs, ...verdict.context];
      return context.length > 0 ? { context: context.join("\n") } : {};
    },
    async runPromptHooks(prompt) {
      log(hookLogLine.userPromptSubmit(options.cwd));
      const verdict = await run("UserPromptSubmit", { prompt }, options.emit);
      if (verdict.blocked !== undefined) return { blocked: verdict.blocked };
      if (verdict.stop !== undefined) return { blocked: verdict.stop };
      const context = [...verdict.outputs, ...verdict.context];
      return context.length > 0 ? { context: context.join("\n") } : {};
    },
    async runSubagentStop(info) {
      log(subagentPrefix + hookLogLine.subagentStop(info.result.stats));
      await run(
        "SubagentStop",
        {
          description: info.description,
          agent_type: info.agentType ?? "general",
          final_text: info.result.text,
        },
        options.emit,
      );
    },
    runEvent: (event, fields, tool) => run(event, fields, options.emit, tool),
    permissions,
  };
}
