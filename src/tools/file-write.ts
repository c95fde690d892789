import { realpathSync, type Stats, statSync } from "node:fs";
import path from "node:path";
import { ToolError } from "../core/tool.js";
import { WriteRefused, writeFileAtomic } from "../fs/atomic-write.js";
import type { FileEditor, Workspace } from "./workspace.js";

/**
 * Writes a file for a tool: atomically (temp file, flush, rename; mode kept), and only where
 * the workspace allows once the file is really open. A refusal is a ToolError saying why and
 * that the original was left as it was.
 */
export async function writeForTool(
  workspace: Workspace,
  file: string,
  shown: string,
  data: string | Uint8Array,
  /** For edits: the file as it was read; a change since then refuses the write. */
  unchangedSince?: Stats,
): Promise<{ created: boolean }> {
  if (workspace.editor) return writeInEditor(workspace, workspace.editor, file, shown, data);
  try {
    return await writeFileAtomic(file, data, {
      allowed: (real) => workspace.isWritable(real),
      unchangedSince,
    });
  } catch (error) {
    if (!(error instanceof WriteRefused)) throw error;
    if (error.code === "EISDIR") throw new ToolError(`${shown} is a directory; give a file path.`);
    throw new ToolError(`could not write ${shown}: ${error.message}. Nothing was changed on disk.`);
  }
}

/**
 * The editor writes the file (its buffer, then its save): checked first as the disk write
 * would be — the real path inside the workspace, not a directory.
 */
async function writeInEditor(
  workspace: Workspace,
  editor: FileEditor,
  file: string,
  shown: string,
  data: string | Uint8Array,
): Promise<{ created: boolean }> {
  let existing: Stats | undefined;
  try {
    existing = statSync(file);
  } catch {
    existing = undefined;
  }
  if (existing?.isDirectory()) throw new ToolError(`${shown} is a directory; give a file path.`);
  const real = existing ? realpathSync(file) : realPathOfNew(file);
  if (!workspace.isWritable(real)) {
    throw new ToolError(`could not write ${shown}: it resolves outside the workspace. Nothing was changed.`);
  }
  const text = typeof data === "string" ? data : new TextDecoder("utf-8", { ignoreBOM: true }).decode(data);
  try {
    await editor.writeTextFile(real, text);
  } catch (error) {
    throw new ToolError(
      `the editor could not write ${shown}: ${error instanceof Error ? error.message : String(error)}. Nothing was changed.`,
    );
  }
  return { created: !existing };
}

/** A file that does not exist yet, under the real path of its nearest existing folder. */
function realPathOfNew(file: string): string {
  let dir = path.dirname(file);
  const rest = [path.basename(file)];
  while (true) {
    try {
      return path.join(realpathSync(dir), ...rest);
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return file;
      rest.unshift(path.basename(dir));
      dir = parent;
    }
  }
}
