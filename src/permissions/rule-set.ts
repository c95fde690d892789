import path from "node:path";
import picomatch from "picomatch";
import type { ViewWord } from "./command-line.js";
import {
  type CommandPattern,
  compileCommandPattern,
  type MatchOptions,
  splitPatternWords,
} from "./command-pattern.js";
import type { PermissionRule } from "./rules.js";

/**
 * One list of rules (allow, ask or deny), indexed so that a call costs about the same with
 * ten rules or a hundred thousand: rules sit in a trie keyed by the literal words their
 * pattern starts with (`git`, `push` for `bash(git push *)`), or by the literal folders a
 * path pattern starts with (`src` for `write_file(src/**)`); a call only tries the rules on
 * its own path through the trie. Patterns are compiled on first use.
 */
export class RuleSet {
  private readonly byTool = new Map<string, PermissionRule[]>();
  private readonly bareRules = new Map<string, PermissionRule>();
  /** Bare rules ending in `*`, by the name before it. */
  private readonly prefixRules = new Map<string, PermissionRule>();
  private readonly commandTries = new Map<string, Trie<CompiledCommand>>();
  private readonly pathTries = new Map<string, Trie<CompiledPath>>();
  private readonly exactLines = new Map<string, Map<string, Ordered>>();

  constructor(rules: readonly PermissionRule[] = []) {
    for (const rule of rules) this.add(rule);
  }

  add(rule: PermissionRule): void {
    const tool = rule.tool.toLowerCase();
    const list = this.byTool.get(tool) ?? [];
    list.push(rule);
    this.byTool.set(tool, list);
    if (rule.pattern === undefined) {
      const bare = tool.endsWith("*") ? this.prefixRules : this.bareRules;
      const key = tool.endsWith("*") ? tool.slice(0, -1) : tool;
      if (!bare.has(key)) bare.set(key, rule);
    }
    // Indexes built so far take the new rule too.
    const order = list.length - 1;
    this.commandTries.get(tool)?.insert(commandEntry(rule, order));
    this.pathTries.get(tool)?.insert(pathEntry(rule, order));
    if (rule.pattern && !rule.pattern.includes("*"))
      this.exactLines.get(tool)?.set(normalizeSpaces(rule.pattern), { rule, order });
  }

  /**
   * A bare rule for the tool: it covers every call. A name also covers the tools it is a `__`
   * namespace of (`mcp__github` covers `mcp__github__create_issue`), and a name ending in `*`
   * the tools starting with the rest (`mcp__github__*`).
   */
  bare(tool: string): PermissionRule | undefined {
    const name = tool.toLowerCase();
    const exact = this.bareRules.get(name);
    if (exact) return exact;
    for (let end = name.lastIndexOf("__"); end > 0; end = name.lastIndexOf("__", end - 1)) {
      const namespace = this.bareRules.get(name.slice(0, end));
      if (namespace) return namespace;
    }
    for (const [prefix, rule] of this.prefixRules) if (name.startsWith(prefix)) return rule;
    return undefined;
  }

  has(tool: string): boolean {
    return (this.byTool.get(tool.toLowerCase())?.length ?? 0) > 0;
  }

  /** The first rule of `tool` (in settings order) whose command pattern matches one command's words. */
  matchCommand(tool: string, words: readonly ViewWord[], options: MatchOptions): PermissionRule | undefined {
    const bare = this.bare(tool);
    if (bare) return bare;
    const trie = this.commandTrie(tool);
    if (!trie) return undefined;
    const keys = words.map((word, i) =>
      word.literal ? (i === 0 && options.basename ? path.basename(word.text) : word.text) : undefined,
    );
    return firstMatch(trie.candidates(keys, options.dynamicMatches), (entry) =>
      matchesCommand(entry, words, options),
    );
  }

  /** A rule without `*` naming this whole command line exactly (as "always" answers used to save them). */
  matchExactLine(tool: string, line: string): PermissionRule | undefined {
    let exact = this.exactLines.get(tool.toLowerCase());
    if (!exact) {
      exact = new Map();
      for (const [order, rule] of (this.byTool.get(tool.toLowerCase()) ?? []).entries()) {
        if (rule.pattern && !rule.pattern.includes("*"))
          exact.set(normalizeSpaces(rule.pattern), { rule, order });
      }
      this.exactLines.set(tool.toLowerCase(), exact);
    }
    return exact.get(normalizeSpaces(line))?.rule;
  }

  /** The first rule of `tool` whose glob matches a path or name (paths relative to `root` when inside it). */
  matchPath(tool: string, subject: string, root?: string): PermissionRule | undefined {
    return this.bare(tool) ?? this.matchPathPattern(tool, subject, root);
  }

  /** Like matchPath, but only rules with a path pattern (a bare rule is about the tool itself). */
  matchPathPattern(tool: string, subject: string, root?: string): PermissionRule | undefined {
    const trie = this.pathTrie(tool);
    if (!trie) return undefined;
    const normalized = normalizePath(subject, root);
    return firstMatch(trie.candidates(normalized.split("/"), false), (entry) =>
      matchesPath(entry, normalized),
    );
  }

  private commandTrie(tool: string): Trie<CompiledCommand> | undefined {
    return this.trieOf(tool, this.commandTries, commandEntry);
  }

  private pathTrie(tool: string): Trie<CompiledPath> | undefined {
    return this.trieOf(tool, this.pathTries, pathEntry);
  }

  /** A tool's rules indexed on first use (most sessions never ask about most tools). */
  private trieOf<T>(
    tool: string,
    tries: Map<string, Trie<T>>,
    entry: (rule: PermissionRule, order: number) => [string[], T] | [],
  ): Trie<T> | undefined {
    const key = tool.toLowerCase();
    const rules = this.byTool.get(key);
    if (!rules) return undefined;
    let trie = tries.get(key);
    if (!trie) {
      trie = new Trie();
      for (const [order, rule] of rules.entries()) trie.insert(entry(rule, order));
      tries.set(key, trie);
    }
    return trie;
  }
}

interface Ordered {
  rule: PermissionRule;
  /** Position in settings: the first matching rule is reported. */
  order: number;
}

interface CompiledCommand extends Ordered {
  /** Compiled on first use. */
  pattern?: CommandPattern;
}

interface CompiledPath extends Ordered {
  /** Compiled on first use. */
  matcher?: (subject: string) => boolean;
}

function commandEntry(rule: PermissionRule, order: number): [string[], CompiledCommand] | [] {
  if (rule.pattern === undefined) return [];
  return [literalPrefixWords(rule.pattern), { rule, order }];
}

function matchesCommand(entry: CompiledCommand, words: readonly ViewWord[], options: MatchOptions): boolean {
  entry.pattern ??= compileCommandPattern(entry.rule.pattern ?? "");
  return entry.pattern.matches(words, options);
}

function matchesPath(entry: CompiledPath, subject: string): boolean {
  entry.matcher ??= picomatch(stripDotSlash(entry.rule.pattern ?? ""), { dot: true });
  return entry.matcher(subject);
}

/** The words a command pattern starts with that are plain text (the first one by its basename). */
function literalPrefixWords(pattern: string): string[] {
  const words = splitPatternWords(pattern.trim().replace(/:\*$/, ""));
  const prefix: string[] = [];
  for (const [i, word] of words.entries()) {
    if (word.includes("*")) {
      // `npm test*`: the glued trailing star is a word boundary, so `test` is still a key.
      if (i === words.length - 1 && /[A-Za-z0-9_]\*$/.test(word) && !word.slice(0, -1).includes("*")) {
        prefix.push(word.slice(0, -1));
      }
      break;
    }
    prefix.push(i === 0 ? path.basename(word) : word);
  }
  return prefix;
}

function pathEntry(rule: PermissionRule, order: number): [string[], CompiledPath] | [] {
  if (rule.pattern === undefined) return [];
  const segments: string[] = [];
  for (const segment of stripDotSlash(rule.pattern).split("/").slice(0, -1)) {
    if (/[*?[\]{}()!+@]/.test(segment)) break;
    segments.push(segment);
  }
  return [segments, { rule, order }];
}

/** Picks the candidate that comes first in settings among those that match. */
function firstMatch<T extends Ordered>(
  candidates: T[],
  test: (entry: T) => boolean,
): PermissionRule | undefined {
  let best: T | undefined;
  for (const entry of candidates) {
    if (best && entry.order >= best.order) continue;
    if (test(entry)) best = entry;
  }
  return best?.rule;
}

/** Entries keyed by a path of words; nodes make their lists on first use (long rule lists stay small). */
class Trie<T> {
  private entries?: T[];
  private children?: Map<string, Trie<T>>;

  insert(item: [readonly string[], T] | []): void {
    if (item.length === 0) return;
    const [keys, entry] = item;
    let node: Trie<T> = this;
    for (const key of keys) {
      node.children ??= new Map();
      let child = node.children.get(key);
      if (!child) {
        child = new Trie();
        node.children.set(key, child);
      }
      node = child;
    }
    node.entries ??= [];
    node.entries.push(entry);
  }

  /**
   * Entries whose key path is a prefix of `keys`. An undefined key (a word computed at run
   * time) may be any word: with `wildcards`, everything below that point is a candidate.
   */
  candidates(keys: readonly (string | undefined)[], wildcards: boolean): T[] {
    const out: T[] = [];
    let node: Trie<T> | undefined = this;
    for (const key of keys) {
      if (node.entries) out.push(...node.entries);
      if (key === undefined) {
        if (wildcards) for (const child of node.children?.values() ?? []) child.collect(out);
        return out;
      }
      node = node.children?.get(key);
      if (!node) return out;
    }
    if (node.entries) out.push(...node.entries);
    return out;
  }

  private collect(out: T[]): void {
    if (this.entries) out.push(...this.entries);
    for (const child of this.children?.values() ?? []) child.collect(out);
  }
}

/** Paths are matched relative to the root when inside it (`./src/a.ts`, `/repo/src/a.ts` → `src/a.ts`). */
export function normalizePath(subject: string, root: string | undefined): string {
  let value = subject;
  if (root && path.isAbsolute(value)) {
    const relative = path.relative(root, value);
    if (relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)) value = relative;
  }
  return stripDotSlash(value.split(path.sep).join("/"));
}

function stripDotSlash(value: string): string {
  return value.replace(/^(\.\/)+/, "");
}

function normalizeSpaces(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}
