import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildSkillCatalog,
  CATALOG_HEADER,
  NAME_ONLY_PREFIX,
  resolveCatalogBudget,
  UNKNOWN_WINDOW_CATALOG_BUDGET,
} from "../../src/skills/catalog.js";
import { fakeSkill } from "./helpers.js";

const length = (text: string) => [...text].length;

describe("buildSkillCatalog", () => {
  it("lists `- name: description` sorted by name under its header, never a body", () => {
    const catalog = buildSkillCatalog([fakeSkill("sync-upstream"), fakeSkill("course-blog")]);
    expect(catalog.text).toBe(
      [CATALOG_HEADER, "- course-blog: Does course-blog.", "- sync-upstream: Does sync-upstream."].join("\n"),
    );
    expect(catalog.text).not.toContain("Steps.");
    expect(catalog.listed).toEqual(["course-blog", "sync-upstream"]);
  });

  it("is empty with no visible skills and leaves out disable-model-invocation ones", () => {
    expect(buildSkillCatalog([]).text).toBe("");
    const catalog = buildSkillCatalog([
      fakeSkill("a"),
      fakeSkill("manual", "m", { disableModelInvocation: true }),
    ]);
    expect(catalog.text).not.toContain("manual");
    expect(catalog.listed).toEqual(["a"]);
    expect(buildSkillCatalog([fakeSkill("manual", "m", { disableModelInvocation: true })]).text).toBe("");
  });

  it("collapses multi-line descriptions to one line", () => {
    const catalog = buildSkillCatalog([fakeSkill("a", "line one\nline two\n\n  para")]);
    expect(catalog.text.split("\n").at(-1)).toBe("- a: line one line two para");
  });

  it("is byte-identical for the same skills in any order", () => {
    const skills = ["c", "a", "b"].map((n) => fakeSkill(n, `Description of ${n} `.repeat(5)));
    const first = buildSkillCatalog(skills, { budget: 300 });
    expect(buildSkillCatalog([...skills].reverse(), { budget: 300 })).toEqual(first);
  });

  it("over budget, shortens descriptions evenly with … before dropping any", () => {
    const skills = ["a", "b", "c"].map((n) => fakeSkill(n, `${n.toUpperCase()} ${"word ".repeat(30)}end`));
    const full = buildSkillCatalog(skills).text;
    const budget = length(full) - 120;
    const catalog = buildSkillCatalog(skills, { budget });
    expect(length(catalog.text)).toBeLessThanOrEqual(budget);
    expect(catalog.shortened).toEqual(["a", "b", "c"]);
    expect(catalog.nameOnly).toEqual([]);
    const lines = catalog.text.split("\n").filter((l) => l.startsWith("- "));
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.endsWith("…"))).toBe(true);
    expect(new Set(lines.map((l) => length(l))).size).toBe(1);
  });

  it("then lists the rest by name only; every skill stays visible", () => {
    const skills = Array.from({ length: 30 }, (_, i) =>
      fakeSkill(`skill-${String(i).padStart(2, "0")}`, "x".repeat(200)),
    );
    const catalog = buildSkillCatalog(skills, { budget: 1000 });
    expect(catalog.nameOnly.length).toBeGreaterThan(0);
    expect(length(catalog.text)).toBeLessThanOrEqual(1000);
    for (const skill of skills) expect(catalog.text).toContain(skill.name);
    expect(catalog.text).toContain(NAME_ONLY_PREFIX);
    expect(catalog.overBudget).toBe(false);
  });

  it("never drops a skill, whatever the budget (property)", () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { maxLength: 40 }),
        fc.string({ maxLength: 300 }),
        fc.nat(5000),
        (names, description, budget) => {
          const catalog = buildSkillCatalog(
            names.map((n) => fakeSkill(n, description || n)),
            { budget },
          );
          const body = catalog.text.split("\n").slice(1).join("\n");
          for (const n of names) {
            const listed = body.includes(`- ${n}: `) || catalog.nameOnly.includes(n);
            if (!listed) return false;
          }
          return catalog.overBudget || length(catalog.text) <= budget || names.length === 0;
        },
      ),
      { numRuns: 200 },
    );
  });

  it("under a budget gives the text that building every candidate gives (property)", () => {
    // Descriptions with spaces and astral characters where a cut lands, of varied lengths.
    const description = fc
      .array(fc.constantFrom("word", " ", "  ", "é", "😀", "x".repeat(9)), { minLength: 1, maxLength: 60 })
      .map((parts) => parts.join("").trim() || "d");
    fc.assert(
      fc.property(fc.array(description, { minLength: 1, maxLength: 30 }), fc.nat(4000), (texts, budget) => {
        const skills = texts.map((t, i) => fakeSkill(`s-${String(i).padStart(2, "0")}`, t));
        return buildSkillCatalog(skills, { budget }).text === builtByRendering(skills, budget);
      }),
      { numRuns: 300 },
    );
  });

  it("costs at most 10 characters per skill beyond its name and description", () => {
    const skills = Array.from({ length: 50 }, (_, i) => fakeSkill(`s${i}`, `description ${i}`));
    const own = skills.reduce((sum, s) => sum + s.name.length + s.description.length, 0);
    const fixed = CATALOG_HEADER.length + 1;
    expect((buildSkillCatalog(skills).text.length - own - fixed) / skills.length).toBeLessThanOrEqual(10);
  });
});

describe("resolveCatalogBudget", () => {
  it("defaults to 2% of the context window at 4 chars per token; settings override", () => {
    expect(resolveCatalogBudget(128_000)).toBe(10_240);
    expect(resolveCatalogBudget(128_000, 0.05)).toBe(25_600);
    expect(resolveCatalogBudget(128_000, 4000)).toBe(4000);
  });

  it("for a window nobody knows, a default that keeps 100 skills with ~100-char descriptions whole", () => {
    expect(resolveCatalogBudget(32_768, undefined, false)).toBe(UNKNOWN_WINDOW_CATALOG_BUDGET);
    expect(resolveCatalogBudget(32_768, 0.05, false)).toBe(6553); // a setting still wins
    const skills = Array.from({ length: 100 }, (_, i) =>
      fakeSkill(
        `skill-${String(i).padStart(3, "0")}`,
        `${"Does a typical thing for the project; use it when ".padEnd(96, "x")} ${i}`,
      ),
    );
    const catalog = buildSkillCatalog(skills, { budget: UNKNOWN_WINDOW_CATALOG_BUDGET });
    expect(catalog.shortened).toEqual([]);
    expect(catalog.nameOnly).toEqual([]);
    for (const skill of skills) expect(catalog.text).toContain(skill.description);
  });
});

/** The catalog as the first version found it: rendering each candidate cap and cut-off whole. */
function builtByRendering(skills: ReturnType<typeof fakeSkill>[], budget: number): string {
  const entries = skills.map((s) => ({
    name: s.name,
    description: s.description.replace(/\s+/g, " ").trim(),
  }));
  const cut = (text: string, cap: number) =>
    length(text) <= cap
      ? text
      : `${[...text]
          .slice(0, cap - 1)
          .join("")
          .trimEnd()}…`;
  const render = (keep: number, cap: number) =>
    [
      CATALOG_HEADER,
      ...entries.slice(0, keep).map((e) => `- ${e.name}: ${cut(e.description, cap)}`),
      ...(keep < entries.length
        ? [
            `${NAME_ONLY_PREFIX}${entries
              .slice(keep)
              .map((e) => e.name)
              .join(", ")}`,
          ]
        : []),
    ].join("\n");
  const all = entries.length;
  if (length(render(all, Number.POSITIVE_INFINITY)) <= budget) return render(all, Number.POSITIVE_INFINITY);
  if (length(render(all, 24)) <= budget) {
    let cap = 24;
    while (length(render(all, cap + 1)) <= budget && cap < 10_000) cap += 1;
    return render(all, cap);
  }
  let keep = 0;
  while (keep + 1 < all && length(render(keep + 1, 24)) <= budget) keep += 1;
  return render(keep, 24);
}
