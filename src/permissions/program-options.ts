/**
 * Options with which a command runs a program of the caller's choosing (`npm test
 * --script-shell=./evil.sh`, `git -c core.pager=sh log`, `git grep -O'sh -c …'`). An allow
 * rule written for the command never covers a call using them: the call is asked (headless:
 * refused). Only data; checked by {@link programOption}.
 */
interface ProgramOptionSpec {
  /** Long options (without `--`) that run a program; any prefix of one counts (npm, git abbreviate). */
  long: readonly string[];
  /** Short options that run a program (also inside a cluster: `-ix`). */
  short?: string;
  /** Long options starting with this run one too (`pnpm --config.script-shell=…`). */
  longPrefix?: string;
  /** The program's own options before a subcommand, matched exactly (git's `-c`). */
  global?: { long: readonly string[]; short: string; valueOptions: readonly string[] };
  /** Options of one subcommand (`git grep -O`, `git rebase --exec`). */
  subcommands?: Readonly<Record<string, { long: readonly string[]; short?: string }>>;
}

const NODE_PACKAGE_MANAGER: ProgramOptionSpec = {
  long: ["script-shell", "node-options", "userconfig", "globalconfig", "call", "shell", "use-yarnrc"],
  short: "c",
  longPrefix: "config.",
};

const PROGRAM_OPTIONS: Readonly<Record<string, ProgramOptionSpec>> = {
  npm: NODE_PACKAGE_MANAGER,
  npx: NODE_PACKAGE_MANAGER,
  pnpm: NODE_PACKAGE_MANAGER,
  pnpx: NODE_PACKAGE_MANAGER,
  yarn: NODE_PACKAGE_MANAGER,
  git: {
    long: [],
    global: {
      long: ["config-env", "exec-path", "git-dir"],
      short: "c",
      valueOptions: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"],
    },
    subcommands: {
      grep: { long: ["open-files-in-pager", "ext-grep"], short: "O" },
      diff: { long: ["ext-diff"] },
      log: { long: ["ext-diff"] },
      show: { long: ["ext-diff"] },
      rebase: { long: ["exec"], short: "x" },
      difftool: { long: ["extcmd", "tool"], short: "xt" },
      mergetool: { long: ["tool"], short: "t" },
      bisect: { long: [] },
      submodule: { long: [] },
    },
  },
};

/** Subcommands whose operand is a command they run (`git bisect run CMD`, `git submodule foreach CMD`). */
const RUNS_OPERAND: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  git: { bisect: "run", submodule: "foreach" },
};

/**
 * The word of `words` (a command: name first) that makes it run a program of the caller's
 * choosing, or undefined.
 */
export function programOption(words: readonly string[]): string | undefined {
  const [name, ...args] = words;
  if (name === undefined || !Object.hasOwn(PROGRAM_OPTIONS, name)) return undefined;
  const spec = PROGRAM_OPTIONS[name];
  let start = 0;
  let subcommand: string | undefined;
  if (spec.global) {
    const global = spec.global;
    while (start < args.length && args[start].startsWith("-")) {
      const word = args[start];
      if (matches(word, global.long, global.short, undefined, false)) return word;
      start += global.valueOptions.includes(word) ? 2 : 1;
    }
    subcommand = args[start];
    start += 1;
  }
  const own =
    subcommand !== undefined && spec.subcommands && Object.hasOwn(spec.subcommands, subcommand)
      ? spec.subcommands[subcommand]
      : undefined;
  const runsOperand = subcommand !== undefined ? RUNS_OPERAND[name]?.[subcommand] : undefined;
  for (const word of args.slice(start)) {
    if (word === "--") break;
    if (runsOperand !== undefined && word === runsOperand) return word;
    if (matches(word, spec.long, spec.short, spec.longPrefix, true)) return word;
    if (own && matches(word, own.long, own.short, undefined, true)) return word;
  }
  return undefined;
}

function matches(
  word: string,
  long: readonly string[],
  short: string | undefined,
  longPrefix: string | undefined,
  abbreviated: boolean,
): boolean {
  if (word.startsWith("--")) {
    const typed = word.slice(2).split("=")[0].toLowerCase().replaceAll("_", "-");
    if (typed === "") return false;
    if (longPrefix && typed.startsWith(longPrefix)) return true;
    return long.some((option) => option === typed || (abbreviated && option.startsWith(typed)));
  }
  if (!short || !/^-[A-Za-z]/.test(word)) return false;
  // The program's own options are read one to a word (git's `-c`); a subcommand's clusters
  // (`-ix`) are split, the whole word searched (a letter in a value only asks more).
  if (!abbreviated) return word.length === 2 && short.includes(word[1]);
  return [...word.slice(1)].some((letter) => short.includes(letter));
}
