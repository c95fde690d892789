import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { userSettingsDir } from "../../config/settings.js";

/** Prompts kept per project. */
const MAX_ENTRIES = 1000;

/**
 * The prompts typed in one project, oldest first, kept in `~/.hx/history/<project>.jsonl`
 * (one JSON string per line) so the next session can recall them with Up and Ctrl-R.
 * Only what was submitted at the prompt is kept: permission answers never pass through here.
 */
export class PromptHistory {
  private constructor(
    private readonly file: string,
    readonly entries: string[],
  ) {}

  static open(projectRoot: string, dir = path.join(userSettingsDir(), "history")): PromptHistory {
    const key = createHash("sha256").update(projectRoot).digest("hex").slice(0, 16);
    const file = path.join(dir, `${key}.jsonl`);
    return new PromptHistory(file, readEntries(file));
  }

  add(text: string): void {
    if (!text.trim() || this.entries.at(-1) === text) return;
    this.entries.push(text);
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      if (this.entries.length > MAX_ENTRIES * 1.5) {
        this.entries.splice(0, this.entries.length - MAX_ENTRIES);
        writeFileSync(this.file, this.entries.map((e) => `${JSON.stringify(e)}\n`).join(""));
      } else {
        appendFileSync(this.file, `${JSON.stringify(text)}\n`);
      }
    } catch {
      // History is a convenience: a read-only home must not break the session.
    }
  }

  /** The newest entry before index `before` containing `query` (case-insensitive), with its index. */
  search(query: string, before = this.entries.length): { index: number; text: string } | undefined {
    const needle = query.toLowerCase();
    for (let i = Math.min(before, this.entries.length) - 1; i >= 0; i--) {
      const text = this.entries[i] ?? "";
      if (text.toLowerCase().includes(needle)) return { index: i, text };
    }
    return undefined;
  }
}

function readEntries(file: string): string[] {
  let raw: string;
  try {
    raw = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const entries: string[] = [];
  for (const line of raw.split("\n")) {
    if (!line) continue;
    try {
      const value = JSON.parse(line);
      if (typeof value === "string") entries.push(value);
    } catch {
      // a cut or foreign line: skip it
    }
  }
  return entries.slice(-MAX_ENTRIES);
}
