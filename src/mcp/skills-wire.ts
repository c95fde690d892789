import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";

// The wire shape of the MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`):
// `skills/list` (paginated, `{skills: Skill[], nextCursor?}`) and `skills/get {uri}`
// (`{skill: Skill}`) return entries; a file's bytes come from `resources/read`. Kept here,
// in one place, so a revision of the extension changes one module.

export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
/** Per-skill limits every host must accept (SEP-2640 "Limits"); larger skills are declined. */
export const MAX_SKILL_RESOURCES = 512;
const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/** One file of a skill: its URI, `sha256:<64 hex>` of its raw bytes, and their length. */
export interface SkillFileEntry {
  uri: string;
  digest: string;
  size: number;
}

/** A skill as a server lists it: the URI of its SKILL.md, the verbatim frontmatter, its files. */
export interface SkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: SkillFileEntry[];
  /** `skill://acme/refunds` for `skill://acme/refunds/SKILL.md`: the skill's files are below it. */
  root: string;
  /** The last segment of the root: it must equal the frontmatter's name. */
  folderName: string;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const SKILL_FILE = "/SKILL.md";

/**
 * Checks one entry of `skills/list` or `skills/get`. A malformed entry, a `"dynamic"` skill
 * (no digests to check: hx declines it) or one over the limits is a problem sentence.
 */
export function readSkillEntry(raw: unknown): SkillEntry | { problem: string; uri?: string } {
  const entry = (raw ?? {}) as Record<string, unknown>;
  const uri = typeof entry.uri === "string" ? entry.uri : undefined;
  if (!uri?.endsWith(SKILL_FILE)) return { problem: "an entry without the URI of a SKILL.md", uri };
  const frontmatter = entry.frontmatter;
  if (!frontmatter || typeof frontmatter !== "object" || Array.isArray(frontmatter))
    return { problem: "its entry has no frontmatter object", uri };
  if (entry.resources === "dynamic")
    return { problem: "its content is generated (resources: dynamic), so it has no digests to check", uri };
  if (!Array.isArray(entry.resources)) return { problem: "its entry has no file manifest (resources)", uri };
  const root = uri.slice(0, -SKILL_FILE.length);
  const resources: SkillFileEntry[] = [];
  for (const file of entry.resources as unknown[]) {
    const f = (file ?? {}) as Record<string, unknown>;
    if (
      typeof f.uri !== "string" ||
      typeof f.digest !== "string" ||
      !DIGEST.test(f.digest) ||
      typeof f.size !== "number" ||
      !Number.isInteger(f.size) ||
      f.size < 0
    )
      return { problem: "a file in its manifest lacks a uri, a sha256 digest or a size", uri };
    if (f.uri !== uri && !f.uri.startsWith(`${root}/`))
      return { problem: `its manifest names a file outside the skill (${f.uri})`, uri };
    resources.push({ uri: f.uri, digest: f.digest, size: f.size });
  }
  if (!resources.some((f) => f.uri === uri))
    return { problem: "its manifest does not list its SKILL.md", uri };
  const total = resources.reduce((n, f) => n + f.size, 0);
  if (resources.length > MAX_SKILL_RESOURCES || total > MAX_SKILL_BYTES)
    return {
      problem: `it is larger than a skill may be (${resources.length} files, ${total} bytes; at most ${MAX_SKILL_RESOURCES} files and 16 MiB)`,
      uri,
    };
  const folderName = root.slice(root.lastIndexOf("/") + 1);
  return { uri, frontmatter: frontmatter as Record<string, unknown>, resources, root, folderName };
}

/** The raw bytes of a `resources/read` content item (text as UTF-8, blobs decoded). */
export function contentBytes(content: { text?: unknown; blob?: unknown }): Buffer | undefined {
  if (typeof content.text === "string") return Buffer.from(content.text, "utf8");
  if (typeof content.blob === "string") return Buffer.from(content.blob, "base64");
  return undefined;
}

export function sha256Digest(bytes: Buffer): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Undefined when the bytes are what the manifest says; else what differs, for an error. */
export function verifyFile(file: SkillFileEntry, bytes: Buffer): string | undefined {
  const digest = sha256Digest(bytes);
  if (bytes.length === file.size && digest === file.digest) return undefined;
  return `the server listed ${file.size} bytes with ${file.digest}; it sent ${bytes.length} bytes with ${digest}`;
}

/**
 * Whether SKILL.md's frontmatter (read with YAML's failsafe schema: every scalar a string) is
 * the entry's (JSON: numbers and booleans too), compared value by value as text.
 */
export function sameFrontmatter(read: Record<string, unknown>, listed: Record<string, unknown>): boolean {
  return isDeepStrictEqual(asWritten(read), asWritten(listed));
}

/**
 * JSON frontmatter as YAML's failsafe schema reads the same text: numbers and booleans become
 * the strings written, a missing value "" (so a skill's fields are read as on disk).
 */
export function asWritten<T>(value: T): T;
export function asWritten(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asWritten);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asWritten(v)]));
  return value === null || value === undefined ? "" : String(value);
}
