import path from "node:path";
import { splitArguments } from "../skills/index.js";
import type { ViewWord } from "./command-line.js";

/**
 * A command pattern from a rule such as `bash(git push --force*)`, matched word by word
 * against one command (never against the raw text of a line):
 *
 * - words are separated by spaces; quotes in the pattern group a word (`git commit -m "wip it"`);
 * - a word `*` on its own stands for any number of words, none included;
 * - a `*` at the very end, glued to a word that ends in a letter or digit (`npm test*`), or
 *   Claude Code's `:*` (`npm test:*`), means "these words, then anything": it matches at a word
 *   boundary, so `npm test*` covers `npm test` and `npm test --watch` but not `npm testx`;
 * - any other `*` inside a word matches characters within that word (`git log --format=*`,
 *   `rm -rf /tmp/*`, `npm test* *` for `npm testx`).
 */
export interface CommandPattern {
  /** The first word when it is literal: rules are indexed by it. */
  firstWord?: string;
  /** Matches a command's words; `dynamicMatches`: a word computed at run time may stand for any words. */
  matches(words: readonly ViewWord[], options: MatchOptions): boolean;
}

export interface MatchOptions {
  /** Compare the command name by its basename (`/usr/bin/curl` is `curl`): deny and ask rules. */
  basename: boolean;
  /** A word computed at run time matches any pattern word (deny and ask rules: fail closed). */
  dynamicMatches: boolean;
}

type PatternWord = { any: true } | { any: false; literal?: string; regex?: RegExp };

export function compileCommandPattern(pattern: string): CommandPattern {
  let text = pattern.trim();
  let prefix = false;
  if (text.endsWith(":*")) {
    prefix = true;
    text = text.slice(0, -2);
  }
  const tokens = splitPatternWords(text);
  const last = tokens.at(-1);
  if (!prefix && last !== undefined) {
    if (last === "*") {
      prefix = true;
      tokens.pop();
    } else if (/[A-Za-z0-9_]\*$/.test(last) && !last.slice(0, -1).includes("*")) {
      prefix = true;
      tokens[tokens.length - 1] = last.slice(0, -1);
    }
  }
  const words: PatternWord[] = tokens.map((token) =>
    token === "*"
      ? { any: true }
      : token.includes("*")
        ? { any: false, regex: new RegExp(`^${token.split("*").map(escapeRegExp).join("[\\s\\S]*")}$`) }
        : { any: false, literal: token },
  );
  const first = words[0];
  const firstWord = first && !first.any && first.literal !== undefined ? first.literal : undefined;
  return {
    firstWord,
    matches: (subject, options) => matchWords(words, prefix, subject, options),
  };
}

/** Splits a pattern into words: quotes group a word, a backslash escapes one character. */
export function splitPatternWords(text: string): string[] {
  return splitArguments(text);
}

function matchWords(
  pattern: readonly PatternWord[],
  prefix: boolean,
  subject: readonly ViewWord[],
  options: MatchOptions,
): boolean {
  const memo = new Map<number, boolean>();
  const width = subject.length + 1;
  const at = (p: number, s: number): boolean => {
    const key = p * width + s;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const result = step(p, s);
    memo.set(key, result);
    return result;
  };
  const step = (p: number, s: number): boolean => {
    const word = subject[s];
    const vanishes = word !== undefined && options.dynamicMatches && !word.literal && word.splits;
    if (p === pattern.length) return s === subject.length || prefix || (vanishes && at(p, s + 1));
    const want = pattern[p];
    if (want.any) return at(p + 1, s) || (s < subject.length && at(p, s + 1));
    if (word === undefined) return false;
    if (!word.literal) {
      if (!options.dynamicMatches) return false;
      return at(p + 1, s + 1) || (word.splits && (at(p, s + 1) || at(p + 1, s)));
    }
    const text = s === 0 && options.basename ? path.basename(word.text) : word.text;
    const expected =
      p === 0 && options.basename && want.literal !== undefined ? path.basename(want.literal) : want.literal;
    const ok = expected !== undefined ? text === expected : (want.regex?.test(text) ?? false);
    return ok && at(p + 1, s + 1);
  };
  return at(0, 0);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
