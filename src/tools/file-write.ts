import type { Stats } from "node:fs";
import { ToolError } from "../core/tool.js";
import { WriteRefused, writeFileAtomic } from "../fs/atomic-write.js";
import type { Workspace } from "./workspace.js";

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
