/**
 * Commands that run another command given in their arguments (`env curl …`, `timeout 5
 * curl …`, `sudo …`), shells that run a script given as text (`bash -c '…'`), and
 * interpreters that run code given inline (`python3 -c '…'`). Deny rules and the block list
 * look through all three.
 */

export interface WrapperSpec {
  /** Options that take the next word as their value (`-u NAME`); `--opt=value` is always one word. */
  valueOptions: readonly string[];
  /** Operands before the command (timeout's duration, chroot's folder). */
  leadingOperands?: number;
  /** Accepts NAME=value words before the command (env). */
  assignments?: boolean;
  /** With any of these options the wrapper does not run its operand (`command -v x` only prints). */
  onlyInspects?: readonly string[];
}

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: { valueOptions: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"], assignments: true },
  command: { valueOptions: [], onlyInspects: ["-v", "-V"] },
  builtin: { valueOptions: [] },
  exec: { valueOptions: ["-a"] },
  nohup: { valueOptions: [] },
  setsid: { valueOptions: [] },
  time: { valueOptions: ["-f", "--format", "-o", "--output"] },
  timeout: {
    valueOptions: ["-s", "--signal", "-k", "--kill-after"],
    leadingOperands: 1,
  },
  nice: { valueOptions: ["-n", "--adjustment"] },
  ionice: { valueOptions: ["-c", "--class", "-n", "--classdata", "-p", "-P", "-u"] },
  stdbuf: { valueOptions: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  chrt: { valueOptions: ["-T", "-P", "-D"], leadingOperands: 1 },
  taskset: { valueOptions: [], leadingOperands: 1 },
  xargs: {
    valueOptions: [
      "-I",
      "-n",
      "--max-args",
      "-L",
      "--max-lines",
      "-P",
      "--max-procs",
      "-d",
      "--delimiter",
      "-E",
      "-s",
      "--max-chars",
      "-a",
      "--arg-file",
      "--process-slot-var",
    ],
  },
  sudo: {
    valueOptions: [
      "-u",
      "--user",
      "-g",
      "--group",
      "-h",
      "--host",
      "-p",
      "--prompt",
      "-C",
      "-D",
      "--chdir",
      "-r",
      "-t",
      "-T",
      "-U",
    ],
  },
  doas: { valueOptions: ["-u", "-C"] },
  run0: { valueOptions: ["-u", "--user", "-g", "--group", "-D", "--chdir"] },
  unbuffer: { valueOptions: [] },
  watch: { valueOptions: ["-n", "--interval", "-d", "--differences", "-q", "--equexit"] },
  strace: { valueOptions: ["-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X"] },
  ltrace: { valueOptions: ["-o", "-e", "-p", "-s", "-u", "-a", "-A", "-D", "-E", "-F", "-l", "-n", "-x"] },
  chroot: { valueOptions: ["--userspec", "--groups"], leadingOperands: 1 },
  unshare: { valueOptions: ["-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd"] },
  flock: { valueOptions: ["-w", "--timeout", "-E", "--conflict-exit-code"], leadingOperands: 1 },
  busybox: { valueOptions: [] },
  coproc: { valueOptions: [] },
  caffeinate: { valueOptions: ["-t", "-w"] },
};

/** Shells: `-c SCRIPT` runs text; otherwise the first operand is a script file, or stdin is read. */
export const SHELLS: ReadonlySet<string> = new Set([
  "bash",
  "sh",
  "dash",
  "zsh",
  "ksh",
  "mksh",
  "ash",
  "yash",
  "fish",
  "rbash",
]);

/** Shell options that take a value (`-o pipefail`, `--rcfile FILE`). */
export const SHELL_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  "-o",
  "+o",
  "-O",
  "+O",
  "--rcfile",
  "--init-file",
]);

/** Interpreters and the options that give them code inline. */
export const INTERPRETERS: Readonly<
  Record<string, { codeOptions: readonly string[]; codeIsFirstOperand?: boolean }>
> = {
  python: { codeOptions: ["-c"] },
  python2: { codeOptions: ["-c"] },
  python3: { codeOptions: ["-c"] },
  pypy: { codeOptions: ["-c"] },
  pypy3: { codeOptions: ["-c"] },
  perl: { codeOptions: ["-e", "-E"] },
  ruby: { codeOptions: ["-e"] },
  node: { codeOptions: ["-e", "--eval", "-p", "--print"] },
  nodejs: { codeOptions: ["-e", "--eval", "-p", "--print"] },
  bun: { codeOptions: ["-e", "--eval", "-p", "--print"] },
  deno: { codeOptions: ["eval"] },
  php: { codeOptions: ["-r"] },
  lua: { codeOptions: ["-e"] },
  luajit: { codeOptions: ["-e"] },
  Rscript: { codeOptions: ["-e"] },
  osascript: { codeOptions: ["-e"] },
  tclsh: { codeOptions: [] },
  awk: { codeOptions: [], codeIsFirstOperand: true },
  gawk: { codeOptions: [], codeIsFirstOperand: true },
  mawk: { codeOptions: [], codeIsFirstOperand: true },
  nawk: { codeOptions: [], codeIsFirstOperand: true },
  sed: { codeOptions: ["-e", "--expression"], codeIsFirstOperand: true },
};

/**
 * The words a wrapper runs: for `timeout -s KILL 5 curl x`, `curl x`. Undefined when the
 * wrapper runs nothing (`env` alone prints the environment; `command -v x` only looks).
 */
export function unwrap<W>(
  spec: WrapperSpec,
  args: readonly W[],
  textOf: (word: W) => string | undefined,
): W[] | undefined {
  let i = 0;
  let operands = spec.leadingOperands ?? 0;
  while (i < args.length) {
    const text = textOf(args[i]);
    if (text === undefined) return args.slice(i);
    if (text === "--") {
      i += 1;
      break;
    }
    if (spec.onlyInspects?.includes(text)) return undefined;
    if (text.startsWith("-") && text.length > 1) {
      const name = text.includes("=") ? text.slice(0, text.indexOf("=")) : text;
      i += spec.valueOptions.includes(name) && !text.includes("=") ? 2 : 1;
      continue;
    }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
      i += 1;
      continue;
    }
    break;
  }
  while (operands > 0 && i < args.length) {
    i += 1;
    operands -= 1;
  }
  const rest = args.slice(i);
  return rest.length > 0 ? rest : undefined;
}
