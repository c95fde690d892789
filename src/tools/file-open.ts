import type { Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { ToolError } from "../core/tool.js";
import { fileKind, NotARegularFile, openRegularFile } from "../fs/regular-file.js";

/**
 * Opens a file a tool was asked to read: a regular file only (a FIFO, socket or device is
 * refused before it is opened, so it cannot hang the call); every other failure becomes a
 * ToolError with the way forward the calling tool gives.
 */
export async function openForTool(
  file: string,
  shown: string,
  hints: { missing: string; directory: string },
): Promise<{ handle: FileHandle; stats: Stats }> {
  try {
    return await openRegularFile(file);
  } catch (error) {
    if (error instanceof NotARegularFile) {
      if (error.stats.isDirectory())
        throw new ToolError(`${shown} is a directory, not a file. ${hints.directory}`);
      throw new ToolError(
        `${shown} is ${fileKind(error.stats)}, not a regular file; file tools only open regular files, so it was not touched.`,
      );
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new ToolError(`file not found: ${shown}. ${hints.missing}`);
    if (code === "EACCES" || code === "EPERM")
      throw new ToolError(`permission denied reading ${shown} (${code}).`);
    throw error;
  }
}
