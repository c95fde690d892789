/** The file names a skill folder may use, in order of preference (as the reference). */
export const SKILL_FILE_NAMES = ["SKILL.md", "skill.md"];

/** A UTF-16 surrogate: where code points and code units differ. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** Length in Unicode code points, as the spec (and Python's len) counts. */
export function codePointLength(text: string): number {
  // Most text has no surrogates: its code units are its code points (a regex test is native;
  // iterating a string is not, and the catalog measures 1,000 descriptions many times).
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * The frontmatter fields hx acts on beyond `name` and `description`, read from the values as
 * written (the failsafe YAML schema keeps every scalar a string). Each is optional; a value
 * of the wrong shape is ignored with a warning, never fatal.
 */
export interface SkillFields {
  /** `user-invocable: false`: the model may load it, `/name` is not offered to the user. */
  userInvocable: boolean;
  /** `argument-hint`: what `/name` expects, shown in `/skills` and completion (`[issue] [branch]`). */
  argumentHint?: string;
  /** `arguments`: names for the positional arguments, substituted as `$name` in the body. */
  argumentNames: string[];
  /** `allowed-tools`: permission rules pre-approved while the skill is active. */
  allowedTools: string[];
  /** `disallowed-tools`: permission rules refused while the skill is active. */
  disallowedTools: string[];
  /** `paths`: globs (from the project root); the skill stays out of the catalog until a tool touches a match. */
  paths: string[];
  /** `context: fork` (Claude Code): the skill runs in a subagent, its answer is the result. */
  fork: boolean;
  /** `agent` (Claude Code): the subagent type a fork runs as (`Explore`, `general-purpose`). */
  agent?: string;
  /** `model` (Claude Code): the model a fork, or the turn the user invokes it in, runs on. */
  model?: string;
  /** `when_to_use` (Claude Code): joins the description in the catalog line. */
  whenToUse?: string;
  /** `hooks` (Claude Code): hooks in the settings' format, in force while the skill is active. */
  hooks?: Record<string, unknown>;
}

/** The first `count` code points of `text` (a surrogate pair is never split). */
export function codePointSlice(text: string, count: number): string {
  return SURROGATE.test(text) ? [...text].slice(0, count).join("") : text.slice(0, count);
}

/**
 * Every frontmatter field hx knows: the spec's, and those of Claude Code, Codex and pi that hx
 * acts on. A skill using any other field gets one warning at load naming them all.
 */
const KNOWN_FIELDS = new Set([
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
  "argument-hint",
  "arguments",
  "disable-model-invocation",
  "disallowed-tools",
  "paths",
  "user-invocable",
  "context",
  "agent",
  "model",
  "when_to_use",
  "hooks",
]);

/** Fields outside the Agent Skills spec that hx reads (validation warns, strict validation rejects). */
export const HX_EXTENSION_FIELDS = [
  "agent",
  "argument-hint",
  "arguments",
  "context",
  "disable-model-invocation",
  "disallowed-tools",
  "hooks",
  "model",
  "paths",
  "user-invocable",
  "when_to_use",
];

const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function readSkillFields(frontmatter: Record<string, unknown>, warnings: string[]): SkillFields {
  const userInvocable = readBoolean(frontmatter, "user-invocable", true, warnings);
  const hint = frontmatter["argument-hint"];
  let argumentHint: string | undefined;
  if (typeof hint === "string" && hint.trim() !== "") argumentHint = cleanControlCharacters(hint.trim());
  else if (Array.isArray(hint)) argumentHint = hint.map(String).join(" "); // `argument-hint: [a] [b]` read as a flow list
  const argumentNames = readList(frontmatter, "arguments", warnings, splitWords).filter((name) => {
    if (ARGUMENT_NAME.test(name)) return true;
    warnings.push(`argument name '${name}' is not a name (letters, digits, _); ignored`);
    return false;
  });
  const ignored = Object.keys(frontmatter).filter((key) => !KNOWN_FIELDS.has(key));
  if (ignored.length > 0)
    warnings.push(`hx does not act on the field${ignored.length > 1 ? "s" : ""} ${ignored.join(", ")}`);
  const context = readText(frontmatter, "context", warnings);
  if (context !== undefined && context !== "fork" && context !== "inline")
    warnings.push(`'context' must be fork (or inline, the default); '${context}' runs inline`);
  const hooks = frontmatter.hooks;
  if (hooks !== undefined && (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)))
    warnings.push("'hooks' must be a mapping of hook events (as in settings); ignored");
  const model = readText(frontmatter, "model", warnings);
  const agent = readText(frontmatter, "agent", warnings);
  const whenToUse = readText(frontmatter, "when_to_use", warnings);
  return {
    userInvocable,
    argumentHint,
    argumentNames,
    allowedTools: readList(frontmatter, "allowed-tools", warnings, splitRules),
    disallowedTools: readList(frontmatter, "disallowed-tools", warnings, splitRules),
    paths: readList(frontmatter, "paths", warnings, splitPaths),
    fork: context === "fork",
    ...(agent ? { agent } : {}),
    ...(model && model !== "inherit" ? { model } : {}),
    ...(whenToUse ? { whenToUse } : {}),
    ...(typeof hooks === "object" && hooks !== null && !Array.isArray(hooks)
      ? { hooks: hooks as Record<string, unknown> }
      : {}),
  };
}

/** A one-line string field, trimmed, without control characters; undefined when absent. */
function readText(frontmatter: Record<string, unknown>, key: string, warnings: string[]): string | undefined {
  const value = frontmatter[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    warnings.push(`'${key}' must be a string; ignored`);
    return undefined;
  }
  const text = cleanControlCharacters(value.trim());
  return text === "" ? undefined : text;
}

/** `true`/`false` (any case); absent is the default; anything else warns and is the default. */
export function readBoolean(
  frontmatter: Record<string, unknown>,
  key: string,
  fallback: boolean,
  warnings: string[],
): boolean {
  const value = frontmatter[key];
  if (value === undefined) return fallback;
  const text = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (text === "true") return true;
  if (text === "false") return false;
  warnings.push(`'${key}' must be true or false; using ${fallback}`);
  return fallback;
}

function readList(
  frontmatter: Record<string, unknown>,
  key: string,
  warnings: string[],
  split: (text: string) => string[],
): string[] {
  const value = frontmatter[key];
  if (value === undefined) return [];
  if (typeof value === "string") return split(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return value.map((item) => item.trim()).filter((item) => item !== "");
  }
  warnings.push(`'${key}' must be a string or a list of strings; ignored`);
  return [];
}

function splitWords(text: string): string[] {
  return text.split(/[\s,]+/).filter((word) => word !== "");
}

function splitPaths(text: string): string[] {
  return text
    .split(/,|\n/)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/**
 * `Bash(git status:*) Read, Write(src/**)` → one rule per entry: entries are separated by
 * spaces or commas outside parentheses (the Agent Skills spec uses spaces, Claude Code commas).
 */
export function splitRules(text: string): string[] {
  const rules: string[] = [];
  let current = "";
  let depth = 0;
  for (const char of text) {
    if (char === "(") depth += 1;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      if (current.trim() !== "") rules.push(current.trim());
      current = "";
      continue;
    }
    current += char;
  }
  if (current.trim() !== "") rules.push(current.trim());
  return rules;
}

/** C0 and C1 control characters and DEL, tab and newline excepted. */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) return true;
  return false;
}

/** The text without control characters (an escape sequence loses its ESC and cannot act). */
export function cleanControlCharacters(text: string): string {
  if (!hasControlCharacters(text)) return text;
  let clean = "";
  for (let i = 0; i < text.length; i++) if (!isControl(text.charCodeAt(i))) clean += text[i];
  return clean;
}

/** Longer names are not used as a skill's name (the spec allows 64). */
const MAX_USABLE_NAME_LENGTH = 128;

/**
 * Why `name` cannot name a skill, or undefined when it can. A name goes raw into the catalog
 * line (`- name: ...`), the `<skill name="...">` tag, `/name` and the terminal, so it must be
 * one word: no whitespace (a newline would start a line of its own in the system prompt), no
 * control or invisible format characters (bidi overrides), no quotes, angle brackets or path
 * separators. Looser than the spec's rule (letters, digits, hyphens), so `Code_Review` or
 * `plugin:skill` from other tools still load.
 */
export function unusableNameReason(name: string): string | undefined {
  if (name === "") return "it is empty";
  if ([...name].length > MAX_USABLE_NAME_LENGTH)
    return `it is longer than ${MAX_USABLE_NAME_LENGTH} characters`;
  if (/[\p{Cc}\p{Cf}\p{Z}\s]/u.test(name))
    return "it contains whitespace, a line break or control characters";
  if (/["'<>/\\`]/.test(name)) return "it contains quotes, angle brackets or path separators";
  return undefined;
}

/** The fields of a skill whose frontmatter sets none of them. */
export function defaultSkillFields(): SkillFields {
  return {
    userInvocable: true,
    argumentNames: [],
    allowedTools: [],
    disallowedTools: [],
    paths: [],
    fork: false,
  };
}
