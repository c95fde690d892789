/**
 * Reads a command's arguments the way the program itself does (GNU getopt_long, git's
 * parse-options), against a table of the options known to be safe: short options clustered
 * (`-rn`, `-S1`), a value glued or in the next word (`-n5`, `-n 5`, `--lines=5`,
 * `--lines 5`), long options by any unique prefix (`--compress-prog` is `--compress-program`),
 * `--` ending the options. Anything the table does not know is refused, so a command is
 * read-only only when every word is accounted for.
 */

/**
 * An option table. Short options are a getopt string: `a` a flag, `a:` takes a value (glued
 * or the next word), `a::` an optional value (glued only). Long options are names with what
 * follows them: `name` a flag, `name=` a value (`--name=v` or `--name v`), `name?` an
 * optional value (`--name=v` only), `name=?` a value unless it is the last word (git's
 * `--merged`), `name=2` two values (jq's `--arg NAME VALUE`).
 */
export interface OptionTable {
  short?: string;
  long?: readonly string[];
  /** Options the program has that are not safe, with what they do (`"--output": "writes a file"`). */
  unsafe?: Readonly<Record<string, string>>;
  /** Long options match by unique prefix (GNU getopt, git); false: exact names only (ripgrep, jq). */
  abbreviations?: boolean;
  /** Long options with one dash and no clusters (`find -name`, `xxd -cols`). */
  singleDash?: boolean;
  /** `-NUM` is an option (`head -5`, `grep -3`, `git log -5`). */
  numeric?: boolean;
  /** Options only before the first operand (`printf`, git's own options before the subcommand). */
  optionsFirst?: boolean;
  /** Most operands the call may have: more means the command writes (`uniq IN OUT`). */
  maxOperands?: number;
  /** What an operand past `maxOperands` does (`"is the file uniq writes"`). */
  extraOperand?: string;
  /** Every operand must match, or the call is not read-only (`date +%s`: any other operand sets the clock). */
  operandPattern?: { pattern: RegExp; otherwise: string };
  /** Operands are allowed only with one of these options (`git branch --list PATTERN`). */
  operandsOnlyWith?: { options: readonly string[]; otherwise: string };
}

type Arity = 0 | 1 | 2 | "optional" | "unlessLast";

interface ParsedOption {
  /** The word as written (`--compress-prog=sh`, `-rn`). */
  word: string;
  /** The option it means: `--compress-program`, `-n`. */
  name: string;
  value?: string;
  /** The value is glued to a short option in the same word (`-f/etc/x`). */
  glued?: true;
}

export type ParseResult =
  | { ok: true; options: ParsedOption[]; operands: string[] }
  | { ok: false; word: string; reason: string };

interface CompiledTable {
  short: Map<string, Arity>;
  long: Map<string, Arity>;
  /** Safe and unsafe long names: the set prefixes are resolved in. */
  known: string[];
  table: OptionTable;
}

/** The table in maps (cheap: a table has at most a few hundred entries). */
function compile(table: OptionTable): CompiledTable {
  const short = new Map<string, Arity>();
  const spec = table.short ?? "";
  for (let i = 0; i < spec.length; i += 1) {
    const letter = spec[i];
    if (spec[i + 1] === ":" && spec[i + 2] === ":") {
      short.set(letter, "optional");
      i += 2;
    } else if (spec[i + 1] === ":") {
      short.set(letter, 1);
      i += 1;
    } else short.set(letter, 0);
  }
  const long = new Map<string, Arity>();
  for (const entry of table.long ?? []) {
    const match = /^(.*?)(=\?|=2|=|\?)?$/.exec(entry) as RegExpExecArray;
    const suffix = match[2];
    long.set(
      match[1],
      suffix === "="
        ? 1
        : suffix === "=2"
          ? 2
          : suffix === "?"
            ? "optional"
            : suffix === "=?"
              ? "unlessLast"
              : 0,
    );
  }
  const dashes = table.singleDash ? "-" : "--";
  const unsafeLong = Object.keys(table.unsafe ?? {})
    .filter((name) => name.startsWith(dashes) && (table.singleDash || name.length > 2))
    .map((name) => name.slice(dashes.length));
  return { short, long, known: [...new Set([...long.keys(), ...unsafeLong])], table };
}

/** The long option `typed` means (exact, else unique prefix), or why none. */
function resolveLong(
  table: OptionTable,
  typed: string,
  known: readonly string[] = compile(table).known,
): { name: string } | { ambiguous: string[] } | { unknown: true } {
  if (known.includes(typed)) return { name: typed };
  if (table.abbreviations === false || typed === "") return { unknown: true };
  const candidates = known.filter((name) => name.startsWith(typed));
  if (candidates.length === 1) return { name: candidates[0] };
  if (candidates.length > 1) return { ambiguous: candidates };
  return { unknown: true };
}

/** Parses `args` (the words after the command name) against `table`; `program` names it in reasons. */
export function parseOptions(table: OptionTable, args: readonly string[], program: string): ParseResult {
  const t = compile(table);
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  const dashes = table.singleDash ? "-" : "--";
  const fail = (word: string, reason: string): ParseResult => ({ ok: false, word, reason });
  const unknown = (word: string, shown: string) =>
    fail(word, `\`${shown}\` is not an option hx knows to be read-only for ${program}`);
  let optionsDone = false;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i];
    if (!optionsDone && word === "--") {
      optionsDone = true;
      continue;
    }
    if (
      optionsDone ||
      word === "-" ||
      !word.startsWith("-") ||
      (table.optionsFirst === true && operands.length > 0)
    ) {
      operands.push(word);
      if (table.optionsFirst) optionsDone = true;
      continue;
    }
    if (table.numeric && /^-\d+$/.test(word)) {
      options.push({ word, name: "-NUM", value: word.slice(1) });
      continue;
    }
    if (word.startsWith(dashes) && (table.singleDash || word.length > 2)) {
      const eq = word.indexOf("=");
      const typed = word.slice(dashes.length, eq === -1 ? undefined : eq);
      const glued = eq === -1 ? undefined : word.slice(eq + 1);
      const resolved = resolveLong(table, typed, t.known);
      if ("ambiguous" in resolved)
        return fail(
          word,
          `\`${word}\` is ambiguous for ${program} (${resolved.ambiguous.map((name) => dashes + name).join(", ")})`,
        );
      if ("unknown" in resolved) {
        if (table.singleDash && t.short.size > 0) {
          const shortResult = readShort(t, word, args, i, program);
          if ("fail" in shortResult) return shortResult.fail;
          options.push(...shortResult.options);
          i = shortResult.next;
          continue;
        }
        return unknown(word, eq === -1 ? word : word.slice(0, eq));
      }
      const name = dashes + resolved.name;
      const danger = table.unsafe?.[name];
      const abbreviated = resolved.name === typed ? "" : ` (${name})`;
      if (danger !== undefined || !t.long.has(resolved.name))
        return fail(word, `\`${word}\`${abbreviated} ${danger ?? "is not read-only"}`);
      const arity = t.long.get(resolved.name) as Arity;
      if (arity === 0) {
        if (glued !== undefined) return fail(word, `\`${word}\`: ${name} takes no value`);
        options.push({ word, name });
        continue;
      }
      if (arity === "optional") {
        options.push({ word, name, value: glued });
        continue;
      }
      if (glued !== undefined) {
        options.push({ word, name, value: glued });
        if (arity === 2) {
          if (i + 1 >= args.length) return fail(word, `\`${word}\` needs two values`);
          i += 1;
        }
        continue;
      }
      const needed = arity === 2 ? 2 : 1;
      if (i + needed >= args.length) {
        if (arity === "unlessLast" && i + 1 === args.length) {
          options.push({ word, name });
          continue;
        }
        return fail(word, `\`${word}\` needs a value`);
      }
      options.push({ word, name, value: args[i + 1] });
      i += needed;
      continue;
    }
    const shortResult = readShort(t, word, args, i, program);
    if ("fail" in shortResult) return shortResult.fail;
    options.push(...shortResult.options);
    i = shortResult.next;
  }
  return checkOperands(table, options, operands, program);
}

/** A cluster of short options (`-rn`, `-S1`, `-n 5`); `next` is the index of the last word used. */
function readShort(
  t: CompiledTable,
  word: string,
  args: readonly string[],
  i: number,
  program: string,
): { options: ParsedOption[]; next: number } | { fail: ParseResult } {
  const options: ParsedOption[] = [];
  for (let j = 1; j < word.length; j += 1) {
    const letter = word[j];
    const name = `-${letter}`;
    const danger = t.table.unsafe?.[name];
    const inCluster = word.length > 2 ? ` (in \`${word}\`)` : "";
    if (danger !== undefined)
      return { fail: { ok: false, word, reason: `\`${name}\`${inCluster} ${danger}` } };
    const arity = t.short.get(letter);
    if (arity === undefined)
      return {
        fail: {
          ok: false,
          word,
          reason: `\`${name}\`${inCluster} is not an option hx knows to be read-only for ${program}`,
        },
      };
    if (arity === 0) {
      options.push({ word, name });
      continue;
    }
    const rest = word.slice(j + 1);
    if (arity === "optional" || rest !== "") {
      options.push(rest === "" ? { word, name } : { word, name, value: rest, glued: true });
      return { options, next: i };
    }
    if (i + 1 >= args.length) return { fail: { ok: false, word, reason: `\`${name}\` needs a value` } };
    options.push({ word, name, value: args[i + 1] });
    return { options, next: i + 1 };
  }
  return { options, next: i };
}

function checkOperands(
  table: OptionTable,
  options: ParsedOption[],
  operands: string[],
  program: string,
): ParseResult {
  if (table.maxOperands !== undefined && operands.length > table.maxOperands) {
    const extra = operands[table.maxOperands];
    return {
      ok: false,
      word: extra,
      reason: `\`${extra}\` ${table.extraOperand ?? `is one operand more than ${program} takes read-only`}`,
    };
  }
  if (table.operandPattern) {
    const bad = operands.find((operand) => !table.operandPattern?.pattern.test(operand));
    if (bad !== undefined)
      return { ok: false, word: bad, reason: `\`${bad}\` ${table.operandPattern.otherwise}` };
  }
  const only = table.operandsOnlyWith;
  if (only && operands.length > 0 && !options.some((option) => only.options.includes(option.name))) {
    return { ok: false, word: operands[0], reason: `\`${operands[0]}\` ${only.otherwise}` };
  }
  return { ok: true, options, operands };
}
