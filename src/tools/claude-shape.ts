import path from "node:path";
import type { ToolOutput } from "../core/tool.js";
import type { Workspace } from "./workspace.js";

/*
 * Small helpers for the `claude` field of the file tools (see Tool.claude): Claude Code's
 * hooks read absolute paths in `file_path` / `path`, and write them back in `updatedInput`.
 */

/** `p` as an absolute path (relative ones are relative to the workspace root). */
export function absolutePath(workspace: Workspace, p: string): string {
  return path.resolve(workspace.root, p);
}

/** `{ key: value }` only when the value is defined, so a payload has no `"x": undefined`. */
export function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** A string field of a hook's `updatedInput`, or undefined. */
export function text(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  return typeof value === "string" ? value : undefined;
}

/** Whether the call succeeded, as Claude Code's write and edit responses say it. */
export function succeeded(output: ToolOutput): boolean {
  return output.isError !== true;
}
