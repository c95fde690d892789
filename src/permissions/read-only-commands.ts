/**
 * Commands that only read, allowed without a rule when every argument is literal and every
 * path stays inside the workspace (the caller checks paths and redirections). Options that
 * write or run something (`git diff --output`, `find -exec`, `rg --pre`, `sort -o`) take a
 * command off the list. Turned off by `permissions.readOnlyCommands: false`.
 */
interface ReadOnlySpec {
  /** False when the arguments are text, not paths (echo). */
  pathArguments: boolean;
  /** Is this particular call read-only? (`args` are the words after the command name.) */
  accepts(args: readonly string[]): boolean;
}

const any = (): boolean => true;

/** Refuses calls using any of these options (also as `--opt=value` or glued short options). */
function without(...options: string[]): (args: readonly string[]) => boolean {
  return (args) =>
    !args.some((arg) =>
      options.some((option) =>
        option.startsWith("--")
          ? arg === option || arg.startsWith(`${option}=`)
          : arg === option ||
            (/^-[A-Za-z]/.test(arg) && !arg.startsWith("--") && arg.includes(option.slice(1))),
      ),
    );
}

function reader(accepts: (args: readonly string[]) => boolean = any): ReadOnlySpec {
  return { pathArguments: true, accepts };
}

function text(): ReadOnlySpec {
  return { pathArguments: false, accepts: any };
}

/** Operands: arguments that are not options. */
function operands(args: readonly string[]): string[] {
  return args.filter((arg) => !arg.startsWith("-"));
}

const GIT_READ_ONLY: Readonly<Record<string, (args: readonly string[]) => boolean>> = {
  status: without("--output"),
  diff: without("--output", "--ext-diff"),
  log: without("--output", "--ext-diff"),
  show: without("--output", "--ext-diff"),
  blame: any,
  "ls-files": any,
  "rev-parse": any,
  describe: any,
  shortlog: any,
  grep: without("-O", "--open-files-in-pager"),
  // Listing only: with a name they create or delete.
  branch: (args) =>
    operands(args).length === 0 &&
    without(
      "-d",
      "-D",
      "-m",
      "-M",
      "-c",
      "-C",
      "--delete",
      "--move",
      "--copy",
      "--set-upstream-to",
      "--unset-upstream",
      "--edit-description",
      "-u",
    )(args),
  tag: (args) => operands(args).length === 0 && without("-d", "--delete", "-a", "-s", "-f")(args),
  remote: (args) => args.every((arg) => arg === "-v" || arg === "--verbose"),
};

const READ_ONLY: Readonly<Record<string, ReadOnlySpec>> = {
  ls: reader(),
  pwd: text(),
  cat: reader(),
  head: reader(),
  tail: reader(),
  wc: reader(),
  nl: reader(),
  stat: reader(),
  file: reader(without("-C", "--compile")),
  du: reader(),
  df: reader(),
  tree: reader(without("-o")),
  echo: text(),
  printf: reader(without("-v")),
  true: text(),
  false: text(),
  which: text(),
  whoami: text(),
  id: text(),
  uname: text(),
  date: reader(without("-s", "--set")),
  basename: text(),
  dirname: text(),
  realpath: reader(),
  readlink: reader(),
  grep: reader(),
  egrep: reader(),
  fgrep: reader(),
  rg: reader(without("--pre", "--pre-glob")),
  find: reader(
    without("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"),
  ),
  diff: reader(),
  cmp: reader(),
  sort: reader(without("-o", "--output", "--compress-program")),
  cut: reader(),
  od: reader(),
  hexdump: reader(),
  md5sum: reader(),
  sha1sum: reader(),
  sha256sum: reader(),
  sha512sum: reader(),
  column: reader(),
  jq: reader(),
  git: {
    pathArguments: true,
    accepts(args) {
      const [subcommand, ...rest] = args;
      const check = subcommand === undefined ? undefined : GIT_READ_ONLY[subcommand];
      return check !== undefined && Object.hasOwn(GIT_READ_ONLY, subcommand) && check(rest);
    },
  },
};

/** The names on the list (for messages and docs). */
export const READ_ONLY_COMMAND_NAMES: readonly string[] = Object.keys(READ_ONLY);

/** True when `name` is on the list at all (its arguments may still make a call not read-only). */
export function isReadOnlyName(name: string): boolean {
  return Object.hasOwn(READ_ONLY, name);
}

/**
 * Is this call read-only? `words` are literal: the command name as written (a path such as
 * `/bin/ls` does not count) and its arguments. Returns whether the arguments are paths the
 * caller must keep inside the workspace.
 */
export function readOnlyCall(words: readonly string[]): { pathArguments: boolean } | undefined {
  const [name, ...args] = words;
  if (name === undefined || !Object.hasOwn(READ_ONLY, name)) return undefined;
  const spec = READ_ONLY[name];
  return spec.accepts(args) ? { pathArguments: spec.pathArguments } : undefined;
}
