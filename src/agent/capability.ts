import type { SettingsObject } from "../config/settings.js";
import type { Conversation } from "../core/conversation.js";
import type { Diagnostic } from "../core/diagnostic.js";
import type { EventSink } from "../core/events.js";
import type { ToolCall, ToolResultMessage, UserMessageMeta } from "../core/messages.js";
import type { ModelProvider } from "../providers/provider.js";
import type { Tool } from "../tools/tool.js";
import type { Workspace } from "../tools/workspace.js";
import type { LoopExtension } from "./extension.js";

/**
 * A step a prompt passes through before the model sees it: hooks may refuse it or add
 * context, a `/skill-name` invocation may expand it. `meta` is kept on the user message.
 */
export type PromptFilter = (prompt: string, run: PromptRun) => Promise<PromptVerdict> | PromptVerdict;
/**
 * `model`: the model this prompt's run uses instead of the session's (a skill's `model:`),
 * for this run only.
 */
export type PromptVerdict =
  | { prompt: string; meta?: UserMessageMeta; model?: ModelProvider }
  | { refuse: string };

/** The run a prompt is about to start, for filters that do work first (a skill's `` !`cmd` `` lines). */
export interface PromptRun {
  emit: EventSink;
  signal?: AbortSignal;
  /**
   * A tool call made for the user, checked by every extension (rules, mode, hooks, sandbox)
   * exactly as a model's call; the conversation is not changed.
   */
  runToolCall(call: ToolCall): Promise<{ message: ToolResultMessage; blocked: boolean }>;
}

export interface SlashCommandIO {
  print: (text: string) => void;
  emit: EventSink;
  signal: AbortSignal;
  /**
   * Sends text as the user's next turn, as if typed (its prompt filters run): interactive
   * front ends only.
   */
  submit?: (prompt: string) => Promise<void>;
}

/** A command typed at the interactive prompt as `/name args`. */
export interface SlashCommand {
  name: string;
  usage: string;
  description: string;
  /** What the arguments are, for completion (`<file> [focus]`). */
  argumentHint?: string;
  run(args: string, io: SlashCommandIO): Promise<void> | void;
}

/**
 * One feature of a session, as entries the session collects (skills, permissions, hooks,
 * todo, subagents, context, transcript, MCP servers, ...). `createSession` builds them in
 * order; the loop sees only the tools and extensions, the front ends only the commands.
 * A new feature is a new setup that returns one of these, never a branch in the loop.
 */
export interface Capability {
  name: string;
  /** Tools of the top-level agent, in the order the model sees them. */
  tools?: readonly Tool[];
  /**
   * Tools that become available later (e.g. servers still starting). The session adds them to
   * the registry when the promise resolves; a rejection is logged as a warning.
   */
  lateTools?: Promise<readonly Tool[]>;
  /** Loop extensions, in order (the session keeps capability order). */
  extensions?: readonly LoopExtension[];
  promptFilters?: readonly PromptFilter[];
  commands?: readonly SlashCommand[];
  /** Sections of the system prompt, in order; empty ones are left out. */
  promptSections?: readonly string[];
  /** Sees every event of every run, before the front end (transcript usage lines, ...). */
  observers?: readonly EventSink[];
  /** Problems found while setting up; the session logs them once. */
  diagnostics?: readonly Diagnostic[];
  /** Problems as plain sentences (settings not yet reported as Diagnostics). */
  warnings?: readonly string[];
  /** Stops what the capability holds (processes, watchers, servers). Called once, in reverse order. */
  close?(): Promise<void> | void;
}

/**
 * What every setup may use: the session's fixed parts, built before any capability. `S`: the
 * settings keys a setup reads, e.g. `SessionBasics<{ skills?: SkillSettings }>` (the session
 * holds them all, src/settings/).
 */
export interface SessionBasics<S extends SettingsObject = SettingsObject> {
  cwd: string;
  workspace: Workspace;
  settings: S;
  /** The session's model (switchable between prompts, see SwitchableModel). */
  model: ModelProvider;
  conversation: Conversation;
  verbose: boolean;
  /** Writes one line for the user (stderr in the CLI). */
  log: (line: string) => void;
}
