import type { SkillFields } from "./skill-fields.js";

/**
 * Where a skill was found; decides precedence (project > settings > user). Other producers
 * (an MCP server: `mcp:<server>`) add their own values; code compares, never parses them.
 */
export type SkillSource = "project" | "settings" | "user" | `mcp:${string}`;

/** One skill: a folder holding SKILL.md, parsed leniently (see parse.ts). */
export interface Skill extends SkillFields {
  /** The frontmatter `name`, or the folder name when it has none. */
  name: string;
  /** The frontmatter `description` as written (block scalars whole), or the first body line. */
  description: string;
  /** The Markdown after the frontmatter: what load_skill hands the model. */
  body: string;
  /** The skill's folder (absolute, as found; symlinks not resolved). */
  dir: string;
  /** The SKILL.md file (absolute). */
  file: string;
  source: SkillSource;
  /** Every frontmatter value, scalars kept as the strings written (`1.0` stays "1.0"). */
  frontmatter: Record<string, unknown>;
  /** What the lenient reader had to work around (invalid YAML, missing fields). */
  warnings: string[];
  /**
   * `disable-model-invocation: true`, or Codex's `agents/openai.yaml` with
   * `policy.allow_implicit_invocation: false`: out of the catalog, only the user can invoke it.
   */
  disableModelInvocation: boolean;
  /**
   * Set for a skill whose files are not in a folder on this machine (an MCP server's): `body`
   * is empty until loaded, `dir` and `file` are its URIs, never paths to read.
   */
  remote?: RemoteSkillFiles;
}

/** How a remote skill's files are reached. */
export interface RemoteSkillFiles {
  /**
   * Fetches SKILL.md and checks it against what was listed (digest, size, frontmatter); the
   * error is a sentence for the model.
   */
  fetchBody(signal?: AbortSignal): Promise<{ body: string } | { error: string }>;
  /** What follows the body when it is loaded: where its other files are and how to read them. */
  describeFiles(): string;
}
