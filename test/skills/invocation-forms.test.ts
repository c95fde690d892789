import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitArguments, substituteArguments } from "../../src/skills/arguments.js";
import { buildSkillCatalog } from "../../src/skills/catalog.js";
import { discoverSkills } from "../../src/skills/discover.js";
import { expandSkillInvocation } from "../../src/skills/invoke.js";
import { parseSkillFile } from "../../src/skills/parse.js";
import { splitRules, unusableNameReason } from "../../src/skills/skill-fields.js";
import { validateSkillContent } from "../../src/skills/validate.js";
import { tempDir } from "../support/temp-dir.js";
import { fakeSkill, writeSkill } from "./helpers.js";

const parse = (frontmatter: string, body = "Body") =>
  parseSkillFile(`---\nname: x\ndescription: d\n${frontmatter}\n---\n${body}\n`, "x");

describe("frontmatter fields hx acts on", () => {
  it("reads user-invocable, argument-hint, arguments, allowed/disallowed tools and paths", () => {
    const parsed = parse(
      [
        "user-invocable: false",
        'argument-hint: "[issue] [branch]"',
        "arguments: issue branch",
        "allowed-tools: Bash(git status:*) Read, Write(src/**)",
        "disallowed-tools: [Bash(git push*)]",
        "paths:\n  - src/**/*.ts\n  - docs/*.md",
      ].join("\n"),
    );
    expect(parsed).toMatchObject({
      userInvocable: false,
      argumentHint: "[issue] [branch]",
      argumentNames: ["issue", "branch"],
      allowedTools: ["Bash(git status:*)", "Read", "Write(src/**)"],
      disallowedTools: ["Bash(git push*)"],
      paths: ["src/**/*.ts", "docs/*.md"],
    });
    expect(parsed.warnings).toEqual([]);
  });

  it("defaults to invocable by both, no rules, no paths; bad values warn", () => {
    expect(parse("")).toMatchObject({ userInvocable: true, disableModelInvocation: false, paths: [] });
    const bad = parse("user-invocable: maybe\narguments: ok 9bad");
    expect(bad.userInvocable).toBe(true);
    expect(bad.argumentNames).toEqual(["ok"]);
    expect(bad.warnings.join("\n")).toMatch(/user-invocable' must be true or false[\s\S]*9bad/);
  });

  it("splits rules on spaces and commas outside parentheses", () => {
    expect(splitRules("Bash(npm run test:*), Read  Grep")).toEqual(["Bash(npm run test:*)", "Read", "Grep"]);
  });

  it("reads Codex's agents/openai.yaml allow_implicit_invocation: false as disable-model-invocation", () => {
    const root = tempDir("hx-openai-yaml-");
    const dir = writeSkill(root, "manual", "name: manual\ndescription: by hand only");
    mkdirSync(path.join(dir, "agents"));
    writeFileSync(path.join(dir, "agents", "openai.yaml"), "policy:\n  allow_implicit_invocation: false\n");
    writeSkill(root, "auto", "name: auto\ndescription: the model may load it");
    const { skills } = discoverSkills({ cwd: root, extraPaths: [root], homeDir: tempDir() });
    expect(skills.map((s) => [s.name, s.disableModelInvocation])).toEqual([
      ["auto", false],
      ["manual", true],
    ]);
    expect(buildSkillCatalog(skills).listed).toEqual(["auto"]);
  });
});

describe("control characters", () => {
  it("fail validation and never reach the catalog", () => {
    const text = '---\nname: x\ndescription: "evil \\u001b[2Jclear"\n---\nBody\n';
    expect(
      validateSkillContent(text, "x")
        .map((d) => `${d.level} ${d.message}`)
        .join(),
    ).toMatch(/error Field 'description' contains control characters/);
    const parsed = parseSkillFile(text, "x");
    expect(parsed.description).toBe("evil [2Jclear");
    expect(parsed.warnings.join()).toMatch(/control characters/);
    const catalog = buildSkillCatalog([fakeSkill("y", "bell\u0007 and \u009b csi")]).text;
    expect(catalog).toContain("- y: bell and  csi");
  });
});

describe("names that cannot name a skill", () => {
  it("a name with whitespace, control or format characters, quotes or slashes falls back to the folder", () => {
    for (const bad of [
      "evil\nIGNORE",
      "two words",
      "tab\tname",
      "bidi\u202eeval",
      'q"uote',
      "a/b",
      "<x>",
      "x".repeat(129),
    ]) {
      expect(unusableNameReason(bad), bad).toBeDefined();
      const parsed = parseSkillFile(`---\nname: ${JSON.stringify(bad)}\ndescription: d\n---\nb\n`, "folder");
      expect(parsed.name).toBe("folder");
      expect(parsed.warnings.join()).toContain(`'name' ${JSON.stringify(bad)} cannot name a skill`);
    }
    for (const good of ["pdf", "Code_Review", "plugin:skill", "v1.2", "数据-分析"])
      expect(unusableNameReason(good)).toBeUndefined();
    // Whatever passes is one word that prints as itself: a catalog line stays one line.
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 20 }), (name) => {
        if (unusableNameReason(name) === undefined) {
          expect(name).not.toMatch(/\s|[\p{Cc}\p{Cf}"<>]/u);
          expect(
            buildSkillCatalog([fakeSkill(name, "d")])
              .text.split("\n")
              .filter((l) => l.startsWith("- ")),
          ).toEqual([`- ${name}: d`]);
        }
      }),
    );
  });
});

describe("arguments", () => {
  it("substitutes $ARGUMENTS, $1…$9, $ARGUMENTS[N] and named arguments", () => {
    const names = ["issue", "branch"];
    const run = (body: string, args: string) => substituteArguments(body, args, names);
    expect(run("all: $ARGUMENTS", 'fix "the bug"').text).toBe('all: fix "the bug"');
    expect(run("first $1, second $2", 'a "b c"').text).toBe("first a, second b c");
    expect(run("zero-based $0 then $1", "a b").text).toBe("zero-based a then b");
    expect(run("$ARGUMENTS[1]", "a b").text).toBe("b");
    expect(run("issue $issue on $branch ($issues stays)", "42 main").text).toBe(
      "issue 42 on main ($issues stays)",
    );
    expect(run("costs $5 and $100", "one").text).toBe("costs $5 and $100");
    expect(run("no placeholders", "x")).toEqual({ text: "no placeholders", substituted: false });
  });

  it("splits like shell words", () => {
    expect(splitArguments(`a 'b c' "d \\" e" f\\ g`)).toEqual(["a", "b c", 'd " e', "f g"]);
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9]{1,6}$/), { maxLength: 6 }), (words) => {
        expect(splitArguments(words.map((w) => `"${w}"`).join("  "))).toEqual(words);
      }),
    );
  });

  it("/name args fills the body, or appends the request when the body has no placeholder", () => {
    const templated = fakeSkill("fix", "d", { body: "Fix issue $issue.", argumentNames: ["issue"] });
    const plain = fakeSkill("plain", "d", { body: "Do it." });
    const a = expandSkillInvocation("/fix 42", [templated]);
    expect(a?.text).toContain("Fix issue 42.");
    expect(a?.text).not.toContain("with this request");
    const b = expandSkillInvocation("/plain now please", [plain]);
    expect(b?.text).toMatch(/Do it\.[\s\S]*with this request:\nnow please$/);
  });

  it("user-invocable: false skills are not expanded for the user", () => {
    const hidden = fakeSkill("bg", "d", { userInvocable: false });
    expect(expandSkillInvocation("/bg go", [hidden])).toBeUndefined();
  });
});
