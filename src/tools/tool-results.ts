import path from "node:path";

/*
 * Where tool outputs too long for the conversation are saved (`.hx/tool-results/`): bash
 * writes its own there, and the spill extension (src/context/spill.ts) any other tool's.
 */

/** Outputs longer than this many characters are saved to a file (and the model sees a preview). */
export const DEFAULT_SPILL_LIMIT_CHARS = 30_000;
const TOOL_RESULTS_DIR = path.join(".hx", "tool-results");

/**
 * Where a saved tool output named `name` (a call id, maybe with a prefix) goes: its absolute
 * path and the path relative to the workspace, with `/`, that the model can pass to read_file.
 */
export function toolResultFile(
  workspaceRoot: string,
  name: string,
): { absolute: string; relativePath: string } {
  const relative = path.join(TOOL_RESULTS_DIR, `${safeFileName(name)}.txt`);
  return { absolute: path.join(workspaceRoot, relative), relativePath: relative.split(path.sep).join("/") };
}

/** Call ids come from the model's provider; keep them to characters every filesystem accepts. */
function safeFileName(id: string): string {
  const cleaned = id.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_");
  return (cleaned || "call").slice(0, 120);
}
