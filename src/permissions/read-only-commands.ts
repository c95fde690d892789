/**
 * Commands that only read, allowed without a rule when every argument is literal and every
 * path stays inside the workspace (the caller checks paths and redirections). A call is
 * read-only only when each of its words is an option its table knows to be safe
 * (read-only-tables.ts), read the way the program reads it (option-parser.ts): an unknown
 * option, an abbreviation of a dangerous one (`sort --compress-prog=sh`), a writing option
 * (`git diff --output=f`) or an operand the program writes (`uniq IN OUT`) makes the call
 * not read-only, with that word named. Turned off by `permissions.readOnlyCommands: false`.
 */
import { type ParseResult, parseOptions } from "./option-parser.js";
import { READ_ONLY_COMMANDS, type ReadOnlySpec } from "./read-only-tables.js";

/** Why a command on the list is not read-only in this call: the word and what it does. */
export interface NotReadOnly {
  word: string;
  reason: string;
}

/**
 * A read-only call: whether its arguments are paths the caller keeps inside the workspace,
 * and the values glued to short options (`-f/etc/x`), which the caller checks as paths too.
 */
export type ReadOnlyVerdict =
  | { pathArguments: boolean; gluedValues: string[] }
  | { notReadOnly: NotReadOnly };

/** True when `name` is on the list at all (its arguments may still make a call not read-only). */
export function isReadOnlyName(name: string): boolean {
  return Object.hasOwn(READ_ONLY_COMMANDS, name);
}

/**
 * Is this call read-only? `words` are literal: the command name as written (a path such as
 * `/bin/ls` does not count) and its arguments. Undefined when the command is not on the
 * list; otherwise whether the arguments are paths the caller must keep inside the
 * workspace, or which word makes the call not read-only.
 */
export function readOnlyVerdict(words: readonly string[]): ReadOnlyVerdict | undefined {
  const [name, ...args] = words;
  if (name === undefined || !Object.hasOwn(READ_ONLY_COMMANDS, name)) return undefined;
  const spec = READ_ONLY_COMMANDS[name];
  if (spec.anyArguments) return { pathArguments: spec.pathArguments, gluedValues: [] };
  const parsed = spec.subcommands
    ? parseSubcommand(spec, args, name)
    : [parseOptions(spec.options, args, name)];
  const refused = parsed.map(refusal).find(Boolean);
  if (refused) return { notReadOnly: refused };
  const gluedValues = parsed.flatMap((result) =>
    result.ok ? result.options.flatMap((option) => (option.glued && option.value ? [option.value] : [])) : [],
  );
  return { pathArguments: spec.pathArguments, gluedValues };
}

/** {@link readOnlyVerdict} when the call is read-only, else undefined. */
export function readOnlyCall(
  words: readonly string[],
): { pathArguments: boolean; gluedValues: string[] } | undefined {
  const verdict = readOnlyVerdict(words);
  return verdict && "pathArguments" in verdict ? verdict : undefined;
}

function refusal(result: ParseResult): NotReadOnly | undefined {
  return result.ok ? undefined : { word: result.word, reason: result.reason };
}

/** The program's own options (git's), then a read-only subcommand with its own table. */
function parseSubcommand(spec: ReadOnlySpec, args: readonly string[], name: string): ParseResult[] {
  const own = parseOptions(spec.options, args, name);
  if (!own.ok) return [own];
  const [subcommand, ...rest] = own.operands;
  const tables = spec.subcommands ?? {};
  const fail = (word: string, reason: string): ParseResult[] => [{ ok: false, word, reason }];
  if (subcommand === undefined) return fail(name, `\`${name}\` without a subcommand is not read-only`);
  if (!Object.hasOwn(tables, subcommand))
    return fail(subcommand, `\`${name} ${subcommand}\` is not a read-only ${name} subcommand`);
  return [own, parseOptions(tables[subcommand], rest, `${name} ${subcommand}`)];
}
