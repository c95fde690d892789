import { describe, expect, it } from "vitest";
import type { ViewWord } from "../../src/permissions/command-line.js";
import { compileCommandPattern } from "../../src/permissions/command-pattern.js";
import { RuleSet } from "../../src/permissions/rule-set.js";
import { MAX_ALLOW_RULES, type PermissionRule, parseRule, parseRules } from "../../src/permissions/rules.js";
import { decideCommand } from "./support.js";

const rule = (text: string) => parseRule(text) as PermissionRule;
const words = (command: string): ViewWord[] =>
  command
    .trim()
    .split(/\s+/)
    .map((text) =>
      text === "$X"
        ? { text: "\u0000", literal: false, splits: true, glob: false }
        : { text, literal: true, splits: false, glob: false },
    );
const commandMatches = (pattern: string, command: string, deny = false) =>
  compileCommandPattern(pattern).matches(words(command), { basename: deny, dynamicMatches: deny });
const pathMatches = (pattern: string, subject: string, root?: string) =>
  new RuleSet([rule(`write_file(${pattern})`)]).matchPath("write_file", subject, root) !== undefined;

describe("parseRule", () => {
  it("reads bare names, tool(pattern) and treats tool(*) as bare", () => {
    expect(parseRule("read_file")).toEqual({ text: "read_file", tool: "read_file" });
    expect(parseRule("bash(git push*)")).toEqual({
      text: "bash(git push*)",
      tool: "bash",
      pattern: "git push*",
    });
    expect(parseRule("write_file(src/**)")).toMatchObject({ tool: "write_file", pattern: "src/**" });
    expect(parseRule("load_skill(deploy)")).toMatchObject({ tool: "load_skill", pattern: "deploy" });
    expect(parseRule("bash(*)")).toEqual({ text: "bash(*)", tool: "bash" });
    expect(parseRule("bash(echo (hi))")).toMatchObject({ pattern: "echo (hi)" });
  });

  it("reads Claude Code's tool names as hx's", () => {
    expect(parseRule("Bash(git status:*)")).toEqual({
      text: "Bash(git status:*)",
      tool: "bash",
      pattern: "git status:*",
    });
    expect(parseRule("Write(src/**)")).toMatchObject({ tool: "write_file", pattern: "src/**" });
    expect(parseRule("Edit")).toEqual({ text: "Edit", tool: "edit_file" });
    expect(parseRule("Read(.env)")).toMatchObject({ tool: "read_file", pattern: ".env" });
    expect(parseRule("TodoWrite")).toMatchObject({ tool: "todo_write" });
    // Names hx does not know stay as written (and match nothing).
    expect(parseRule("WebFetch")).toMatchObject({ tool: "WebFetch" });
    expect(commandMatches("git status:*", "git status --short")).toBe(true);
    expect(commandMatches("git status:*", "git statusx")).toBe(false);
  });

  it("rejects text that is not a rule, with a hint", () => {
    expect(parseRule("bash(")).toHaveProperty("error");
    expect(parseRule("git push")).toHaveProperty("error");
    expect(parseRule("bash()")).toMatchObject({ error: expect.stringContaining("empty pattern") });
  });

  it("turns bad entries into warnings", () => {
    const { rules, warnings } = parseRules({ allow: ["bash(ls*)", "not a rule"], deny: "bash" });
    expect(rules.allow).toHaveLength(1);
    expect(warnings).toHaveLength(2);
  });
});

describe("command patterns match word by word, at word boundaries", () => {
  it.each([
    ["git push*", "git push", true],
    ["git push*", "git push origin main", true],
    ["git push*", "git pushy", false],
    ["git push *", "git push", true],
    ["git push *", "git pushy", false],
    ["npm test*", "npm testx", false],
    ["npm test* *", "npm testx --watch", true],
    ["git:*", "git log --oneline", true],
    ["git:*", "git", true],
    ["git status", "git status", true],
    ["git status", "git status --short", false],
    ["npm run *", "npm  run   test", true],
    ["* --version", "node --version", true],
    ["git * main", "git push origin main", true],
    ["git * main", "git push origin dev", false],
    ["rm -rf build", "rm -rf build/..", false],
    ["ls *.txt", "ls a.txt", true],
    ["ls *.txt", "ls a.txt b.md", false],
    ["rm -rf /tmp/*", "rm -rf /tmp/x", true],
    ["git log --format=*", "git log --format=%H", true],
    ["echo a.b", "echo aXb", false],
    ['git commit -m "wip it"', "git commit -m wip it", false],
  ])("%s vs %s → %s", (pattern, command, expected) => {
    expect(commandMatches(pattern, command)).toBe(expected);
  });

  it("deny and ask rules compare the command name by its basename and let computed words match", () => {
    expect(commandMatches("curl *", "/usr/bin/curl x", true)).toBe(true);
    expect(commandMatches("curl *", "/usr/bin/curl x", false)).toBe(false);
    expect(commandMatches("git push --force*", "git push $X", true)).toBe(true);
    expect(commandMatches("git push --force*", "git $X", true)).toBe(true);
    expect(commandMatches("git push --force*", "git push $X", false)).toBe(false);
  });
});

describe("path patterns", () => {
  it.each([
    ["src/**", "src/a/b.ts", true],
    ["src/**", "./src/a.ts", true],
    ["src/**", "test/a.ts", false],
    ["src/*.ts", "src/a/b.ts", false],
    ["**/*.md", "docs/x.md", true],
    [".env*", ".env.local", true],
    ["deploy", "deploy", true],
    ["deploy", "deploy-prod", false],
  ])("%s vs %s → %s", (pattern, subject, expected) => {
    expect(pathMatches(pattern, subject)).toBe(expected);
  });

  it("matches absolute paths inside the root as relative ones", () => {
    expect(pathMatches("src/**", "/repo/src/a.ts", "/repo")).toBe(true);
    expect(pathMatches("src/**", "/elsewhere/src/a.ts", "/repo")).toBe(false);
  });
});

describe("command lines", () => {
  const setup = { allow: ["bash(make build*)", "bash(make test*)"] };

  it("deny matches any command of a line, wherever it stands", async () => {
    const deny = { deny: ["bash(git push*)"] };
    expect((await decideCommand(deny, "make && git push --force")).action).toBe("deny");
    expect((await decideCommand(deny, "echo $(git push)")).action).toBe("deny");
    expect((await decideCommand(deny, "sh -c 'git push'")).action).toBe("deny");
    expect((await decideCommand(deny, "make build")).action).toBe("ask");
  });

  it("allow needs every command allowed, and nothing hidden", async () => {
    expect((await decideCommand(setup, "make build && make test")).action).toBe("allow");
    expect((await decideCommand(setup, "make build && rm -rf build")).action).toBe("ask");
    expect((await decideCommand(setup, "make build; curl x | sh")).action).not.toBe("allow");
    expect(await decideCommand(setup, "make build $(touch x)")).toMatchObject({
      action: "ask",
      reason: expect.stringContaining("command substitution"),
    });
    expect((await decideCommand(setup, "make build > out.txt")).action).toBe("ask");
    expect((await decideCommand({ ...setup, mode: "acceptEdits" }, "make build > out.txt")).action).toBe(
      "allow",
    );
    expect((await decideCommand({ ...setup, mode: "acceptEdits" }, "make build > /tmp/out.txt")).action).toBe(
      "ask",
    );
    expect((await decideCommand(setup, "make build 2>&1 >/dev/null")).action).toBe("allow");
    expect((await decideCommand(setup, "FOO=1 make build")).action).toBe("ask");
    expect((await decideCommand(setup, "make build # comment")).action).toBe("ask");
  });

  it("an exact rule allows exactly its own line", async () => {
    expect(
      (await decideCommand({ allow: ["bash(make build && make check)"] }, "make build && make check")).action,
    ).toBe("allow");
  });

  it("tool names compare case-insensitively, so Claude Code's Bash(...) works", async () => {
    expect((await decideCommand({ allow: ["Bash(make:*)"] }, "make -j4")).action).toBe("allow");
  });
});

describe("rule lists that are too long", () => {
  it("ignores an allow list over the cap, with a message", () => {
    const { rules, warnings } = parseRules({ allow: new Array(MAX_ALLOW_RULES + 1).fill("bash(ls)") });
    expect(rules.allow).toHaveLength(0);
    expect(warnings[0]).toContain("all allow rules are ignored");
  });
});
