import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import { isPlainObject, OPENING_TEXT_WARNING, parseYaml, splitFrontmatter } from "./parse.js";
import {
  codePointLength,
  HX_EXTENSION_FIELDS,
  hasControlCharacters,
  SKILL_FILE_NAMES,
} from "./skill-fields.js";
import { strictYamlProblem } from "./strict-yaml.js";

/**
 * `strict`: judge exactly as the reference validator does (skills-ref 0.1.0): hx's extension
 * fields are unexpected fields, and YAML flow collections, anchors and aliases are invalid
 * YAML. Use it before publishing a skill for agents that run the reference's rules.
 */
export interface ValidationOptions {
  strict?: boolean;
}

/**
 * The Agent Skills rules, with the reference validator's messages (skills-ref 0.1.0).
 * Deliberate differences are listed in docs/skills.md and in the conformance test.
 */
const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
const MAX_COMPATIBILITY_LENGTH = 500;

/** Fields the Agent Skills spec allows, sorted as the reference prints them. */
const ALLOWED_FIELDS = ["allowed-tools", "compatibility", "description", "license", "metadata", "name"];

/** What `hx skills validate --json` prints per skill. */
export interface SkillValidation {
  path: string;
  name: string;
  /** No error among the diagnostics. */
  valid: boolean;
  /** Errors and warnings, each with a `code`, the file and (for a field) its `keyPath`. */
  diagnostics: Diagnostic[];
}

/**
 * Validates a SKILL.md text; `dirName` is the folder it sits in (the name must match it).
 * `file` is put on every diagnostic.
 */
export function validateSkillContent(
  content: string,
  dirName: string | undefined,
  file?: string,
  options: ValidationOptions = {},
): Diagnostic[] {
  const at = (d: Diagnostic): Diagnostic => inFile(d, file);
  // The reference reads the file as written: a byte-order mark is text before the opening ---.
  if (options.strict && content.startsWith("\uFEFF"))
    return [at(error("skill.frontmatter.missing", "SKILL.md must start with YAML frontmatter (---)"))];
  const split = splitFrontmatter(content);
  if (split.kind === "none")
    return [at(error("skill.frontmatter.missing", "SKILL.md must start with YAML frontmatter (---)"))];
  if (split.kind === "unclosed")
    return [at(error("skill.frontmatter.unclosed", "SKILL.md frontmatter not properly closed with ---"))];
  const parsed = parseYaml(split.yaml);
  if (!parsed.ok)
    return [at(error("skill.frontmatter.yaml", `Invalid YAML in frontmatter: ${parsed.error}`))];
  const strictProblem = options.strict ? strictYamlProblem(split.yaml) : undefined;
  if (strictProblem)
    return [at(error("skill.frontmatter.yaml", `Invalid YAML in frontmatter: ${strictProblem}`))];
  if (!isPlainObject(parsed.value))
    return [at(error("skill.frontmatter.type", "SKILL.md frontmatter must be a YAML mapping"))];
  const found = validateFrontmatter(parsed.value, dirName, options).map(at);
  if (split.openingText !== undefined)
    found.unshift(at(warning("skill.frontmatter.opening-text", OPENING_TEXT_WARNING)));
  return found;
}

/** The reference's validate_metadata, plus warnings for hx extension fields. */
function validateFrontmatter(
  fields: Record<string, unknown>,
  dirName: string | undefined,
  options: ValidationOptions = {},
): Diagnostic[] {
  const found: Diagnostic[] = [];
  const keys = Object.keys(fields);
  const extensions = options.strict ? [] : HX_EXTENSION_FIELDS;
  const unexpected = keys
    .filter((k) => !ALLOWED_FIELDS.includes(k) && !extensions.includes(k))
    .sort(compareCodePoints);
  if (unexpected.length > 0) {
    found.push({
      ...error(
        "skill.field.unexpected",
        `Unexpected fields in frontmatter: ${unexpected.join(", ")}. Only [${ALLOWED_FIELDS.map((f) => `'${f}'`).join(", ")}] are allowed.`,
      ),
      ...(unexpected.length === 1 ? { keyPath: unexpected[0] } : {}),
    });
  }
  for (const key of keys.filter((k) => extensions.includes(k))) {
    found.push({
      ...warning(
        "skill.field.extension",
        `Field '${key}' is not in the Agent Skills spec (hx, Claude Code and pi read it; the reference validator rejects it)`,
      ),
      keyPath: key,
    });
  }
  const field = (key: string, problems: string[]) =>
    found.push(...problems.map((message) => ({ ...error(`skill.${key}.invalid`, message), keyPath: key })));
  if (!("name" in fields))
    found.push({
      ...error("skill.name.missing", "Missing required field in frontmatter: name"),
      keyPath: "name",
    });
  else field("name", validateName(fields.name, dirName));
  if (!("description" in fields))
    found.push({
      ...error("skill.description.missing", "Missing required field in frontmatter: description"),
      keyPath: "description",
    });
  else field("description", validateDescription(fields.description));
  if ("compatibility" in fields) field("compatibility", validateCompatibility(fields.compatibility));
  // A name with control characters already fails the character rule above.
  if (typeof fields.description === "string" && hasControlCharacters(fields.description)) {
    found.push({
      ...error(
        "skill.description.control",
        "Field 'description' contains control characters (they could drive the terminal or hide text); remove them",
      ),
      keyPath: "description",
    });
  }
  return found;
}

/** Name rules: 1–64 code points after NFKC, lowercase, letters/digits/hyphens, matches its folder. */
export function validateName(value: unknown, dirName: string | undefined): string[] {
  if (typeof value !== "string" || value.trim() === "") return ["Field 'name' must be a non-empty string"];
  const errors: string[] = [];
  const name = value.trim().normalize("NFKC");
  const length = codePointLength(name);
  if (length > MAX_NAME_LENGTH) {
    errors.push(`Skill name '${name}' exceeds ${MAX_NAME_LENGTH} character limit (${length} chars)`);
  }
  if (name !== name.toLowerCase()) errors.push(`Skill name '${name}' must be lowercase`);
  if (name.startsWith("-") || name.endsWith("-")) errors.push("Skill name cannot start or end with a hyphen");
  if (name.includes("--")) errors.push("Skill name cannot contain consecutive hyphens");
  if (!/^[\p{L}\p{N}-]*$/u.test(name)) {
    errors.push(
      `Skill name '${name}' contains invalid characters. Only letters, digits, and hyphens are allowed.`,
    );
  }
  if (dirName !== undefined && dirName.normalize("NFKC") !== name) {
    errors.push(`Directory name '${dirName}' must match skill name '${name}'`);
  }
  return errors;
}

export function validateDescription(value: unknown): string[] {
  if (typeof value !== "string" || value.trim() === "")
    return ["Field 'description' must be a non-empty string"];
  const length = codePointLength(value);
  return length > MAX_DESCRIPTION_LENGTH
    ? [`Description exceeds ${MAX_DESCRIPTION_LENGTH} character limit (${length} chars)`]
    : [];
}

function validateCompatibility(value: unknown): string[] {
  if (typeof value !== "string") return ["Field 'compatibility' must be a string"];
  const length = codePointLength(value);
  return length > MAX_COMPATIBILITY_LENGTH
    ? [`Compatibility exceeds ${MAX_COMPATIBILITY_LENGTH} character limit (${length} chars)`]
    : [];
}

/**
 * Validates one skill given as its folder or its SKILL.md. Never throws: a missing path or an
 * unreadable file is an error in the verdict.
 */
export function validateSkillPath(target: string, options: ValidationOptions = {}): SkillValidation {
  const absolute = path.resolve(target);
  const verdict = (file: string, name: string, diagnostics: Diagnostic[]): SkillValidation => ({
    path: file,
    name,
    valid: !diagnostics.some((d) => d.level === "error"),
    diagnostics,
  });
  let isDir: boolean;
  try {
    isDir = statSync(absolute).isDirectory();
  } catch {
    return verdict(absolute, path.basename(absolute), [
      inFile(error("skill.path.missing", `Path does not exist: ${absolute}`), absolute),
    ]);
  }
  const dir = isDir ? absolute : path.dirname(absolute);
  const file = isDir ? findSkillFile(dir) : absolute;
  if (!file)
    return verdict(absolute, path.basename(dir), [
      inFile(error("skill.file.missing", "Missing required file: SKILL.md"), dir),
    ]);
  let content: string;
  try {
    content = readFileSync(file, "utf8");
  } catch (problem) {
    return verdict(file, path.basename(dir), [
      inFile(
        error(
          "skill.unreadable",
          `Cannot read ${file}: ${(problem as NodeJS.ErrnoException).code ?? problem}`,
        ),
        file,
      ),
    ]);
  }
  return verdict(
    file,
    declaredName(content) ?? path.basename(dir),
    validateSkillContent(content, path.basename(dir), file, options),
  );
}

/** SKILL.md or skill.md in `dir` (exact case), or undefined. */
export function findSkillFile(dir: string): string | undefined {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  const found = SKILL_FILE_NAMES.find((name) => entries.includes(name));
  return found ? path.join(dir, found) : undefined;
}

function declaredName(content: string): string | undefined {
  const split = splitFrontmatter(content);
  if (split.kind !== "ok") return undefined;
  const parsed = parseYaml(split.yaml);
  if (!parsed.ok || !isPlainObject(parsed.value)) return undefined;
  const name = parsed.value.name;
  return typeof name === "string" && name.trim() !== "" ? name.trim() : undefined;
}

function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = left[i].codePointAt(0)! - right[i].codePointAt(0)!;
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

/** The diagnostic with its file, fields in reading order (level, code, file, keyPath, message). */
function inFile(d: Diagnostic, file: string | undefined): Diagnostic {
  return {
    level: d.level,
    code: d.code,
    ...(file ? { file } : {}),
    ...(d.keyPath ? { keyPath: d.keyPath } : {}),
    message: d.message,
  };
}

function error(code: string, message: string): Diagnostic {
  return { level: "error", code, message };
}

function warning(code: string, message: string): Diagnostic {
  return { level: "warning", code, message };
}
