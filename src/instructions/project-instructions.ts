import path from "node:path";
import { INSTRUCTION_FILES } from "../config/agent-files.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { foldersFromRootTo } from "../fs/project-root.js";
import { readSmallFileSync } from "../fs/regular-file.js";

/** Most characters of instructions put in the system prompt. */
export const MAX_INSTRUCTION_CHARS = 20_000;
/** A larger instructions file is not read at all. */
const MAX_INSTRUCTION_FILE_BYTES = 256 * 1024;

export interface ProjectInstructions {
  /** The system prompt section ("" when no file was found). */
  section: string;
  files: string[];
  truncated: boolean;
  /** Files skipped: a link out of their folder, not a regular file, too large, unreadable. */
  diagnostics: Diagnostic[];
}

/**
 * The project's standing instructions — `AGENTS.md` (or `CLAUDE.md` where there is none) in each
 * folder from the repository root down to the working folder — for the system prompt. They
 * apply to every task, so unlike skills they are always present; a cap keeps them cheap.
 */
export function loadProjectInstructions(cwd: string, maxChars = MAX_INSTRUCTION_CHARS): ProjectInstructions {
  const parts: string[] = [];
  const files: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const folder of foldersFromRootTo(cwd)) {
    for (const name of INSTRUCTION_FILES) {
      const file = path.join(folder, name);
      // Only a regular file whose real path stays in its folder: `AGENTS.md -> ~/.aws/credentials`
      // must not reach the first request.
      const read = readSmallFileSync(file, MAX_INSTRUCTION_FILE_BYTES, { inside: folder });
      if (!read.ok) {
        if (read.reason !== "missing") {
          diagnostics.push({
            level: "warning",
            code: `instructions.${read.reason}`,
            file,
            message: `${read.message}; skipped.`,
          });
        }
        continue;
      }
      const text = read.text;
      files.push(file);
      if (text.trim()) parts.push(`## ${path.relative(cwd, file) || name}\n${text.trim()}`);
      break;
    }
  }
  if (parts.length === 0) return { section: "", files, truncated: false, diagnostics };
  let body = parts.join("\n\n");
  const truncated = body.length > maxChars;
  if (truncated) {
    body = `${body.slice(0, maxChars)}\n[… instructions cut at ${maxChars} characters; read the files for the rest]`;
  }
  return { section: `# Project instructions\n${body}`, files, truncated, diagnostics };
}
