import { readFileSync } from "node:fs";
import path from "node:path";
import { foldersFromRootTo } from "../config/project-root.js";

/** Instruction files, in order of preference per folder: the first one found in a folder is used. */
const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"] as const;
/** Most characters of instructions put in the system prompt. */
export const MAX_INSTRUCTION_CHARS = 20_000;

export interface ProjectInstructions {
  /** The system prompt section ("" when no file was found). */
  section: string;
  files: string[];
  truncated: boolean;
}

/**
 * The project's standing instructions — `AGENTS.md` (or `CLAUDE.md` where there is none) in each
 * folder from the repository root down to the working folder — for the system prompt. They
 * apply to every task, so unlike skills they are always present; a cap keeps them cheap.
 */
export function loadProjectInstructions(cwd: string, maxChars = MAX_INSTRUCTION_CHARS): ProjectInstructions {
  const parts: string[] = [];
  const files: string[] = [];
  for (const folder of foldersFromRootTo(cwd)) {
    for (const name of INSTRUCTION_FILES) {
      const file = path.join(folder, name);
      const text = readIfFile(file);
      if (text === undefined) continue;
      files.push(file);
      if (text.trim()) parts.push(`## ${path.relative(cwd, file) || name}\n${text.trim()}`);
      break;
    }
  }
  if (parts.length === 0) return { section: "", files, truncated: false };
  let body = parts.join("\n\n");
  const truncated = body.length > maxChars;
  if (truncated) {
    body = `${body.slice(0, maxChars)}\n[… instructions cut at ${maxChars} characters; read the files for the rest]`;
  }
  return { section: `# Project instructions\n${body}`, files, truncated };
}

function readIfFile(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
