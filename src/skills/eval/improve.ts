import { splitFrontmatter } from "../parse.js";
import { hasControlCharacters } from "../skill-fields.js";
import type { Skill } from "../types.js";
import { MAX_DESCRIPTION_LENGTH } from "../validate.js";
import type { SkillEvalResult, SplitFigures } from "./metrics.js";

/** One description tried by `hx skills eval --improve`, with its figures. */
export interface Attempt {
  /** 0 = the description the loop started from. */
  iteration: number;
  description: string;
  result: SkillEvalResult;
}

/** Share of a split's queries that passed (0 when the split has none). */
export function passRate(figures: SplitFigures): number {
  return figures.queries === 0 ? 0 : figures.passed / figures.queries;
}

/**
 * Whether `a` beats `b`: a higher validation pass rate, then (equal) a higher train pass rate.
 * Validation decides, so a description tuned to the train queries alone does not win.
 */
export function beats(a: SkillEvalResult, b: SkillEvalResult): boolean {
  const va = passRate(a.validation);
  const vb = passRate(b.validation);
  if (va !== vb) return va > vb;
  return passRate(a.train) > passRate(b.train);
}

/**
 * The request to the model for a better description: the skill, the description now, and the
 * train queries it got wrong (and the earlier attempts' train figures). The validation queries
 * are never shown: they judge the proposal.
 */
export function improvementRequest(
  skill: Skill,
  attempts: readonly Attempt[],
): { system: string; user: string } {
  const current = attempts[attempts.length - 1]!;
  const failures = current.result.queryResults.filter((q) => q.split === "train" && !q.passed);
  const misses = failures.filter((q) => q.shouldTrigger).map((q) => `- ${q.query}`);
  const falseTriggers = failures.filter((q) => !q.shouldTrigger).map((q) => `- ${q.query}`);
  const tried = attempts.map(
    (a) =>
      `- ${JSON.stringify(a.description)}: train ${a.result.train.passed}/${a.result.train.queries} passed`,
  );
  const body = skill.body.length > 4000 ? `${skill.body.slice(0, 4000)}\n[…]` : skill.body;
  const system = [
    "You improve the description of an agent skill. An agent sees only each skill's name and",
    "description in a catalog and decides from them alone whether to load the skill for a request.",
    `Write one description (at most ${MAX_DESCRIPTION_LENGTH} characters, plain text, no line breaks)`,
    "that makes the agent load this skill for the requests it should handle and not for the others:",
    "say what the skill does and when to use it, in the words users use. Do not list the example",
    "requests. Answer with the description alone between <description> and </description>.",
  ].join("\n");
  const user = [
    `Skill name: ${skill.name}`,
    `Current description: ${current.description}`,
    "",
    "The skill's instructions:",
    body,
    "",
    misses.length > 0
      ? `Requests that should have loaded the skill but did not:\n${misses.join("\n")}`
      : "No request that should load the skill was missed.",
    "",
    falseTriggers.length > 0
      ? `Requests that loaded the skill but should not have:\n${falseTriggers.join("\n")}`
      : "No request loaded the skill by mistake.",
    "",
    `Descriptions tried so far:\n${tried.join("\n")}`,
  ].join("\n");
  return { system, user };
}

/** The description in the model's answer (`<description>…</description>`, else the whole text), checked. */
export function parseProposal(text: string): { description: string } | { error: string } {
  const tagged = /<description>([\s\S]*?)<\/description>/i.exec(text);
  let description = (tagged ? tagged[1]! : text).replace(/\s+/g, " ").trim();
  if (/^".*"$/.test(description) || /^'.*'$/.test(description)) description = description.slice(1, -1).trim();
  if (description === "") return { error: "the model proposed an empty description" };
  if ([...description].length > MAX_DESCRIPTION_LENGTH)
    return { error: `the model proposed a description over ${MAX_DESCRIPTION_LENGTH} characters` };
  if (hasControlCharacters(description))
    return { error: "the model proposed a description with control characters" };
  return { description };
}

/**
 * SKILL.md with its frontmatter `description` replaced (as one double-quoted line, a block
 * scalar's lines removed); the rest of the file as it was (line ends as `\n`). Undefined when
 * the file has no frontmatter to change.
 */
export function replaceDescription(content: string, description: string): string | undefined {
  const text = content.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const split = splitFrontmatter(text);
  if (split.kind !== "ok" || split.openingText !== undefined) return undefined;
  const start = text.indexOf(split.yaml);
  if (start === -1) return undefined;
  const lines = split.yaml.split("\n");
  const at = lines.findIndex((line) => /^description\s*:/.test(line));
  const written = `description: ${JSON.stringify(description)}`;
  if (at === -1) {
    lines.push(written);
  } else {
    let end = at + 1;
    while (end < lines.length && (/^\s+\S/.test(lines[end]!) || lines[end]!.trim() === "")) end += 1;
    // Keep blank lines that precede the next key.
    while (end > at + 1 && lines[end - 1]!.trim() === "") end -= 1;
    lines.splice(at, end - at, written);
  }
  return text.slice(0, start) + lines.join("\n") + text.slice(start + split.yaml.length);
}
