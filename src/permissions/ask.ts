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
  /** Aborted when the run is cancelled; an asker should then stop waiting and answer "no". */
  signal: AbortSignal;
}

export type PermissionAnswer = "yes" | "no" | "always";

/**
 * Asks the user. Only given when someone can answer (a terminal); without one, calls that
 * would be asked are denied at once.
 */
export type PermissionAsker = (request: PermissionRequest) => Promise<PermissionAnswer>;

/** The terminal question: `Allow bash(git status)? [y]es / [n]o / [a]lways `. */
export function formatPermissionQuestion(request: Pick<PermissionRequest, "rule">): string {
  return `Allow ${request.rule}? [y]es / [n]o / [a]lways `;
}

/** Reads an answer: y/yes, a/always; anything else (an empty line included) is "no". */
export function parsePermissionAnswer(line: string | undefined): PermissionAnswer {
  const answer = (line ?? "").trim().toLowerCase();
  if (answer === "y" || answer === "yes") return "yes";
  if (answer === "a" || answer === "always") return "always";
  return "no";
}
