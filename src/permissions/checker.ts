import os from "node:os";
import path from "node:path";
import { isInside, realPathOf } from "../tools/workspace.js";
import { type BashParser, createBashParserLoader } from "./bash-parser.js";
import { type CommandLine, readCommandLine } from "./command-line.js";
import {
  decideCall,
  type PermissionDecision,
  type PermissionPolicy,
  type PreToolUseVerdict,
  READ_RULE_TOOL,
  WRITE_RULE_TOOL,
} from "./decide.js";
import type { PermissionMode } from "./modes.js";
import { isReadOnlyName, readOnlyCall } from "./read-only-commands.js";
import { RuleSet } from "./rule-set.js";
import { type PermissionRules, parseRule, type RuleTarget } from "./rules.js";
import type { ScopedPermissionRules } from "./scoped-rules.js";
import { sourceText } from "./shell-words.js";

export interface PermissionCheckerOptions {
  /** The mode, or a function giving the current one (the interactive session can change it). */
  mode: PermissionMode | (() => PermissionMode);
  rules: PermissionRules;
  /** The workspace root, a real path. */
  root: string;
  home?: string;
  /** Allow the built-in read-only commands without a rule (default true). */
  readOnlyCommands?: boolean;
  /** Loads the bash parser; default: web-tree-sitter on first use. */
  loadParser?: () => Promise<BashParser>;
  /** Lists what a glob argument names; default: tinyglobby, loaded with the parser. */
  loadGlob?: () => Promise<(pattern: string) => string[]>;
  /** Rules held for a while (an active skill's allowed-tools, disallowed-tools), read at each call. */
  scopedRules?: () => ScopedPermissionRules | undefined;
}

/** A decision with what it was based on. */
export interface PermissionCheck {
  target: RuleTarget;
  decision: PermissionDecision;
  /** The command line as the parser read it (execute tools). */
  line?: CommandLine;
  /**
   * What an "always" answer saves: the exact commands (or path) no rule covers yet, never a
   * wildcard. Empty when no rule could ever cover the call (protected paths, substitutions, …).
   */
  alwaysRules: string[];
}

/**
 * The permission check of one session (and its subagents): the rules indexed once, the bash
 * parser loaded on the first command, "always" answers added as they come. Used by the loop
 * extension and by `hx permissions check`, so both decide alike.
 */
export class PermissionChecker {
  private readonly allow: RuleSet;
  private readonly ask: RuleSet;
  private readonly deny: RuleSet;
  private readonly loadParser: () => Promise<BashParser>;
  private readonly loadGlob: () => Promise<(pattern: string) => string[]>;
  private readonly home: string;

  constructor(private readonly options: PermissionCheckerOptions) {
    this.allow = new RuleSet(options.rules.allow);
    this.ask = new RuleSet(options.rules.ask);
    this.deny = new RuleSet(options.rules.deny);
    this.loadParser = options.loadParser ?? createBashParserLoader();
    this.loadGlob = options.loadGlob ?? createGlobLoader();
    this.home = options.home ?? os.homedir();
  }

  get mode(): PermissionMode {
    return typeof this.options.mode === "function" ? this.options.mode() : this.options.mode;
  }

  /** Decides a call with every input (decide.ts): the rules, the mode, the skills' rules, `hook`. */
  async check(target: RuleTarget, inputs: { hook?: PreToolUseVerdict } = {}): Promise<PermissionCheck> {
    let line: CommandLine | undefined;
    if (target.effect === "execute" && target.subject !== undefined) {
      try {
        const [parser, expandGlob] = await Promise.all([this.loadParser(), this.loadGlob()]);
        line = readCommandLine(parser, target.subject, {
          cwd: this.options.root,
          home: this.home,
          isReadOnlyName,
          expandGlob,
        });
      } catch {
        line = undefined;
      }
    }
    const decision = decideCall({
      target: { ...target, root: this.options.root },
      policy: this.policy(),
      line,
      scoped: this.options.scopedRules?.(),
      hook: inputs.hook,
    });
    return {
      target,
      decision,
      line,
      alwaysRules:
        decision.action === "ask"
          ? alwaysRules(
              target,
              decision,
              line,
              this.allow,
              this.options.root,
              this.options.readOnlyCommands !== false,
            )
          : [],
    };
  }

  /** Adds rules (an "always" answer) for the rest of the session. */
  addAllowRules(rules: readonly string[]): void {
    for (const text of rules) {
      const parsed = parseRule(text);
      if (!("error" in parsed)) this.allow.add(parsed);
    }
  }

  /** True when a `read_file` deny rule covers this real path (glob and grep leave it out). */
  isReadDenied(absolute: string): boolean {
    return this.deny.matchPath(READ_RULE_TOOL, absolute, this.options.root) !== undefined;
  }

  private policy(): PermissionPolicy {
    return {
      mode: this.mode,
      allow: this.allow,
      ask: this.ask,
      deny: this.deny,
      root: this.options.root,
      home: this.home,
      readOnlyCommands: this.options.readOnlyCommands !== false,
    };
  }
}

/** Most files one glob argument is taken to name. */
const MAX_GLOB_MATCHES = 1_000;

/**
 * Lists the files an absolute glob names, as bash would expand it (no dotfiles unless the
 * pattern starts with a dot, links not followed); tinyglobby is loaded on first use.
 */
function createGlobLoader(): () => Promise<(pattern: string) => string[]> {
  let loading: Promise<(pattern: string) => string[]> | undefined;
  return () => {
    loading ??= Promise.all([import("tinyglobby"), import("picomatch")]).then(
      ([{ globSync }, { default: picomatch }]) =>
        (pattern) => {
          const { base, glob } = picomatch.scan(pattern);
          try {
            return globSync(glob, {
              cwd: base || path.parse(pattern).root,
              absolute: true,
              dot: path.basename(pattern).startsWith("."),
              onlyFiles: false,
              expandDirectories: false,
              followSymbolicLinks: false,
            })
              .slice(0, MAX_GLOB_MATCHES)
              .map((file) => path.resolve(file));
          } catch {
            return [];
          }
        },
    );
    return loading;
  };
}

/**
 * The narrow rules "always" saves: for a command line, one exact rule per command no rule
 * covers yet (`bash(npm test)`); for a file, the exact path. A word that a pattern cannot
 * spell literally (one holding `*`, or both kinds of quote) means nothing is saved.
 */
function alwaysRules(
  target: RuleTarget,
  decision: PermissionDecision & { action: "ask" },
  line: CommandLine | undefined,
  allow: RuleSet,
  root: string,
  readOnlyCommands: boolean,
): string[] {
  if (decision.cause !== "unruled") return [];
  if (target.subject === undefined) return [target.tool];
  if (target.effect !== "execute") {
    return /[*?[\]{}()!]/.test(target.subject) ? [] : [`${target.tool}(${target.subject})`];
  }
  if (!line) return [];
  const rules: string[] = [];
  for (const command of line.commands) {
    const words = command.words.map((word) => sourceText(word.source));
    if (words.length === 0) continue;
    const literal = words.map((text) => ({ text, literal: true, splits: false, glob: false }));
    if (allow.matchCommand(target.tool, literal, { basename: false, dynamicMatches: false })) continue;
    if (readOnlyCommands && readOnlyCall(words)) continue;
    const spelled = words.map(patternWord);
    if (spelled.some((word) => word === undefined)) return [];
    const rule = `${target.tool}(${spelled.join(" ")})`;
    if (!rules.includes(rule)) rules.push(rule);
  }
  // What a wrapper runs (`timeout 5 rm x` runs `rm x`) needs its own rule.
  for (const view of line.views) {
    if (!view.runBy) continue;
    if (!view.words.every((word) => word.literal)) return [];
    const words = view.words.map((word) => word.text);
    if (allow.matchCommand(target.tool, view.words, { basename: false, dynamicMatches: false })) continue;
    if (readOnlyCommands && readOnlyCall(words)) continue;
    const spelled = words.map(patternWord);
    if (spelled.some((word) => word === undefined)) return [];
    const rule = `${target.tool}(${spelled.join(" ")})`;
    if (!rules.includes(rule)) rules.push(rule);
  }
  for (const written of line.fileWrites) {
    const real = realPathOf(written);
    if (!isInside(real, root) || allow.matchPath(WRITE_RULE_TOOL, real, root)) continue;
    const relative = path.relative(root, real).split(path.sep).join("/");
    if (/[*?[\]{}()!]/.test(relative)) return [];
    const rule = `${WRITE_RULE_TOOL}(${relative})`;
    if (!rules.includes(rule)) rules.push(rule);
  }
  return rules;
}

/** A word as a command pattern spells it literally, or undefined when it cannot be. */
function patternWord(word: string): string | undefined {
  if (word.includes("*")) return undefined;
  if (/^[^\s'"]+$/.test(word)) return word;
  if (!word.includes("'")) return `'${word}'`;
  if (!word.includes('"')) return `"${word}"`;
  return undefined;
}
