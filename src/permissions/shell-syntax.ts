import os from "node:os";
import path from "node:path";
import type { SyntaxNode } from "./bash-parser.js";
import {
  DYNAMIC,
  decodeAnsiC,
  doubleQuotedText,
  quotedSource,
  sourceText,
  unquotedSource,
} from "./shell-words.js";

/** One word of a command, in the source form of shell-words.ts. */
export interface ShellWord {
  source: string;
  /** True when no part of it is computed at run time. */
  literal: boolean;
  /** A part computed at run time stands outside double quotes: bash may split it into several words. */
  splits: boolean;
}

interface ShellRedirect {
  /** `>`, `>>`, `<`, `&>`, `>&`, `<<`, `<<<`, … */
  operator: string;
  /** The file of a file redirection; undefined for `2>&1`, `>&-` and here-documents. */
  target?: ShellWord;
  /** What a here-document or here-string feeds on stdin; undefined when computed at run time. */
  input?: string;
  /** True for here-documents and here-strings. */
  feedsText?: boolean;
}

/** A simple command bash will run (`git status > out`), wherever it stands in the line. */
export interface ShellCommand {
  /** The command word, then its arguments (before brace expansion). */
  words: ShellWord[];
  /** `VAR=value` prefixes. */
  assignments: ShellWord[];
  /** Its own redirections and those of the statements around it. */
  redirects: ShellRedirect[];
  /** The folder it runs in: the start folder moved by the line's `cd`s; undefined when a `cd` went somewhere unknown. */
  cwd: string | undefined;
  /** Its stdin is a pipe; `pipedFrom` is the command writing to it when that is a simple command. */
  piped: boolean;
  pipedFrom?: ShellCommand;
  /** Runs inside `$(…)`, backticks or `<(…)`: its output becomes part of another command. */
  nested: boolean;
}

/** A command line as bash will run it: every simple command, and what the line contains. */
export interface ShellScript {
  commands: ShellCommand[];
  /**
   * Constructs that stop an allow rule from covering the line, each described for a message:
   * "a command substitution", "a here-document", "a comment", …
   */
  features: Set<string>;
  /** Why the text could not be read the way bash would run it; undefined when it could. */
  parseError?: string;
  /** Names of functions the line defines, and whether each one calls itself. */
  functions: Map<string, { callsItself: boolean }>;
}

export interface ReadOptions {
  /** The folder the line starts in. */
  cwd: string | undefined;
  home?: string;
}

interface Scope {
  /** Shared by the statements that run one after another in the same shell. */
  cwd: { value: string | undefined };
  redirects: ShellRedirect[];
  inFunction?: string;
  piped?: boolean;
  pipedFrom?: ShellCommand;
  nested?: boolean;
}

const FEATURE = {
  commandSubstitution: "a command substitution ($(…) or backticks)",
  processSubstitution: "a process substitution (<(…) or >(…))",
  expansion: "a variable expansion ($name)",
  arithmetic: "an arithmetic expansion ($((…)))",
  hereDocument: "a here-document (<<)",
  hereString: "a here-string (<<<)",
  comment: "a comment (#)",
  controlFlow: "a control structure (if, for, while, case)",
  function: "a function definition",
  assignment: "a variable assignment (NAME=value)",
  test: "a [[ … ]] test",
  quotedSyntax: "a quoted argument holding shell syntax (;, &&, ||, $(…), backticks or a line break)",
} as const;

/** Shell syntax inside quotes: harmless to bash, but a sign of a line built to confuse a checker. */
const SYNTAX_IN_QUOTES = /[;`\n]|\$\(|&&|\|\|/;

/** Reads a parsed command line into plain data (the tree can be freed afterwards). */
export function readShellScript(root: SyntaxNode, options: ReadOptions): ShellScript {
  const reader = new ScriptReader(options.home ?? os.homedir(), root.text);
  reader.checkGaps(root);
  reader.statement(root, { cwd: { value: options.cwd }, redirects: [] });
  return reader.script;
}

/** Statement containers whose children run one after another. */
const SEQUENCES = new Set([
  "program",
  "list",
  "compound_statement",
  "do_group",
  "else_clause",
  "elif_clause",
  "case_item",
]);
const CONTROL_FLOW = new Set([
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
]);

class ScriptReader {
  readonly script: ShellScript = { commands: [], features: new Set(), functions: new Map() };

  constructor(
    private readonly home: string,
    /** The whole line (node offsets index into it). */
    private readonly text: string,
  ) {}

  private fail(reason: string): void {
    this.script.parseError ??= reason;
  }

  /**
   * Tree-sitter recovers from errors quietly; bash does not. Any ERROR or MISSING node, and
   * any text between tokens that is not blank, means the tree may not be what bash runs.
   */
  checkGaps(node: SyntaxNode): void {
    if (node.isError || node.type === "ERROR") {
      this.fail(`bash cannot parse it (near ${JSON.stringify(node.text.slice(0, 40))})`);
      return;
    }
    if (node.isMissing) {
      this.fail(`it is incomplete (a missing ${JSON.stringify(node.type)})`);
      return;
    }
    if (node.type === "heredoc_body" || node.childCount === 0) return;
    let position = node.startIndex;
    const text = this.text;
    for (const child of node.children) {
      if (!child) continue;
      const gap = text.slice(position, child.startIndex);
      if (!/^(?:[ \t\n]|\\\n)*$/.test(gap)) {
        this.fail(`part of it is not understood (${JSON.stringify(gap.trim().slice(0, 40))})`);
        return;
      }
      this.checkGaps(child);
      position = Math.max(position, child.endIndex);
    }
  }

  statement(node: SyntaxNode, scope: Scope): void {
    const type = node.type;
    if (SEQUENCES.has(type)) {
      if (type === "case_item") this.caseItem(node, scope);
      else for (const child of node.children) if (child) this.statementChild(child, scope);
      return;
    }
    switch (type) {
      case "command":
        this.command(node, scope);
        return;
      case "redirected_statement":
        this.redirected(node, scope);
        return;
      case "pipeline":
        this.pipeline(node, scope);
        return;
      case "subshell": {
        const inner = forked(scope);
        for (const child of node.children) if (child) this.statementChild(child, inner);
        return;
      }
      case "negated_command":
        for (const child of node.children) if (child) this.statementChild(child, scope);
        return;
      case "function_definition":
        this.functionDefinition(node, scope);
        return;
      case "variable_assignment":
      case "variable_assignments":
        this.script.features.add(FEATURE.assignment);
        this.nestedIn(node, scope);
        return;
      case "declaration_command":
      case "unset_command":
        this.declaration(node, scope);
        return;
      case "test_command":
        this.script.features.add(FEATURE.test);
        this.nestedIn(node, scope);
        return;
      case "comment":
        this.script.features.add(FEATURE.comment);
        return;
      case "ERROR":
        this.fail(`bash cannot parse it (near ${JSON.stringify(node.text.slice(0, 40))})`);
        return;
    }
    if (CONTROL_FLOW.has(type)) {
      this.script.features.add(FEATURE.controlFlow);
      for (const child of node.children) if (child) this.statementChild(child, scope);
      return;
    }
    this.fail(`it contains ${type.replaceAll("_", " ")}, which hx does not read`);
  }

  /** A child of a statement container: a statement, a separator, or a word (for/case values). */
  private statementChild(child: SyntaxNode, scope: Scope): void {
    if (!child.isNamed) {
      if (child.type === ";;" || child.type === ";&" || child.type === ";;&") {
        this.fail(`'${child.type}' outside a case statement`);
      }
      return;
    }
    if (WORD_TYPES.has(child.type) || child.type === "variable_name") {
      this.word(child, scope, false);
      return;
    }
    if (
      child.type === "file_redirect" ||
      child.type === "heredoc_redirect" ||
      child.type === "herestring_redirect"
    ) {
      // A redirect outside a redirected_statement (e.g. after a loop): applies to nothing we run.
      this.redirect(child, scope);
      return;
    }
    this.statement(child, scope);
  }

  private caseItem(node: SyntaxNode, scope: Scope): void {
    for (const child of node.children) {
      if (!child?.isNamed) continue;
      if (WORD_TYPES.has(child.type)) this.word(child, scope, false);
      else this.statement(child, scope);
    }
  }

  private functionDefinition(node: SyntaxNode, scope: Scope): void {
    this.script.features.add(FEATURE.function);
    const name = node.childForFieldName("name")?.text ?? "";
    this.script.functions.set(name, { callsItself: false });
    const body = node.childForFieldName("body");
    if (body) this.statement(body, { ...forked(scope), inFunction: name });
    for (const child of node.children) {
      if (child && (child.type === "file_redirect" || child.type === "herestring_redirect")) {
        this.redirect(child, scope);
      }
    }
  }

  private declaration(node: SyntaxNode, scope: Scope): void {
    this.script.features.add(FEATURE.assignment);
    const words: ShellWord[] = [{ source: node.child(0)?.type ?? "declare", literal: true, splits: false }];
    for (const child of node.children.slice(1)) {
      if (!child?.isNamed) continue;
      words.push(this.word(child, scope, false));
    }
    this.record({ words, assignments: [], redirects: [...scope.redirects] }, scope);
  }

  private redirected(node: SyntaxNode, scope: Scope): void {
    const redirects: ShellRedirect[] = [];
    const after: SyntaxNode[] = [];
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === "file_redirect" || child.type === "herestring_redirect") {
        redirects.push(this.redirect(child, scope));
      } else if (child.type === "heredoc_redirect") {
        redirects.push(this.redirect(child, scope));
        // `cat <<EOF | sh` and `cat <<EOF && x`: the rest of the line hangs under the here-document.
        for (const part of child.children) {
          if (part?.isNamed && !HEREDOC_PARTS.has(part.type)) after.push(part);
        }
      }
    }
    const body = node.childForFieldName("body");
    const before = this.script.commands.length;
    if (body) this.statement(body, { ...scope, redirects: [...scope.redirects, ...redirects] });
    const last = this.script.commands.length > before ? this.script.commands.at(-1) : undefined;
    for (const part of after) {
      const isPipe = part.type === "pipeline" && part.child(0)?.type === "|";
      if (!isPipe) {
        this.statement(part, scope);
        continue;
      }
      for (const element of part.namedChildren) {
        if (element) this.statement(element, { ...forked(scope), piped: true, pipedFrom: last });
      }
    }
  }

  private pipeline(node: SyntaxNode, scope: Scope): void {
    let previous: ShellCommand | undefined;
    let index = 0;
    for (const child of node.children) {
      if (!child?.isNamed) continue;
      const elementScope = forked(scope);
      if (index > 0) {
        elementScope.piped = true;
        elementScope.pipedFrom = previous;
      }
      const before = this.script.commands.length;
      this.statement(child, elementScope);
      const added = this.script.commands.slice(before).filter((command) => !command.nested);
      previous = added.length === 1 ? added[0] : undefined;
      index += 1;
    }
  }

  private command(node: SyntaxNode, scope: Scope): void {
    const wordNodes: SyntaxNode[] = [];
    const assignments: ShellWord[] = [];
    const redirects = [...scope.redirects];
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === "variable_assignment") {
        this.script.features.add(FEATURE.assignment);
        assignments.push(this.word(child, scope, true));
      } else if (child.type === "command_name") {
        const name = child.namedChild(0);
        if (name) wordNodes.push(name);
      } else if (
        child.type === "file_redirect" ||
        child.type === "herestring_redirect" ||
        child.type === "heredoc_redirect"
      ) {
        redirects.push(this.redirect(child, scope));
      } else if (child.isNamed) {
        wordNodes.push(child);
      } else if (child.type === "$") {
        this.fail("it contains a lone '$' that hx does not read");
      }
    }
    this.record({ words: this.words(wordNodes, scope), assignments, redirects }, scope);
  }

  /**
   * Words from their nodes. tree-sitter sometimes splits one bash word into nodes that touch
   * (`'c'\url` is a string and a word): bash splits only at blanks, so touching nodes are
   * one word.
   */
  private words(nodes: readonly SyntaxNode[], scope: Scope): ShellWord[] {
    const groups: ShellWord[][] = [];
    let end = -1;
    for (const node of nodes) {
      if (node.startIndex !== end || groups.length === 0) groups.push([]);
      this.wordParts(node, scope, groups[groups.length - 1], false, false);
      end = node.endIndex;
    }
    return groups.map(joinParts);
  }

  private record(parts: Pick<ShellCommand, "words" | "assignments" | "redirects">, scope: Scope): void {
    const command: ShellCommand = {
      ...parts,
      cwd: scope.cwd.value,
      piped: scope.piped === true,
      pipedFrom: scope.pipedFrom,
      nested: scope.nested === true,
    };
    this.script.commands.push(command);
    const name = command.words[0];
    if (scope.inFunction !== undefined && name?.literal && sourceText(name.source) === scope.inFunction) {
      const fn = this.script.functions.get(scope.inFunction);
      if (fn) fn.callsItself = true;
    }
    this.followCd(command, scope);
  }

  /** `cd DIR` moves the folder later commands run in; somewhere unknown makes it undefined. */
  private followCd(command: ShellCommand, scope: Scope): void {
    const [name, ...args] = command.words;
    if (!name?.literal) return;
    const word = sourceText(name.source);
    if (word === "popd") scope.cwd.value = undefined;
    if (word !== "cd" && word !== "pushd") return;
    const operands = args.filter((arg) => !(arg.literal && /^-[LPe@]+$/.test(sourceText(arg.source))));
    if (operands.length === 0) {
      scope.cwd.value = this.home;
      return;
    }
    const target = operands[0];
    const text = sourceText(target.source);
    if (!target.literal || text === "-" || scope.cwd.value === undefined) {
      scope.cwd.value = undefined;
      return;
    }
    scope.cwd.value = resolveShellPath(target, scope.cwd.value, this.home);
  }

  private redirect(node: SyntaxNode, scope: Scope): ShellRedirect {
    if (node.type === "herestring_redirect") {
      this.script.features.add(FEATURE.hereString);
      const value = node.namedChildren.find((child) => child && child.type !== "file_descriptor");
      const word = value ? this.word(value, scope, false) : undefined;
      return {
        operator: "<<<",
        feedsText: true,
        input: word?.literal ? sourceText(word.source) : undefined,
      };
    }
    if (node.type === "heredoc_redirect") {
      this.script.features.add(FEATURE.hereDocument);
      const start = node.children.find((child) => child?.type === "heredoc_start")?.text ?? "";
      const body = node.children.find((child) => child?.type === "heredoc_body");
      const quoted = /['"\\]/.test(start);
      let input: string | undefined = body?.text ?? "";
      if (!quoted && body) {
        const before = this.script.commands.length;
        this.nestedIn(body, scope);
        if (
          this.script.commands.length > before ||
          body.namedChildren.some((c) => c?.type !== "heredoc_content")
        )
          input = undefined;
      }
      return { operator: node.child(0)?.type ?? "<<", feedsText: true, input };
    }
    let operator = "";
    const destination: SyntaxNode[] = [];
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === "file_descriptor") continue;
      if (!child.isNamed) operator = child.type;
      else if (WORD_TYPES.has(child.type)) destination.push(child);
    }
    const [target, ...more] = this.words(destination, scope);
    if (more.length > 0) this.fail("a redirection has more than one target");
    // `2>&1`, `>&2`, `<&0`, `>&-`: fd duplications, not files.
    if (
      (operator === ">&" || operator === "<&") &&
      target?.literal &&
      /^(\d+|-)$/.test(sourceText(target.source))
    ) {
      return { operator };
    }
    if (operator === ">&-" || operator === "<&-") return { operator };
    return { operator, target };
  }

  /** Walks a node that is not itself run (a test, an assignment, a here-document) for what it runs. */
  private nestedIn(node: SyntaxNode, scope: Scope): void {
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === "command_substitution" || child.type === "process_substitution") {
        this.word(child, scope, false);
      } else if (WORD_TYPES.has(child.type)) {
        this.word(child, scope, false);
      } else if (child.childCount > 0) {
        this.nestedIn(child, scope);
      }
    }
  }

  /** Reads one word; what it runs (`$(…)`) is recorded as commands of its own. */
  word(node: SyntaxNode, scope: Scope, assignment: boolean): ShellWord {
    const parts: ShellWord[] = [];
    this.wordParts(node, scope, parts, false, assignment);
    return joinParts(parts);
  }

  private quoted(out: ShellWord[], value: string): void {
    if (SYNTAX_IN_QUOTES.test(value)) this.script.features.add(FEATURE.quotedSyntax);
    out.push({ source: quotedSource(value), literal: true, splits: false });
  }

  private wordParts(
    node: SyntaxNode,
    scope: Scope,
    out: ShellWord[],
    quoted: boolean,
    assignment: boolean,
  ): void {
    const text = node.text;
    const dynamic = (feature: string, splits = !quoted): void => {
      this.script.features.add(feature);
      out.push({ source: DYNAMIC, literal: false, splits });
    };
    switch (node.type) {
      case "word":
      case "number":
      case "variable_name":
      case "special_variable_name":
      case "file_descriptor":
      case "heredoc_content":
        if (quoted) {
          this.quoted(out, doubleQuotedText(text));
          return;
        }
        if (hasUnquotedMetacharacter(text))
          this.fail(`the word ${JSON.stringify(text.slice(0, 40))} is ambiguous`);
        out.push({ source: unquotedSource(text), literal: true, splits: false });
        return;
      case "extglob_pattern":
      case "brace_expression":
      case "regex":
      case "test_operator":
        out.push({ source: text, literal: true, splits: false });
        return;
      case "raw_string":
        this.quoted(out, text.slice(1, -1));
        return;
      case "ansi_c_string": {
        const value = decodeAnsiC(text.slice(2, -1));
        // \x01 and \x7f are bash's own internal quoting bytes: it splits words on them.
        if (/[\x01\x7f]/.test(value)) this.fail("it contains $'\\x01' or $'\\x7f', which bash mishandles");
        this.quoted(out, value);
        return;
      }
      case "string_content":
        this.quoted(out, doubleQuotedText(text));
        return;
      case "string":
      case "translated_string": {
        // tree-sitter leaves out whitespace-only stretches of a string: take them from the text.
        const whole = this.text;
        let position = node.startIndex + (node.type === "string" ? 1 : 2);
        const end = node.endIndex - 1;
        for (const child of node.children) {
          if (!child || child.startIndex < position || child.type === '"') continue;
          if (child.startIndex > position)
            this.quoted(out, doubleQuotedText(whole.slice(position, child.startIndex)));
          if (child.isNamed) this.wordParts(child, scope, out, true, assignment);
          else this.quoted(out, child.text);
          position = child.endIndex;
        }
        if (end > position) this.quoted(out, doubleQuotedText(whole.slice(position, end)));
        return;
      }
      case "concatenation":
        for (const child of node.children) {
          if (!child) continue;
          if (child.isNamed) this.wordParts(child, scope, out, quoted, assignment);
          else this.fail(`the word ${JSON.stringify(text.slice(0, 40))} is ambiguous`);
        }
        return;
      case "variable_assignment": {
        const name = node.childForFieldName("name")?.text ?? "";
        out.push({ source: quotedSource(`${name}=`), literal: true, splits: false });
        const value = node.childForFieldName("value");
        if (value) this.wordParts(value, scope, out, quoted, true);
        return;
      }
      case "array":
        for (const child of node.namedChildren)
          if (child) this.wordParts(child, scope, out, quoted, assignment);
        return;
      case "simple_expansion":
      case "expansion":
        this.nestedIn(node, scope);
        dynamic(FEATURE.expansion);
        return;
      case "arithmetic_expansion":
        this.nestedIn(node, scope);
        dynamic(FEATURE.arithmetic);
        return;
      case "command_substitution":
      case "process_substitution": {
        const feature =
          node.type === "command_substitution" ? FEATURE.commandSubstitution : FEATURE.processSubstitution;
        const inner: Scope = {
          ...forked(scope),
          redirects: [],
          nested: true,
          piped: false,
          pipedFrom: undefined,
        };
        for (const child of node.children) if (child?.isNamed) this.statement(child, inner);
        dynamic(feature);
        return;
      }
      default:
        this.fail(`it contains ${node.type.replaceAll("_", " ")} where a word should be`);
        out.push({ source: DYNAMIC, literal: false, splits: !quoted });
    }
  }
}

const WORD_TYPES = new Set([
  "word",
  "number",
  "string",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "concatenation",
  "simple_expansion",
  "expansion",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "brace_expression",
  "extglob_pattern",
  "array",
]);

const HEREDOC_PARTS = new Set(["heredoc_start", "heredoc_body", "heredoc_end", "file_descriptor"]);

function joinParts(parts: readonly ShellWord[]): ShellWord {
  return {
    source: parts.map((part) => part.source).join(""),
    literal: parts.every((part) => part.literal),
    splits: parts.some((part) => part.splits),
  };
}

/** A subshell (or pipeline element): its `cd`s do not move the shell around it. */
function forked(scope: Scope): Scope {
  return { ...scope, cwd: { value: scope.cwd.value } };
}

/**
 * An unquoted word the parser accepted but that holds characters bash would treat as
 * syntax: a sign the tree and bash disagree.
 */
function hasUnquotedMetacharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === "\\") {
      i += 1;
      continue;
    }
    if (";&|<>()`$'\" \t\n".includes(ch)) return true;
  }
  return false;
}

/**
 * Where a literal path word points: `~` and `~/x` from the home folder, relative paths
 * from `cwd`, `..` and `.` folded (symlinks are not resolved here). `~user` counts as that
 * user's home, `/home/user` style, so it is still judged as a home folder.
 */
export function resolveShellPath(word: ShellWord, cwd: string, home: string): string {
  const text = sourceText(word.source);
  if (word.source.startsWith("~")) {
    const slash = text.indexOf("/");
    const user = slash === -1 ? text.slice(1) : text.slice(1, slash);
    const rest = slash === -1 ? "" : text.slice(slash + 1);
    const base = user === "" ? home : path.join(path.dirname(home), user);
    return path.resolve(base, rest);
  }
  return path.resolve(cwd, text);
}
