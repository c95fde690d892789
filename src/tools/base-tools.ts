import { type BashToolOptions, createBashTool } from "./bash.js";
import { editFileTool } from "./edit-file.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { readFileTool } from "./read-file.js";
import type { Tool } from "./tool.js";
import { writeFileTool } from "./write-file.js";

/** The built-in tools, in the order the model sees them. `bash` runs commands as its options say. */
export function createBaseTools(options: { bash?: BashToolOptions } = {}): Tool[] {
  return [createBashTool(options.bash), readFileTool, writeFileTool, editFileTool, globTool, grepTool];
}
