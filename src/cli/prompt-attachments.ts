import { readFileSync, statSync } from "node:fs";
import { errorMessage } from "../core/error-message.js";
import type { Workspace } from "../tools/workspace.js";

/** A file larger than this is not attached (the model can still read it with its tools). */
const MAX_ATTACHED_FILE_BYTES = 256 * 1024;

export interface AttachedPrompt {
  /** The prompt with each attached file's content added after it. */
  prompt: string;
  /** Paths attached, relative to the workspace root. */
  attached: string[];
  /** Why a `@path` was not attached, one line each. */
  problems: string[];
}

/**
 * `@path` in a prompt attaches that file: its content goes after the prompt in an
 * `<attached-file path="...">` block (the `@path` itself stays in the text). Paths are resolved
 * like the file tools resolve them (inside the workspace, symlinks followed); a folder, a file
 * outside it or a file over the size cap is reported and left out.
 */
export function attachFiles(text: string, workspace: Workspace): AttachedPrompt {
  const attached: string[] = [];
  const problems: string[] = [];
  const blocks: string[] = [];
  for (const match of text.matchAll(/(?:^|\s)@("[^"]+"|[^\s"]+)/g)) {
    const input = (match[1] ?? "").replace(/^"|"$/g, "").replace(/[,.;:!?)]+$/, "");
    if (!input) continue;
    try {
      const file = workspace.resolveForRead(input);
      const shown = workspace.relative(file);
      if (attached.includes(shown)) continue;
      const stat = statSync(file);
      if (!stat.isFile()) {
        problems.push(`@${input}: not a regular file, not attached`);
        continue;
      }
      if (stat.size > MAX_ATTACHED_FILE_BYTES) {
        problems.push(
          `@${input}: ${stat.size} bytes is over the ${MAX_ATTACHED_FILE_BYTES}-byte cap, not attached`,
        );
        continue;
      }
      blocks.push(`<attached-file path="${shown}">\n${readFileSync(file, "utf8")}\n</attached-file>`);
      attached.push(shown);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problems.push(`@${input}: ${code === "ENOENT" ? "no such file" : errorMessage(error)}, not attached`);
    }
  }
  return { prompt: blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text, attached, problems };
}
