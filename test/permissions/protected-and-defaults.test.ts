// Protected paths, the read-only commands, "always" rules and reads bash names.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PERMISSION_MODES } from "../../src/permissions/modes.js";
import { checker, decide, decideCommand, tempRoot } from "./support.js";

describe("protected paths", () => {
  const home = "/home/u";

  it.each(PERMISSION_MODES.filter((mode) => mode !== "plan"))(
    "writes to them are asked in %s, whatever the rules say",
    async (mode) => {
      const setup = { mode, home, allow: ["write_file", "bash", "write_file(.hx/**)", "bash(tee *)"] };
      for (const file of [
        ".hx/settings.local.json",
        ".claude/settings.json",
        ".mcp.json",
        ".git/config",
        ".git/hooks/pre-commit",
        // Nested copies: hx reads sub/.hx when run in sub, git runs sub/.git/config there.
        "sub/.hx/settings.json",
        "sub/.claude/settings.json",
        "a/b/.mcp.json",
        "sub/.git/config",
        "sub/.git/hooks/pre-commit",
        "sub/.HX/settings.json",
      ]) {
        expect(await decide(setup, "write_file", "write", file), file).toMatchObject({
          action: "ask",
          cause: "protected",
        });
      }
      for (const command of [
        "echo '{}' > .hx/settings.local.json",
        "tee .hx/settings.local.json < x",
        "cp x .mcp.json",
        "echo '{}' > sub/.hx/settings.local.json",
        "mkdir -p sub/.git && echo x > sub/.git/config",
        "sed -i s/a/b/ .git/config",
        "cd .git && echo x > config",
        "git config core.fsmonitor 'touch M'",
        "git config --global core.pager evil",
        "echo x >> ~/.bashrc",
        "bash -c 'echo x > .claude/settings.json'",
        "python3 -c \"open('.git/hooks/pre-commit','w')\"",
      ]) {
        const decision = await decideCommand(setup, command);
        expect(decision, command).toMatchObject({ action: "ask", cause: "protected" });
      }
    },
  );

  it.each(PERMISSION_MODES.filter((mode) => mode !== "plan"))(
    "skill folders and instruction files at any depth, and hx's own home folders, are asked in %s",
    async (mode) => {
      const setup = {
        mode,
        home,
        allow: ["write_file", "edit_file", "bash", "bash(tee *)", "write_file(**)"],
      };
      for (const file of [
        ".agents/skills/helper/SKILL.md",
        ".agents/skills",
        "pkg/.agents/skills/helper/SKILL.md",
        ".claude/skills/x/SKILL.md",
        ".hx/skills/x/SKILL.md",
        "AGENTS.md",
        "sub/AGENTS.md",
        "CLAUDE.md",
        "a/b/claude.md",
        "/home/u/.agents/skills/x/SKILL.md",
        "/home/u/.hx/skills/x/SKILL.md",
        "/home/u/.hx/settings.json",
        "/home/u/.hx/trusted-folders.json",
        "/home/u/.claude/settings.json",
      ]) {
        expect(await decide(setup, "write_file", "write", file), file).toMatchObject({
          action: "ask",
          cause: "protected",
        });
      }
      for (const command of [
        "mkdir -p .agents/skills/helper && echo x > .agents/skills/helper/SKILL.md",
        "tee -a AGENTS.md < notes",
        "cp evil.md sub/CLAUDE.md",
        "echo '{}' > ~/.hx/trusted-folders.json",
        "cp -r skill ~/.agents/skills/helper",
      ]) {
        expect(await decideCommand(setup, command), command).toMatchObject({
          action: "ask",
          cause: "protected",
        });
      }
    },
  );

  it("files that only look alike are not protected", async () => {
    const setup = { mode: "acceptEdits" as const, home };
    for (const file of ["docs/AGENTS.md.bak", "agents/skills/x.md", "src/skills/x.ts", "MY-AGENTS.md"]) {
      expect((await decide(setup, "write_file", "write", file)).action, file).toBe("allow");
    }
  });

  it("reading them is fine, and so is git config --get", async () => {
    expect((await decideCommand({ home }, "cat .hx/settings.json")).action).toBe("allow");
    expect(
      (await decideCommand({ home, allow: ["bash(git config *)"] }, "git config --get user.name")).action,
    ).toBe("allow");
  });

  it("follow symlinks: a link to .git/config is .git/config", async () => {
    const root = tempRoot();
    mkdirSync(path.join(root, ".git"));
    writeFileSync(path.join(root, ".git", "config"), "");
    symlinkSync(".git/config", path.join(root, "innocent"));
    expect(await decideCommand({ root, mode: "bypassPermissions", home }, "echo x > innocent")).toMatchObject(
      {
        action: "ask",
        cause: "protected",
      },
    );
    expect(
      await decide({ root, mode: "bypassPermissions", home }, "write_file", "write", ".git/config"),
    ).toMatchObject({
      cause: "protected",
    });
  });

  it("'always' saves nothing for them", async () => {
    const check = await checker({ home }).check({
      tool: "bash",
      effect: "execute",
      subject: "echo x > .mcp.json",
    });
    expect(check.alwaysRules).toEqual([]);
  });
});

describe("read-only commands", () => {
  it.each([
    "ls -la",
    "pwd",
    "cat README.md",
    "head -n 5 src/a.ts",
    "wc -l a b",
    "git status",
    "git diff --stat",
    "git log --oneline -5",
    "rg -n TODO src",
    "grep -rn 'foo|bar' .",
    "find . -name x.ts",
    "ls src | wc -l",
    "git status 2>&1",
    "git diff > /dev/null",
  ])("%s runs without a rule", async (command) => {
    expect(await decideCommand({}, command)).toMatchObject({ action: "allow" });
  });

  it.each([
    "cat /etc/passwd",
    "ls ~",
    "cat ../secret",
    "git diff --output=x",
    "git diff --ext-diff",
    "find . -delete",
    "find . -exec touch {} +",
    "rg --pre ./x pattern",
    "sort -o out in",
    "git branch new-branch",
    "git -c core.pager=x log",
    "ls $HOME",
    "ls *.ts",
    "cat README.md > copy.md",
    "/bin/ls",
  ])("%s is asked", async (command) => {
    expect((await decideCommand({}, command)).action).toBe("ask");
  });

  it("deny rules and denied reads still win; plan mode runs them; a setting turns them off", async () => {
    expect((await decideCommand({ deny: ["bash(git diff*)"] }, "git diff")).action).toBe("deny");
    expect((await decideCommand({ deny: ["read_file(.env*)"] }, "cat .env.local")).action).toBe("deny");
    expect((await decideCommand({ mode: "plan" }, "git log")).action).toBe("allow");
    expect((await decideCommand({ mode: "plan" }, "touch x")).action).toBe("deny");
    expect((await decideCommand({ readOnlyCommands: false }, "ls")).action).toBe("ask");
  });

  it("a bare read_file or write_file deny turns off that tool, not every command naming a file", async () => {
    expect((await decideCommand({ deny: ["read_file"] }, "cat notes.txt")).action).toBe("allow");
    expect(
      (await decideCommand({ deny: ["write_file"], mode: "acceptEdits" }, "echo x > out.txt")).action,
    ).toBe("allow");
    expect((await decideCommand({ deny: ["read_file(notes.txt)"] }, "cat notes.txt")).action).toBe("deny");
  });

  it("a symlink out of the workspace is outside", async () => {
    const root = tempRoot();
    symlinkSync("/etc", path.join(root, "etc-link"));
    expect((await decideCommand({ root }, "cat etc-link/passwd")).action).toBe("ask");
  });
});

describe("reads bash names", () => {
  const deny = { deny: ["read_file(.env*)", "read_file(secrets/**)"] };

  it.each([
    "cat .env",
    "grep KEY .env.local",
    "wc -l < .env",
    "cd secrets && cat key",
    "cp secrets/key /tmp/x",
    "cat .e*",
  ])("%s is refused by a read_file deny rule", async (command) => {
    const root = tempRoot();
    writeFileSync(path.join(root, ".env"), "K=1");
    expect((await decideCommand({ ...deny, root }, command)).action, command).toBe("deny");
  });
});

describe("'always' saves narrow rules", () => {
  const always = async (command: string, allow: string[] = []) =>
    (await checker({ allow }).check({ tool: "bash", effect: "execute", subject: command })).alwaysRules;

  it("the exact command, one per command not yet allowed, and the files it writes", async () => {
    expect(await always("npm install")).toEqual(["bash(npm install)"]);
    expect(await always("npm ci && make -j4", ["bash(npm ci)"])).toEqual(["bash(make -j4)"]);
    expect(await always("git status && touch a.txt")).toEqual(["bash(touch a.txt)"]);
    expect(await always("make > build.log")).toEqual(["bash(make)", "write_file(build.log)"]);
    expect(await always('git commit -m "fix: it"')).toEqual(["bash(git commit -m 'fix: it')"]);
  });

  it("nothing when no rule could cover the call", async () => {
    expect(await always("make $(cat targets)")).toEqual([]);
    expect(await always("echo '*'")).toEqual([]);
  });

  it("a saved rule covers the same call and no more", async () => {
    const check = checker();
    const first = await check.check({ tool: "bash", effect: "execute", subject: "npm install" });
    check.addAllowRules(first.alwaysRules);
    const again = (subject: string) => check.check({ tool: "bash", effect: "execute", subject });
    expect((await again("npm install")).decision.action).toBe("allow");
    expect((await again("npm install && touch x")).decision.action).toBe("ask");
    expect((await again("npm install left-pad")).decision.action).toBe("ask");
    expect((await again("npm install > /tmp/x")).decision.action).toBe("ask");
  });
});
