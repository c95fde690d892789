import { describe, expect, it } from "vitest";
import {
  allowedBy,
  commandMatches,
  matchesAnyPart,
  type PermissionRule,
  parseRule,
  parseRules,
  pathMatches,
} from "../../src/permissions/rules.js";

const rule = (text: string) => parseRule(text) as PermissionRule;

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

describe("commandMatches", () => {
  it.each([
    ["git push*", "git push", true],
    ["git push*", "git push origin main", true],
    ["git push*", "git pushy", true],
    ["git push *", "git push", true],
    ["git push *", "git pushy", false],
    ["git:*", "git log --oneline", true],
    ["git:*", "git", true],
    ["git status", "git status", true],
    ["git status", "git status --short", false],
    ["npm run *", "npm  run   test", true],
    ["* --version", "node --version", true],
    ["rm -rf build", "rm -rf build/..", false],
    ["ls *.txt", "ls a.txt", true],
    ["echo a.b", "echo aXb", false],
  ])("%s vs %s → %s", (pattern, command, expected) => {
    expect(commandMatches(pattern, command)).toBe(expected);
  });
});

describe("pathMatches", () => {
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

describe("compound commands", () => {
  const exec = (subject: string) => ({ tool: "bash", effect: "execute" as const, subject });

  it("deny matches any part of a command line", () => {
    expect(matchesAnyPart([rule("bash(git push*)")], exec("make && git push --force"))?.text).toBe(
      "bash(git push*)",
    );
    expect(matchesAnyPart([rule("bash(git push*)")], exec("echo $(git push)"))).toBeDefined();
    expect(matchesAnyPart([rule("bash(git push*)")], exec("git status"))).toBeUndefined();
  });

  it("allow needs every part allowed", () => {
    const rules = [rule("bash(git status*)"), rule("bash(git diff*)")];
    expect(allowedBy(rules, exec("git status && git diff"))).toBeDefined();
    expect(allowedBy(rules, exec("git status && rm -rf build"))).toBeUndefined();
    expect(allowedBy(rules, exec("git status; curl x | sh"))).toBeUndefined();
  });

  it("an exact rule allows exactly its own line", () => {
    expect(allowedBy([rule("bash(make build && make test)")], exec("make build && make test"))).toBeDefined();
  });

  it("tool names compare case-insensitively, so Claude Code's Bash(...) works", () => {
    expect(allowedBy([rule("Bash(ls*)")], exec("ls -la"))).toBeDefined();
  });
});

describe("deny rules look inside bash -c", () => {
  it("catches the command in a nested shell", () => {
    const exec = (subject: string) => ({ tool: "bash", effect: "execute" as const, subject });
    expect(matchesAnyPart([rule("bash(git push*)")], exec(`bash -c "cd x && git push"`))).toBeDefined();
    expect(matchesAnyPart([rule("bash(git push*)")], exec(`sh -c 'git status'`))).toBeUndefined();
  });
});
