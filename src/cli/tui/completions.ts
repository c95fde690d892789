import { readdirSync } from "node:fs";
import path from "node:path";
import {
  type AutocompleteItem,
  type AutocompleteProvider,
  type AutocompleteSuggestions,
  CombinedAutocompleteProvider,
  type SlashCommand as CompletionCommand,
} from "@mariozechner/pi-tui/dist/autocomplete.js";
import { fuzzyFilter } from "@mariozechner/pi-tui/dist/fuzzy.js";

const MAX_FILE_ITEMS = 50;

/**
 * Tab completion: `/` commands and skill names at the start of the prompt, `@path` attachments
 * and plain paths anywhere (folders first, dotfiles only when asked for). Commands come from
 * `commands()` each time, so skills and commands added later show up.
 */
export class PromptCompletions implements AutocompleteProvider {
  constructor(
    private readonly root: string,
    private readonly commands: () => CompletionCommand[],
  ) {}

  private inner(): CombinedAutocompleteProvider {
    return new CombinedAutocompleteProvider(this.commands(), this.root, null);
  }

  async getSuggestions(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    options: { signal: AbortSignal; force?: boolean },
  ): Promise<AutocompleteSuggestions | null> {
    const before = (lines[cursorLine] ?? "").slice(0, cursorCol);
    const at = /(?:^|\s)(@[^\s]*)$/.exec(before);
    if (at?.[1]) {
      const items = this.files(at[1].slice(1)).map((file) => ({ value: `@${file}`, label: file }));
      return items.length ? { items, prefix: at[1] } : null;
    }
    return this.inner().getSuggestions(lines, cursorLine, cursorCol, options);
  }

  /**
   * Applies `item`, unless the list it came from is stale: the editor fetches suggestions
   * asynchronously, so a key right after typing (`/rel` + Tab) can meet the list of the text
   * before (`/re` → `/resume`). Then the completion is computed afresh from the text as it is
   * now (commands and `@paths` are known at once), or nothing happens (the new list follows).
   */
  applyCompletion(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    item: AutocompleteItem,
    prefix: string,
  ): { lines: string[]; cursorLine: number; cursorCol: number } {
    const before = (lines[cursorLine] ?? "").slice(0, cursorCol);
    const fresh = prefix.startsWith("/") ? before === prefix : before.endsWith(prefix);
    if (!fresh) {
      const current = this.freshItem(before);
      if (!current) return { lines, cursorLine, cursorCol };
      return this.applyFresh(lines, cursorLine, cursorCol, current.item, current.prefix);
    }
    return this.applyFresh(lines, cursorLine, cursorCol, item, prefix);
  }

  /**
   * The prompt completed at once when it is `/name-start` and one command alone starts so: Tab
   * pressed right after typing can come before the editor's list does (its suggestions arrive
   * asynchronously), and would only open the list then.
   */
  completeAlone(text: string): string | undefined {
    if (!/^\/[^\s/]*$/.test(text)) return undefined;
    const matches = this.commands().filter((command) => command.name.startsWith(text.slice(1)));
    return matches.length === 1 && matches[0] ? `/${matches[0].name} ` : undefined;
  }

  /** The best completion of the text before the cursor, computed now (commands, `@paths`). */
  private freshItem(before: string): { item: AutocompleteItem; prefix: string } | undefined {
    const at = /(?:^|\s)(@[^\s]*)$/.exec(before);
    if (at?.[1]) {
      const file = this.files(at[1].slice(1))[0];
      return file ? { item: { value: `@${file}`, label: file }, prefix: at[1] } : undefined;
    }
    if (/^\/\S*$/.test(before)) {
      const best = fuzzyFilter(this.commands(), before.slice(1), (c) => c.name)[0];
      return best ? { item: { value: best.name, label: best.name }, prefix: before } : undefined;
    }
    return undefined;
  }

  private applyFresh(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    item: AutocompleteItem,
    prefix: string,
  ): { lines: string[]; cursorLine: number; cursorCol: number } {
    if (!prefix.startsWith("@"))
      return this.inner().applyCompletion(lines, cursorLine, cursorCol, item, prefix);
    const line = lines[cursorLine] ?? "";
    const start = cursorCol - prefix.length;
    // A folder keeps completing; a file ends the token.
    const insert = item.value.endsWith("/") ? item.value : `${item.value} `;
    const next = [...lines];
    next[cursorLine] = line.slice(0, start) + insert + line.slice(cursorCol);
    return { lines: next, cursorLine, cursorCol: start + insert.length };
  }

  shouldTriggerFileCompletion(lines: string[], cursorLine: number, cursorCol: number): boolean {
    const before = (lines[cursorLine] ?? "").slice(0, cursorCol);
    if (/(?:^|\s)@[^\s]*$/.test(before)) return true;
    return this.inner().shouldTriggerFileCompletion(lines, cursorLine, cursorCol);
  }

  /** Entries of the folder named by `partial`'s head whose names start with its tail. */
  private files(partial: string): string[] {
    const slash = partial.lastIndexOf("/");
    const dir = slash >= 0 ? partial.slice(0, slash + 1) : "";
    const stem = (slash >= 0 ? partial.slice(slash + 1) : partial).toLowerCase();
    const folder = path.resolve(this.root, dir || ".");
    if (!folder.startsWith(this.root)) return [];
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return [];
    }
    return entries
      .filter(
        (e) => e.name.toLowerCase().startsWith(stem) && (stem.startsWith(".") || !e.name.startsWith(".")),
      )
      .filter((e) => e.name !== "node_modules" || stem.startsWith("node"))
      .sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name))
      .slice(0, MAX_FILE_ITEMS)
      .map((e) => `${dir}${e.name}${e.isDirectory() ? "/" : ""}`);
  }
}
