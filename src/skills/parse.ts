import { errorMessage } from "../core/error-message.js";
import { parseSimpleYaml } from "./simple-yaml.js";
import {
  cleanControlCharacters,
  hasControlCharacters,
  readBoolean,
  readSkillFields,
  type SkillFields,
  unusableNameReason,
} from "./skill-fields.js";
import { yamlLibrary } from "./yaml-library.js";

/**
 * How a SKILL.md text splits into frontmatter and body. Delimiters are whole lines of exactly
 * `---` (trailing spaces allowed); a `---` inside a line or inside the body never splits.
 */
export type FrontmatterSplit =
  /**
   * `openingText`: what followed `---` on the opening line (`---name: x`); it is read as the
   * first YAML line, as the reference validator does, and deserves a warning.
   */
  | { kind: "ok"; yaml: string; body: string; openingText?: string }
  /** The text does not start with `---`. */
  | { kind: "none"; body: string }
  /** An opening `---` line with no closing one. */
  | { kind: "unclosed"; body: string };

export type YamlResult = { ok: true; value: unknown } | { ok: false; error: string };

/** A SKILL.md read leniently: always some name, description and body; never throws. */
export interface ParsedSkillFile extends SkillFields {
  name: string;
  description: string;
  body: string;
  frontmatter: Record<string, unknown>;
  warnings: string[];
  disableModelInvocation: boolean;
}

const DELIMITER = /^---[ \t]*$/;

export const OPENING_TEXT_WARNING =
  "the opening '---' line also holds text; read it as the first frontmatter line. Put '---' on a line of its own.";

/** Drops a BOM and turns CRLF into LF, as every reader of SKILL.md should. */
function normalizeNewlines(text: string): string {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return withoutBom.includes("\r\n") ? withoutBom.replace(/\r\n/g, "\n") : withoutBom;
}

export function splitFrontmatter(raw: string): FrontmatterSplit {
  const text = normalizeNewlines(raw);
  if (!text.startsWith("---")) return { kind: "none", body: trimBody(text) };
  const firstEnd = text.indexOf("\n");
  const firstLine = firstEnd === -1 ? text : text.slice(0, firstEnd);
  const openingText = DELIMITER.test(firstLine) ? undefined : firstLine.slice(3);
  if (firstEnd === -1) return { kind: "unclosed", body: openingText === undefined ? "" : trimBody(text) };
  let lineStart = firstEnd + 1;
  while (lineStart <= text.length) {
    const lineEnd = text.indexOf("\n", lineStart);
    const end = lineEnd === -1 ? text.length : lineEnd;
    if (DELIMITER.test(text.slice(lineStart, end))) {
      const yaml = text.slice(firstEnd + 1, lineStart);
      const body = trimBody(lineEnd === -1 ? "" : text.slice(lineEnd + 1));
      if (openingText === undefined) return { kind: "ok", yaml, body };
      return { kind: "ok", yaml: `${openingText}\n${yaml}`, body, openingText };
    }
    if (lineEnd === -1) break;
    lineStart = lineEnd + 1;
  }
  return { kind: "unclosed", body: trimBody(openingText === undefined ? text.slice(firstEnd + 1) : text) };
}

/**
 * Parses frontmatter YAML with the failsafe schema: every scalar stays the string written
 * (`1.0`, `true`, `null` included); mappings and sequences become objects and arrays.
 * Duplicate keys and tab indentation are errors, as in YAML itself. Empty text is `{}`.
 */
export function parseYaml(yaml: string): YamlResult {
  if (yaml.trim() === "") return { ok: true, value: {} };
  const simple = parseSimpleYaml(yaml);
  if (simple) return { ok: true, value: simple };
  try {
    const doc = yamlLibrary().parseDocument(yaml, {
      schema: "failsafe",
      uniqueKeys: true,
      logLevel: "silent",
    });
    if (doc.errors.length > 0) return { ok: false, error: doc.errors[0].message };
    return { ok: true, value: doc.toJS({ maxAliasCount: 100 }) ?? {} };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Reads a SKILL.md the way hx loads skills: strict YAML first, then a lenient repair for
 * invalid YAML common in the wild (an unquoted `description: Use when: ...`), then the seed's
 * fallbacks (no name: the folder name; no description: the first non-empty body line).
 * Every workaround leaves a warning. Never throws.
 */
export function parseSkillFile(raw: string, folderName: string): ParsedSkillFile {
  const warnings: string[] = [];
  let frontmatter: Record<string, unknown> = {};
  let body: string;
  try {
    const split = splitFrontmatter(raw);
    body = split.body;
    if (split.kind === "ok") {
      if (split.openingText !== undefined) warnings.push(OPENING_TEXT_WARNING);
      frontmatter = readFrontmatter(split.yaml, warnings);
    } else if (split.kind === "unclosed") {
      warnings.push("frontmatter is not closed with a '---' line; read the file as body only");
    } else {
      warnings.push("no YAML frontmatter (the file does not start with '---')");
    }
  } catch (error) {
    body = typeof raw === "string" ? raw : "";
    warnings.push(`could not parse the file (${errorMessage(error)})`);
  }

  const name = pickName(frontmatter.name, folderName, warnings);
  const description = clean(
    "description",
    pickDescription(frontmatter.description, body, warnings),
    warnings,
  );
  const disableModelInvocation = readBoolean(frontmatter, "disable-model-invocation", false, warnings);
  const fields = readSkillFields(frontmatter, warnings);
  return { name, description, body, frontmatter, warnings, disableModelInvocation, ...fields };
}

/** Control characters in a description could drive the terminal or hide text: dropped. */
function clean(field: string, value: string, warnings: string[]): string {
  if (!hasControlCharacters(value)) return value;
  warnings.push(`the ${field} contains control characters; they were removed`);
  return cleanControlCharacters(value);
}

function readFrontmatter(yaml: string, warnings: string[]): Record<string, unknown> {
  const strict = parseYaml(yaml);
  if (strict.ok) {
    if (isPlainObject(strict.value)) return strict.value;
    warnings.push("frontmatter is not a YAML mapping; ignored");
    return {};
  }
  const reason = firstLine(strict.error);
  const repaired = parseYaml(repairYaml(yaml));
  if (repaired.ok && isPlainObject(repaired.value)) {
    warnings.push(
      `frontmatter is not valid YAML (${reason}); read leniently. Quote values that contain ': ' and indent with spaces.`,
    );
    return repaired.value;
  }
  warnings.push(`frontmatter is not valid YAML (${reason}); read line by line. Fix the YAML.`);
  return readKeyValueLines(yaml);
}

/**
 * Quotes top-level plain values that YAML would misread (`description: Use when: x`) and
 * turns tab indentation into spaces. Values already quoted, block scalars and empty values
 * are left alone.
 */
export function repairYaml(yaml: string): string {
  return yaml
    .split("\n")
    .map((line) => {
      const detabbed = line.replace(/^\t+/, (tabs) => "  ".repeat(tabs.length));
      const match = /^([A-Za-z0-9_.-]+):[ \t]+(\S.*?)[ \t]*$/.exec(detabbed);
      if (!match) return detabbed;
      const value = match[2];
      if (/^["'|>]/.test(value)) return detabbed;
      if (!/: |[#&*!%@`]|^[[{]|^-\s/.test(value)) return detabbed;
      return `${match[1]}: ${JSON.stringify(value)}`;
    })
    .join("\n");
}

/** Last resort: top-level `key: value` lines; indented lines continue the previous value. */
function readKeyValueLines(yaml: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  let current: { key: string; parts: string[]; block: "" | "|" | ">" } | undefined;
  const flush = () => {
    if (!current) return;
    const joined = current.block === "|" ? current.parts.join("\n") : current.parts.join(" ");
    result[current.key] = unquote(joined.trim());
  };
  for (const line of yaml.split("\n")) {
    const match = /^([A-Za-z0-9_.-]+):(?:[ \t]+(.*))?$/.exec(line);
    if (match) {
      flush();
      const value = (match[2] ?? "").trim();
      const block = /^[|>][+-]?$/.test(value) ? (value[0] as "|" | ">") : "";
      current = { key: match[1], parts: block || value === "" ? [] : [value], block };
    } else if (current && /^\s/.test(line)) {
      current.parts.push(line.trim());
    }
  }
  flush();
  return result;
}

function unquote(value: string): string {
  if (value.length >= 2 && /^(["']).*\1$/s.test(value)) return value.slice(1, -1);
  return value;
}

function pickName(value: unknown, folderName: string, warnings: string[]): string {
  if (typeof value === "string" && value.trim() !== "") {
    const name = value.trim();
    const unusable = unusableNameReason(name);
    if (unusable === undefined) return name;
    // Shown JSON-quoted: the raw name could hold a line break or an escape sequence.
    warnings.push(`'name' ${JSON.stringify(name)} cannot name a skill (${unusable}); using the folder name`);
    return folderName;
  }
  warnings.push(
    value === undefined
      ? `no 'name' in frontmatter; using the folder name '${folderName}'`
      : `'name' is not a non-empty string; using the folder name '${folderName}'`,
  );
  return folderName;
}

function pickDescription(value: unknown, body: string, warnings: string[]): string {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  const line = body
    .split("\n")
    .map((l) => l.replace(/^#+\s*/, "").trim())
    .find((l) => l !== "");
  warnings.push(
    `${value === undefined ? "no 'description' in frontmatter" : "'description' is not a non-empty string"}; ${
      line ? "using the first line of the body" : "the body is empty too"
    }. Write a description that says what the skill does and when to use it.`,
  );
  return line ?? "";
}

function trimBody(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}

function firstLine(text: string): string {
  const index = text.indexOf("\n");
  return (index === -1 ? text : text.slice(0, index)).trim();
}
