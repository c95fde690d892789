import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseSkillFile } from "../../src/skills/parse.js";
import { type SkillValidation, validateSkillPath } from "../../src/skills/validate.js";
import { tempDir } from "../support/temp-dir.js";
import { SHARED_DIR } from "./helpers.js";

const CASES_FILE = path.join(SHARED_DIR, "conformance", "agent-skills-cases.json");

/**
 * Cases where hx deliberately differs from the reference validator (skills-ref 0.1.0); each
 * is explained in docs/skills.md under "Differences from the reference validator".
 */
const DELIBERATE_DIFFERENCES: Record<string, { ours: string[]; reason: string }> = {
  flow_list_allowed_tools: {
    ours: [],
    reason: "YAML flow collections are standard YAML; the reference's strictyaml rejects them",
  },
  anchor_alias: { ours: [], reason: "anchors and aliases are standard YAML; strictyaml rejects them" },
  disable_model_invocation: {
    ours: [],
    reason: "hx reads disable-model-invocation, so it is a warning, not an error",
  },
};

interface ConformanceCase {
  id: string;
  dir: string;
  file: string;
  content: string;
  skills_ref: {
    validate: string[];
    read_properties?: { name: string; description: string };
  };
}

const YAML_PREFIX = "Invalid YAML in frontmatter:";

/** The error messages of a verdict, as the reference validator prints them. */
function errorsOf(verdict: SkillValidation): string[] {
  return verdict.diagnostics.filter((d) => d.level === "error").map((d) => d.message);
}

function sameMessages(ours: string[], reference: string[]): boolean {
  return (
    ours.length === reference.length &&
    ours.every((message, i) =>
      message.startsWith(YAML_PREFIX) ? reference[i].startsWith(YAML_PREFIX) : message === reference[i],
    )
  );
}

const cases: ConformanceCase[] = existsSync(CASES_FILE)
  ? (JSON.parse(readFileSync(CASES_FILE, "utf8")) as { cases: ConformanceCase[] }).cases
  : [];

describe.skipIf(cases.length === 0)("Agent Skills conformance (reference validator cases)", () => {
  const root = cases.length > 0 ? tempDir("hx-conformance-") : "";
  const verdicts = cases.map((c, index) => {
    const dir = path.join(root, String(index), c.dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, c.file), c.content);
    return { c, ours: validateSkillPath(dir), strict: validateSkillPath(dir, { strict: true }) };
  });

  it.each(verdicts.map((v) => [v.c.id, v] as const))(
    "%s --strict agrees with the reference",
    (_id, { c, strict }) => {
      expect(sameMessages(errorsOf(strict), c.skills_ref.validate), JSON.stringify(errorsOf(strict))).toBe(
        true,
      );
      expect(strict.valid).toBe(c.skills_ref.validate.length === 0);
    },
  );

  it.each(verdicts.map((v) => [v.c.id, v] as const))("%s", (_id, { c, ours }) => {
    const difference = DELIBERATE_DIFFERENCES[c.id];
    if (difference) {
      expect(sameMessages(errorsOf(ours), c.skills_ref.validate)).toBe(false);
      expect(errorsOf(ours)).toEqual(difference.ours);
      return;
    }
    expect(sameMessages(errorsOf(ours), c.skills_ref.validate), JSON.stringify(errorsOf(ours))).toBe(true);
    expect(ours.valid).toBe(c.skills_ref.validate.length === 0);
  });

  it("reads the same name and description as the reference wherever it reads any", () => {
    for (const c of cases) {
      const expected = c.skills_ref.read_properties;
      if (!expected) continue;
      const parsed = parseSkillFile(c.content, c.dir);
      expect({ id: c.id, name: parsed.name, description: parsed.description }).toEqual({
        id: c.id,
        name: expected.name,
        description: expected.description,
      });
    }
  });

  it("lists every deliberate difference against a case that exists", () => {
    const ids = new Set(cases.map((c) => c.id));
    for (const id of Object.keys(DELIBERATE_DIFFERENCES)) expect(ids.has(id), id).toBe(true);
    const matching = verdicts.filter(
      (v) => !DELIBERATE_DIFFERENCES[v.c.id] && sameMessages(errorsOf(v.ours), v.c.skills_ref.validate),
    ).length;
    expect(matching).toBe(cases.length - Object.keys(DELIBERATE_DIFFERENCES).length);
  });
});
