import os from "node:os";
import path from "node:path";
import { expandBraces } from "../fs/brace-expansion.js";
import type { BashParser } from "./bash-parser.js";
import { INTERPRETERS, SHELL_VALUE_OPTIONS, SHELLS, unwrap, WRAPPERS } from "./command-wrappers.js";
import { readShellScript, resolveShellPath, type ShellCommand, type ShellWord } from "./shell-syntax.js";
import { DYNAMIC, hasGlob, sourceText } from "./shell-words.js";

/** A word as rules see it: quotes removed, braces expanded; `literal: false` when computed at run time. */
export interface ViewWord {
  text: string;
  literal: boolean;
  /** Computed at run time outside double quotes: may become several words. */
  splits: boolean;
  /** Has an unquoted `*`, `?` or `[`. */
  glob: boolean;
  /** Filled in from stdin at run time by xargs (computed, but not by the shell). */
  fromInput?: true;
}

/**
 * One command as deny rules, ask rules and the block list see it: the command name's
 * basename first, quotes removed. A line yields a view per command, and more for what
 * wrappers, shells and interpreters run (`timeout 5 curl x` gives `timeout 5 curl x` and
 * `curl x`; `bash -c 'sudo id'` gives `bash -c "sudo id"` and `sudo id`).
 */
export interface CommandView {
  words: ViewWord[];
  /** The folder it runs in; undefined when a `cd` went somewhere unknown. */
  cwd: string | undefined;
  /**
   * Set when a program of the line runs this one from its arguments (`timeout 5 rm x`,
   * `xargs rm`, `find -exec rm {} ;`, `parallel rm`): the command of the line it comes from and
   * the program that runs it. An allow rule for that command does not cover this one.
   */
  runBy?: { command: ShellCommand; program: string };
}

/** A command line read the way bash will run it: the facts every permission decision uses. */
export interface CommandLine {
  text: string;
  /** The simple commands of the line itself (substitutions included), as written. */
  commands: ShellCommand[];
  /** Why no allow rule can cover the line: "a command substitution ($(…) or backticks)", … */
  features: string[];
  /** Everything the line runs, wrappers and inner scripts looked through. */
  views: CommandView[];
  /** Set when the line cannot be read the way bash runs it: asked, never allowed. */
  parseError?: string;
  /** Set when what it runs is computed at run time (`$(which curl) x`, `bash -c "$x"`): refused. */
  computed?: string;
  /** Absolute paths of files written by redirections (`> f`, `>> f`, `&> f`) and output options (`--output=f`). */
  fileWrites: string[];
  /** Absolute paths named by commands that may change them (every argument of a command not in the read-only list). */
  argumentWrites: string[];
  /** Absolute paths the line names as arguments or `<` inputs (candidates for what it reads). */
  reads: string[];
  /** Functions defined and called in the line that call themselves (fork bombs). */
  selfCallingFunctions: string[];
}

export interface CommandLineOptions {
  /** The folder commands start in (the workspace root). */
  cwd: string;
  home?: string;
  /** Names of commands whose arguments are only read (see read-only-commands.ts). */
  isReadOnlyName?: (name: string) => boolean;
  /**
   * Lists the files a glob argument names (an absolute pattern), so a read or write through
   * `cat .e*` is judged by the files it reaches. Without it a glob is judged as written.
   */
  expandGlob?: (pattern: string) => string[];
}

/** Inner scripts (`bash -c '…'` in `sh -c '…'` …) deeper than this are refused. */
const MAX_DEPTH = 8;
/** More commands than this in one line (wrappers and inner scripts included) is not checked. */
const MAX_VIEWS = 5_000;
/** Words of inline interpreter code looked at (`python3 -c '…'`). */
const MAX_CODE_TOKENS = 4_000;

/** Reads a command line with the bash parser; synchronous once the parser is loaded. */
export function readCommandLine(parser: BashParser, text: string, options: CommandLineOptions): CommandLine {
  const reader = new LineReader(parser, text, options);
  reader.script(text, options.cwd, 0, true);
  return reader.finish();
}

class LineReader {
  private readonly line: CommandLine;
  private readonly home: string;
  private readonly functions = new Map<string, { callsItself: boolean }>();
  private readonly called = new Set<string>();
  /** The command of the line being looked through (views found inside it point back to it). */
  private origin: ShellCommand | undefined;

  constructor(
    private readonly parser: BashParser,
    text: string,
    private readonly options: CommandLineOptions,
  ) {
    this.home = options.home ?? os.homedir();
    this.line = {
      text,
      commands: [],
      features: [],
      views: [],
      fileWrites: [],
      argumentWrites: [],
      reads: [],
      selfCallingFunctions: [],
    };
    if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)) {
      this.line.parseError =
        "it contains control characters (such as a carriage return), which bash and hx may split differently";
    }
  }

  finish(): CommandLine {
    for (const [name, fn] of this.functions) {
      if (fn.callsItself && this.called.has(name)) this.line.selfCallingFunctions.push(name);
    }
    return this.line;
  }

  private computed(reason: string): void {
    this.line.computed ??= reason;
  }

  script(text: string, cwd: string | undefined, depth: number, top = false): void {
    if (depth > MAX_DEPTH) {
      this.computed(`it nests shells more than ${MAX_DEPTH} deep`);
      return;
    }
    if (text.includes(DYNAMIC)) {
      this.computed("it runs text computed at run time as commands");
      return;
    }
    const script = this.parser.parse(text, (root) => readShellScript(root, { cwd, home: this.home }));
    if (!script) {
      this.line.parseError ??= "it is too long to check";
      return;
    }
    if (script.parseError) this.line.parseError ??= script.parseError;
    if (top) {
      this.line.commands = script.commands;
      this.line.features.push(...script.features);
    }
    for (const [name, fn] of script.functions) this.functions.set(name, fn);
    for (const command of script.commands) {
      if (top) this.origin = command;
      this.command(command, depth);
    }
  }

  private command(command: ShellCommand, depth: number): void {
    for (const redirect of command.redirects) {
      if (!redirect.target) continue;
      const targets = this.paths(redirect.target, command.cwd, false);
      if (WRITE_REDIRECTS.has(redirect.operator)) this.line.fileWrites.push(...targets);
      else this.line.reads.push(...targets);
    }
    const words = command.words.flatMap(viewWords);
    if (words.length === 0) return;
    const name = words[0].literal ? path.basename(words[0].text) : undefined;
    const writes = name === undefined || !(this.options.isReadOnlyName?.(name) ?? false);
    for (const [i, word] of command.words.entries()) {
      if (i === 0) continue;
      const output = outputOptionValue(word, command.words[i + 1]);
      if (output) this.line.fileWrites.push(...this.paths(output, command.cwd, false));
      for (const candidate of argumentPaths(word)) {
        const paths = this.paths(candidate, command.cwd, true);
        this.line.reads.push(...paths);
        if (writes) this.line.argumentWrites.push(...paths);
      }
    }
    this.view(words, command, depth);
  }

  /**
   * Records a view and looks through wrappers, shells, interpreters and `find -exec`;
   * `runBy` names the program that runs these words from its arguments.
   */
  private view(words: ViewWord[], command: ShellCommand, depth: number, runBy?: string): void {
    if (this.line.views.length >= MAX_VIEWS) {
      this.line.parseError ??= `it runs more than ${MAX_VIEWS} commands`;
      return;
    }
    const [first, ...args] = words;
    if (!first.literal) {
      this.computed("its command name is computed at run time");
      return;
    }
    const name = path.basename(first.text);
    this.line.views.push({
      words: [{ ...first, text: name }, ...args],
      cwd: command.cwd,
      ...(runBy && this.origin ? { runBy: { command: this.origin, program: runBy } } : {}),
    });
    if (this.functions.has(name)) this.called.add(name);
    if (depth >= MAX_DEPTH) {
      this.computed(`it nests commands more than ${MAX_DEPTH} deep`);
      return;
    }
    const wrapper = WRAPPERS[name];
    if (wrapper) {
      if (name === "env") this.envSplitString(args, command, depth);
      const inner = unwrap(wrapper, args, (word) => (word.literal ? word.text : undefined));
      if (!inner) return;
      if (name === "watch") this.script(inner.map(wordText).join(" "), command.cwd, depth + 1);
      else if (name === "xargs") {
        for (const run of xargsCommands(inner, args, this.literalInput(command)))
          this.view(run, command, depth + 1, name);
      } else this.view(inner, command, depth + 1, name);
      return;
    }
    if (name === "parallel") {
      this.parallel(args, command, depth);
      return;
    }
    if (SHELLS.has(name)) {
      this.shell(name, args, command, depth);
      return;
    }
    if (name === "eval") {
      this.script(args.map(wordText).join(" "), command.cwd, depth + 1);
      return;
    }
    // Text these run as commands: `trap 'cmd' EXIT`, `alias ls='cmd'`, `script -c 'cmd'`,
    // `flock FILE -c 'cmd'`.
    if (name === "trap" && args[0] && !args[0].text.startsWith("-")) {
      this.script(wordText(args[0]), command.cwd, depth + 1);
      return;
    }
    if (name === "alias") {
      for (const arg of args) {
        const eq = arg.text.indexOf("=");
        if (eq > 0) this.script(arg.text.slice(eq + 1), command.cwd, depth + 1);
      }
      return;
    }
    if (name === "script" || name === "flock") {
      const c = args.findIndex((arg) => arg.text === "-c" || arg.text === "--command");
      if (c !== -1 && args[c + 1]) this.script(wordText(args[c + 1]), command.cwd, depth + 1);
    }
    if (name === "find") {
      this.findExec(args, command, depth);
      return;
    }
    const interpreter = INTERPRETERS[name];
    if (interpreter) this.inlineCode(name, interpreter, args, command);
    if (name === "git") this.gitConfigWrite(args, command);
  }

  /** `git config KEY VALUE` writes .git/config (or ~/.gitconfig with --global, or --file F). */
  private gitConfigWrite(args: ViewWord[], command: ShellCommand): void {
    let i = 0;
    while (i < args.length && args[i].literal && args[i].text.startsWith("-")) {
      i += ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(args[i].text) ? 2 : 1;
    }
    if (args[i]?.text !== "config") return;
    const rest = args.slice(i + 1).map((word) => word.text);
    const reads = [
      "--get",
      "--get-all",
      "--get-regexp",
      "--get-urlmatch",
      "--list",
      "-l",
      "--show-origin",
      "get",
      "list",
    ];
    if (rest.some((arg) => reads.includes(arg))) return;
    const fileIndex = rest.findIndex((arg) => arg === "--file" || arg === "-f");
    const cwd = command.cwd ?? this.options.cwd;
    if (fileIndex !== -1 && rest[fileIndex + 1])
      this.line.argumentWrites.push(path.resolve(cwd, rest[fileIndex + 1]));
    else if (rest.includes("--global")) this.line.argumentWrites.push(path.join(this.home, ".gitconfig"));
    else if (!rest.includes("--system")) this.line.argumentWrites.push(path.join(cwd, ".git", "config"));
  }

  /** `env -S 'curl x'` splits its string into a command. */
  private envSplitString(args: ViewWord[], command: ShellCommand, depth: number): void {
    for (let i = 0; i < args.length; i += 1) {
      const text = args[i].text;
      const value =
        text === "-S" || text === "--split-string"
          ? args[i + 1]
          : text.startsWith("--split-string=")
            ? { ...args[i], text: text.slice(15) }
            : text.startsWith("-S") && text.length > 2
              ? { ...args[i], text: text.slice(2) }
              : undefined;
      if (value) this.script(wordText(value), command.cwd, depth + 1);
    }
  }

  /** `bash -c SCRIPT`, `bash script.sh`, or `bash` reading commands from stdin. */
  private shell(name: string, args: ViewWord[], command: ShellCommand, depth: number): void {
    let i = 0;
    let runsText = false;
    let readsStdin = false;
    for (; i < args.length; i += 1) {
      const word = args[i];
      if (!word.literal) {
        this.computed(`${name} is given an option computed at run time`);
        return;
      }
      const text = word.text;
      if (text === "--" || text === "-") {
        i += 1;
        break;
      }
      if (SHELL_VALUE_OPTIONS.has(text)) {
        i += 1;
        continue;
      }
      if (/^[-+][A-Za-z]+$/.test(text)) {
        if (text.startsWith("-") && text.includes("c")) runsText = true;
        if (text.startsWith("-") && text.includes("s")) readsStdin = true;
        continue;
      }
      if (text.startsWith("--")) continue;
      break;
    }
    const operands = args.slice(i);
    if (runsText) {
      if (operands.length > 0) this.script(wordText(operands[0]), command.cwd, depth + 1);
      return;
    }
    if (operands.length > 0 && !readsStdin) return; // runs a script file: the sandbox's job
    const input = this.stdinText(name, command, "commands");
    if (input !== undefined) this.script(input, command.cwd, depth + 1);
  }

  /**
   * What a command reads on stdin when it is written out in the line (a here-string or
   * here-document, `echo … |`), or undefined.
   */
  private literalInput(command: ShellCommand): string | undefined {
    const fed = command.redirects.filter((redirect) => redirect.feedsText).at(-1);
    if (fed) return fed.input;
    if (command.redirects.some((redirect) => redirect.operator === "<" && redirect.target)) return undefined;
    return command.piped && command.pipedFrom ? echoedText(command.pipedFrom) : undefined;
  }

  /**
   * GNU parallel: `parallel [options] COMMAND ::: ARGS` runs COMMAND (through a shell) once
   * per argument, `{}` replaced by it or the argument added at the end; arguments come from
   * `:::` or stdin (one per line). Without a command, the lines of stdin are the commands.
   */
  private parallel(args: ViewWord[], command: ShellCommand, depth: number): void {
    let i = 0;
    while (
      i < args.length &&
      args[i].literal &&
      args[i].text.startsWith("-") &&
      !args[i].text.startsWith(":::")
    ) {
      const text = args[i].text;
      i += PARALLEL_VALUE_OPTIONS.has(text) ? 2 : 1;
    }
    const separator = args.findIndex((word, j) => j >= i && /^:::[:+]*$/.test(word.text));
    const template = args.slice(i, separator === -1 ? args.length : separator);
    if (template.some((word) => !word.literal)) {
      this.computed("parallel runs a command computed at run time");
      return;
    }
    let inputs: string[] | undefined;
    if (separator !== -1) {
      const given = args.slice(separator + 1).filter((word) => !/^:::[:+]*$/.test(word.text));
      inputs = given.every((word) => word.literal) ? given.map((word) => word.text) : undefined;
    } else {
      const fed = this.literalInput(command);
      inputs = fed === undefined ? undefined : fed.split("\n").filter((line) => line.trim() !== "");
    }
    if (template.length === 0) {
      // The input lines are the commands.
      if (inputs === undefined) this.computed("it pipes commands computed at run time into parallel");
      else for (const line of inputs.slice(0, MAX_INPUTS)) this.script(line, command.cwd, depth + 1);
      return;
    }
    const text = template.map(wordText).join(" ");
    const runs = (inputs ?? [PARALLEL_INPUT]).slice(0, MAX_INPUTS).map((input) => {
      const quoted = input === PARALLEL_INPUT ? input : shellQuote(input);
      return /\{[^}]*\}/.test(text) ? text.replace(/\{[^}\s]*\}/g, quoted) : `${text} ${quoted}`;
    });
    const before = this.line.views.length;
    for (const run of runs) this.script(run, command.cwd, depth + 1);
    for (const view of this.line.views.slice(before)) {
      if (this.origin) view.runBy ??= { command: this.origin, program: "parallel" };
      for (const [j, word] of view.words.entries())
        if (word.text.includes(PARALLEL_INPUT))
          view.words[j] = { text: DYNAMIC, literal: false, splits: false, glob: false, fromInput: true };
    }
  }

  /**
   * What a command reads on stdin when that is program text: a here-document or here-string,
   * or `echo '…' |` before it. Anything else piped in is computed at run time.
   */
  private stdinText(name: string, command: ShellCommand, what: string): string | undefined {
    const fed = command.redirects.filter((redirect) => redirect.feedsText).at(-1);
    if (fed) {
      if (fed.input === undefined) this.computed(`it feeds ${what} computed at run time to ${name}`);
      return fed.input;
    }
    if (command.redirects.some((redirect) => redirect.operator === "<" && redirect.target)) return undefined;
    if (!command.piped) return undefined;
    const echoed = command.pipedFrom ? echoedText(command.pipedFrom) : undefined;
    if (echoed === undefined) this.computed(`it pipes ${what} computed at run time into ${name}`);
    return echoed;
  }

  /** `find … -exec CMD {} ;` runs CMD. */
  private findExec(args: ViewWord[], command: ShellCommand, depth: number): void {
    for (let i = 0; i < args.length; i += 1) {
      if (!["-exec", "-execdir", "-ok", "-okdir"].includes(args[i].text)) continue;
      const end = args.findIndex((word, j) => j > i && (word.text === ";" || word.text === "+"));
      const inner = args.slice(i + 1, end === -1 ? args.length : end);
      if (inner.length > 0) this.view(inner, command, depth + 1, "find");
      i = end === -1 ? args.length : end;
    }
  }

  /**
   * Inline code (`python3 -c '…'`, `node -e '…'`, `awk '…'`) is not bash, but the commands
   * it starts are usually spelled out in it: every word of the code is taken as the start
   * of a command, so `os.system("curl …")` counts as running `curl …`.
   */
  private inlineCode(
    name: string,
    spec: (typeof INTERPRETERS)[string],
    args: ViewWord[],
    command: ShellCommand,
  ): void {
    const codes: string[] = [];
    let operands = 0;
    let fromFile = false;
    for (let i = 0; i < args.length; i += 1) {
      const text = args[i].text;
      const option = spec.codeOptions.find(
        (o) => text === o || (o.length === 2 && text.startsWith(o) && !text.startsWith("--")),
      );
      if (option) {
        const code = text === option ? args[++i] : { ...args[i], text: text.slice(option.length) };
        if (code && !code.literal) this.computed(`${name} runs code computed at run time`);
        else if (code) codes.push(code.text);
        continue;
      }
      if (text === "-f" || text === "--file") fromFile = true;
      if (text.startsWith("-")) continue;
      operands += 1;
      if (spec.codeIsFirstOperand && codes.length === 0 && !fromFile && operands === 1) {
        if (!args[i].literal) this.computed(`${name} runs code computed at run time`);
        else codes.push(text);
      }
    }
    if (codes.length === 0 && operands === 0 && !spec.codeIsFirstOperand) {
      const input = this.stdinText(name, command, "code");
      if (input !== undefined) codes.push(input);
    }
    for (const code of codes) {
      const tokens = code
        .split(/[^A-Za-z0-9_./~+\-:@=%,]+/)
        .filter(Boolean)
        .slice(0, MAX_CODE_TOKENS);
      for (let i = 0; i < tokens.length; i += 1) {
        if (this.line.views.length >= MAX_VIEWS) break;
        if (!/^[A-Za-z0-9_./+-]+$/.test(tokens[i])) continue;
        const words = tokens
          .slice(i, i + 16)
          .map((text) => ({ text, literal: true, splits: false, glob: false }));
        this.line.views.push({
          words: [{ ...words[0], text: path.basename(words[0].text) }, ...words.slice(1)],
          cwd: command.cwd,
        });
        if (tokens[i].includes("/") || tokens[i].startsWith(".")) {
          const word: ShellWord = {
            source: tokens[i].replace(/[\\*?[\]{},~]/g, "\\$&"),
            literal: true,
            splits: false,
          };
          this.line.argumentWrites.push(...this.paths(word, command.cwd, false));
        }
      }
    }
  }

  /** The absolute paths a word names: tilde and braces expanded, globs matched on disk. */
  private paths(word: ShellWord, cwd: string | undefined, expandGlob: boolean): string[] {
    if (!word.literal) return [];
    const out: string[] = [];
    for (const source of expandBraces(word.source)) {
      const text = sourceText(source);
      if (text === "" || (cwd === undefined && !path.isAbsolute(text) && !source.startsWith("~"))) continue;
      const base = cwd ?? this.options.cwd;
      const resolved = resolveShellPath({ source, literal: true, splits: false }, base, this.home);
      const matches = expandGlob && hasGlob(source) ? this.options.expandGlob?.(resolved) : undefined;
      out.push(...(matches && matches.length > 0 ? matches : [resolved]));
    }
    return out;
  }
}

const WRITE_REDIRECTS = new Set([">", ">>", "&>", "&>>", ">|", "<>", ">&"]);

function viewWords(word: ShellWord): ViewWord[] {
  return expandBraces(word.source).map((source) => ({
    text: sourceText(source),
    literal: word.literal,
    splits: word.splits,
    glob: hasGlob(source),
  }));
}

/** Most inputs of xargs or parallel written out in the line that are looked at one by one. */
const MAX_INPUTS = 64;

/** Options of GNU parallel that take the next word as their value. */
const PARALLEL_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  "-j",
  "--jobs",
  "-S",
  "--sshlogin",
  "-a",
  "--arg-file",
  "-d",
  "--delimiter",
  "-E",
  "-I",
  "-n",
  "--max-args",
  "-N",
  "-L",
  "--max-lines",
  "-s",
  "--max-chars",
  "--colsep",
  "-C",
  "--results",
  "--joblog",
  "--tmpdir",
  "--timeout",
  "--delay",
  "--retries",
  "--load",
  "--memfree",
  "--tag-string",
  "--header",
  "--basefile",
  "--workdir",
]);

/** Stands for an argument parallel reads at run time (replaced by a computed word in the views). */
const PARALLEL_INPUT = "hx-parallel-input";

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./=:,@%+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * The commands xargs runs: its words, then the words it reads from stdin. When stdin is
 * written out in the line (`echo / | xargs rm -rf`, `xargs rm <<< /`) and holds no quote or
 * backslash, those are its words (with `-I R`, one command per line, R replaced); otherwise
 * they are computed at run time.
 */
function xargsCommands(inner: ViewWord[], xargsArgs: ViewWord[], input: string | undefined): ViewWord[][] {
  const computed: ViewWord = { text: DYNAMIC, literal: false, splits: true, glob: false, fromInput: true };
  let replace: string | undefined;
  let lines = false;
  let delimited = false;
  for (const [i, arg] of xargsArgs.entries()) {
    const text = arg.text;
    if (text === "-0" || text === "--null" || /^-d|^--delimiter/.test(text)) delimited = true;
    if (/^-L|^--max-lines|^-l/.test(text)) lines = true;
    if (replace !== undefined) continue;
    if (text === "-I") replace = xargsArgs[i + 1]?.text;
    else if (text.startsWith("-I")) replace = text.slice(2);
    else if (text === "-i" || text === "--replace") replace = "{}";
    else if (text.startsWith("-i")) replace = text.slice(2);
    else if (text.startsWith("--replace=")) replace = text.slice(10);
  }
  const literal = input !== undefined && !delimited && !/['"\\]/.test(input) ? input : undefined;
  const word = (text: string): ViewWord => ({ text, literal: true, splits: false, glob: false });
  if (!replace) {
    if (literal === undefined) return [[...inner, computed]];
    const items = literal.split(/\s+/).filter(Boolean).slice(0, MAX_INPUTS);
    if (!lines) return [[...inner, ...items.map(word)]];
    return literal
      .split("\n")
      .filter((line) => line.trim() !== "")
      .slice(0, MAX_INPUTS)
      .map((line) => [...inner, ...line.trim().split(/\s+/).map(word)]);
  }
  const token = replace;
  if (literal === undefined)
    return [inner.map((w) => (w.text.includes(token) ? { ...computed, splits: false } : w))];
  return literal
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, MAX_INPUTS)
    .map((line) =>
      inner.map((w) => (w.text.includes(token) ? { ...w, text: w.text.replaceAll(token, line) } : w)),
    );
}

/** A word's text for re-reading as script text: parts computed at run time stay {@link DYNAMIC}. */
function wordText(word: ViewWord): string {
  return word.text;
}

/**
 * The words of an argument that may be paths: the argument itself unless it is an option,
 * and the value of `--opt=value`.
 */
function argumentPaths(word: ShellWord): ShellWord[] {
  const text = sourceText(word.source);
  if (!text.startsWith("-")) return [word];
  const eq = word.source.indexOf("=");
  return eq > 0 ? [{ ...word, source: word.source.slice(eq + 1) }] : [];
}

/** Long options that name a file a command writes: `--output=FILE`, `--log-file FILE`, `--outfile`. */
const OUTPUT_OPTION = /^--(?:[a-z]+-)*(?:output|out|outfile|logfile|log-file)(?:-file|-dir|-directory)?$/;

/** The file an output option names, from `--output=FILE` or `--output FILE`. */
function outputOptionValue(word: ShellWord, next: ShellWord | undefined): ShellWord | undefined {
  const text = sourceText(word.source);
  const eq = text.indexOf("=");
  const name = eq === -1 ? text : text.slice(0, eq);
  if (!OUTPUT_OPTION.test(name)) return undefined;
  if (eq !== -1) return { ...word, source: word.source.slice(word.source.indexOf("=") + 1) };
  return next;
}

/** The text `echo …` or `printf …` writes, when it is literal (and has no escapes to decode). */
function echoedText(command: ShellCommand): string | undefined {
  const words = command.words.flatMap(viewWords);
  if (words.length === 0 || !words.every((word) => word.literal)) return undefined;
  const name = path.basename(words[0].text);
  let args = words.slice(1).map((word) => word.text);
  if (name === "echo") {
    let interprets = false;
    while (args.length > 0 && /^-[neE]+$/.test(args[0])) {
      if (args[0].includes("e")) interprets = true;
      args = args.slice(1);
    }
    const text = args.join(" ");
    return interprets && text.includes("\\") ? undefined : text;
  }
  if (name === "printf") {
    // The format alone, with only simple escapes (\n, \t, \\) to decode.
    if (args.length !== 1 || args[0].includes("%")) return undefined;
    const simple = args[0].replace(/\\[nt\\]/g, "");
    if (simple.includes("\\")) return undefined;
    return args[0].replace(/\\([nt\\])/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : "\\"));
  }
  return undefined;
}
