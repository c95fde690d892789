import type { ToolEffect } from "../core/tool.js";
import type { FileChange } from "../tools/file-change.js";

/** A question for the user about one tool call. */
export interface PermissionRequest {
  tool: string;
  effect: ToolEffect;
  subject?: string;
  /** The call written as a rule, e.g. `bash(git status)`, to show. */
  rule: string;
  /** What an "always" answer saves (exact rules); empty when "always" only allows this once. */
  alwaysRules?: string[];
  /** Why the call needs approval, e.g. "bash(git status) runs a command and no rule allows it". */
  reason: string;
  /** The file change the call would make (edits, writes), for a diff in the question. */
  preview?: FileChange;
  /**
   * The question, when it is not "Allow RULE?" (a re-run after the sandbox refused a call:
   * "Run bash(x) again outside the sandbox?"); front ends show it in its place.
   */
  question?: string;
  /** What "yes" and "always" mean, when it is not running the call once / saving `alwaysRules`. */
  labels?: { yes: string; always?: string };
  /** Aborted when the run is cancelled; an asker should then stop waiting and answer "no". */
  signal: AbortSignal;
}

/**
 * "always": run it and save `alwaysRules`; `{ instead }`: declined, and the text (what the model
 * should do instead) goes back to the model with the refusal.
 */
export type PermissionAnswer = "yes" | "no" | "always" | { instead: string };

/**
 * Asks the user. Only given when someone can answer (a terminal); without one, calls that
 * would be asked are denied at once.
 */
export type PermissionAsker = (request: PermissionRequest) => Promise<PermissionAnswer>;
