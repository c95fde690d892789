// `hx skills validate --strict` refuses what the reference validator's strictyaml refuses;
// loading and the default verdict stay lenient.
import { describe, expect, it } from "vitest";
import { validateSkillContent } from "../../src/skills/validate.js";

const errors = (content: string, strict: boolean) =>
  validateSkillContent(content, "x", undefined, { strict })
    .filter((d) => d.level === "error")
    .map((d) => d.message);

describe("validate --strict and strictyaml", () => {
  it.each([
    ["a core tag", "---\nname: x\ndescription: !!str y\n---\nbody\n", "tag !!str"],
    ["a local tag", "---\nname: x\ndescription: !custom y\n---\nbody\n", "tag !custom"],
    ["a tagged mapping", "---\nname: x\ndescription: y\nmetadata: !!map\n  a: b\n---\n", "tag !!map"],
    ["a flow mapping", "---\nname: x\ndescription: y\nmetadata: {a: b}\n---\n", "flow collection"],
    ["an anchor", "---\nname: x\ndescription: &d y\n---\n", "anchor &d"],
  ])("refuses %s", (_what, content, problem) => {
    expect(errors(content, false)).toEqual([]);
    const strict = errors(content, true);
    expect(strict).toHaveLength(1);
    expect(strict[0]).toMatch(/^Invalid YAML in frontmatter: /);
    expect(strict[0]).toContain(problem);
  });

  it("refuses a byte-order mark before the opening ---, as text before it", () => {
    const content = "\uFEFF---\nname: x\ndescription: y\n---\nbody\n";
    expect(errors(content, false)).toEqual([]);
    expect(errors(content, true)).toEqual(["SKILL.md must start with YAML frontmatter (---)"]);
    expect(errors(`\n${content.slice(1)}`, true)).toEqual([
      "SKILL.md must start with YAML frontmatter (---)",
    ]);
  });

  it("accepts a quoted value that looks like a tag", () => {
    expect(errors('---\nname: x\ndescription: "!!str y"\n---\n', true)).toEqual([]);
  });
});
