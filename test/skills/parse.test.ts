import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseSkillFile, parseYaml, repairYaml, splitFrontmatter } from "../../src/skills/parse.js";
import { parseSimpleYaml } from "../../src/skills/simple-yaml.js";
import { unusableNameReason } from "../../src/skills/skill-fields.js";

describe("splitFrontmatter", () => {
  it("splits on whole-line --- only; a --- inside the body stays in the body", () => {
    const split = splitFrontmatter("---\nname: a\ndescription: x --- y\n---\n# A\n\n---\nafter rule\n");
    expect(split).toMatchObject({ kind: "ok", yaml: "name: a\ndescription: x --- y\n" });
    expect(split.body).toBe("# A\n\n---\nafter rule");
  });

  it("accepts a BOM and CRLF", () => {
    const split = splitFrontmatter("\ufeff---\r\nname: a\r\ndescription: d\r\n---\r\nBody\r\n");
    expect(split).toEqual({ kind: "ok", yaml: "name: a\ndescription: d\n", body: "Body" });
  });

  it("reports missing and unclosed frontmatter", () => {
    expect(splitFrontmatter("# Title").kind).toBe("none");
    expect(splitFrontmatter("---\nname: a\n").kind).toBe("unclosed");
    expect(splitFrontmatter("---\nname: a\n...\nBody").kind).toBe("unclosed");
  });

  it("reads text after the opening --- as the first YAML line, flagged", () => {
    expect(splitFrontmatter("---name: a\ndescription: d\n---\nB")).toMatchObject({
      kind: "ok",
      yaml: "name: a\ndescription: d\n",
      openingText: "name: a",
    });
  });
});

describe("parseYaml", () => {
  it("keeps every scalar as the string written", () => {
    const result = parseYaml("name: true\nversion: 1.0\nmetadata:\n  version: 1.0\n  n: null\nx: 0x10\n");
    expect(result).toEqual({
      ok: true,
      value: { name: "true", version: "1.0", metadata: { version: "1.0", n: "null" }, x: "0x10" },
    });
  });

  it("keeps block scalars whole", () => {
    const literal = parseYaml("description: |\n  line one\n  line two\n");
    expect(literal).toEqual({ ok: true, value: { description: "line one\nline two\n" } });
    const folded = parseYaml("description: >\n  line one\n  line two\n\n  para two\n");
    expect(folded).toEqual({ ok: true, value: { description: "line one line two\npara two\n" } });
  });

  it("rejects duplicate keys and tab indentation", () => {
    expect(parseYaml("name: a\nname: b\n").ok).toBe(false);
    expect(parseYaml("metadata:\n\tauthor: x\n").ok).toBe(false);
  });
});

describe("parseSkillFile", () => {
  it("reads name, description, body and disable-model-invocation", () => {
    const parsed = parseSkillFile(
      "---\nname: my-skill\ndescription: Does X. Use when Y.\ndisable-model-invocation: true\n---\n\n# My\nSteps\n",
      "my-skill",
    );
    expect(parsed).toMatchObject({
      name: "my-skill",
      description: "Does X. Use when Y.",
      body: "# My\nSteps",
      disableModelInvocation: true,
      warnings: [],
    });
  });

  it("reads an unquoted 'description: Use when: ...' leniently, with a warning", () => {
    const parsed = parseSkillFile(
      "---\nname: a\ndescription: Use when: the user asks\nmetadata:\n  k: v\n---\nBody",
      "a",
    );
    expect(parsed.description).toBe("Use when: the user asks");
    expect(parsed.frontmatter.metadata).toEqual({ k: "v" });
    expect(parsed.warnings.join()).toMatch(/not valid YAML.*leniently/);
  });

  it("falls back line by line when the repair is not enough", () => {
    const parsed = parseSkillFile("---\nname: [broken\ndescription: d: e\n  more\n---\nBody", "dir");
    expect(parsed.name).toBe("[broken");
    expect(parsed.description).toBe("d: e more");
    expect(parsed.warnings.length).toBeGreaterThan(0);
  });

  it("uses the folder name and the first body line when fields are missing", () => {
    const parsed = parseSkillFile("---\nlicense: MIT\n---\n\n# Deploy the app\nmore", "deploy");
    expect(parsed.name).toBe("deploy");
    expect(parsed.description).toBe("Deploy the app");
    expect(parsed.warnings).toHaveLength(2);
  });

  it("handles a file with no frontmatter", () => {
    const parsed = parseSkillFile("Just instructions.\nMore.", "plain");
    expect(parsed).toMatchObject({
      name: "plain",
      description: "Just instructions.",
      body: "Just instructions.\nMore.",
    });
  });

  it("never throws, and always yields strings (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 300 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        (text, folder) => {
          const parsed = parseSkillFile(text, folder);
          return (
            typeof parsed.name === "string" &&
            typeof parsed.description === "string" &&
            typeof parsed.body === "string"
          );
        },
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            "---\n",
            "name: a\n",
            "description: x: y\n",
            "  - b\n",
            "|\n",
            "\t",
            "\r\n",
            "#",
            "\ufeff",
            "[",
            "&a ",
            "*a\n",
          ),
          { maxLength: 12 },
        ),
        (parts) => {
          parseSkillFile(parts.join(""), "f");
          return true;
        },
      ),
      { numRuns: 500 },
    );
  });

  it("round-trips any name and description written as quoted YAML (property)", () => {
    const text = fc.string({ minLength: 1, maxLength: 80 }).filter((s) => s.trim() !== "" && s === s.trim());
    fc.assert(
      fc.property(text, text, (name, description) => {
        const file = `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(description)}\n---\nBody\n`;
        const parsed = parseSkillFile(file, "folder");
        // A name that is not one word (spaces, quotes, line breaks) gives way to the folder name.
        const expectedName = unusableNameReason(name) === undefined ? name : "folder";
        return parsed.name === expectedName && parsed.description === description;
      }),
      { numRuns: 300 },
    );
  });
});

describe("parseSimpleYaml (fast path)", () => {
  it("agrees with the yaml package (failsafe) whenever it answers (property)", () => {
    const piece = fc.constantFrom(
      "a",
      "b",
      " ",
      ":",
      "-",
      "#",
      "'",
      '"',
      "|",
      ">",
      "\n",
      "  ",
      "x: y",
      "1.0",
      "true",
      "é",
      "[",
      "%",
      "---",
      "k:",
      "  k: v",
      "key: |",
      "key: >-",
      "\n  ",
      "v: ",
      "null",
      "~",
      "!",
      "&",
      "*",
      "\n  line",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const text = parts.join("");
        const simple = parseSimpleYaml(text);
        if (simple === undefined) return true;
        const expected = parse(text, { schema: "failsafe", uniqueKeys: true, logLevel: "silent" }) ?? {};
        expect(simple).toEqual(expected);
        return true;
      }),
      { numRuns: 5000 },
    );
  });

  it("declines what it does not handle", () => {
    expect(parseSimpleYaml("a: [x, y]\n")).toBeUndefined();
    expect(parseSimpleYaml("description: Use when: x\n")).toBeUndefined();
    expect(parseSimpleYaml("a: |\n  x\n\n  y\n")).toBeUndefined();
  });
});

describe("repairYaml", () => {
  it("quotes values YAML would misread and replaces tab indentation", () => {
    expect(repairYaml("description: Use when: x\nmetadata:\n\tk: v")).toBe(
      'description: "Use when: x"\nmetadata:\n  k: v',
    );
  });
});
