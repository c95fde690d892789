// `hx skills add|update|remove` and the lock, through the real binary, with local git
// repositories (file:// URLs and plain paths), never the network.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSource } from "../../src/skills/install/fetch.js";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

function skillRepo(): string {
  const repo = tempDir("hx-skill-repo-");
  git(repo, "init", "-q", "-b", "main");
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    writeFileSync(path.join(repo, rel), text);
  };
  write(
    "skills/alpha/SKILL.md",
    "---\nname: alpha\ndescription: Does alpha things. Use for alpha.\n---\nAlpha v1.\n",
  );
  write("skills/alpha/scripts/run.sh", "#!/bin/sh\necho alpha\n");
  chmodSync(path.join(repo, "skills/alpha/scripts/run.sh"), 0o755);
  write("skills/beta/SKILL.md", "---\nname: beta\ndescription: Does beta things.\n---\nBeta.\n");
  write("skills/Bad_One/SKILL.md", "---\nname: Bad_One\ndescription: invalid name\n---\nx\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "v1");
  return repo;
}

function project(): string {
  const dir = tempDir("hx-install-project-");
  git(dir, "init", "-q");
  return dir;
}

describe("hx skills add / update / remove", () => {
  it("installs from a git URL, lists its scripts, records source, commit and digest; list flags edits", async () => {
    const repo = skillRepo();
    const commit = git(repo, "rev-parse", "HEAD");
    const dir = project();
    const home = tempDir("hx-home-");
    const env = { HOME: home };
    const add = await runHx(["skills", "add", `file://${repo}`, "--skill", "alpha", "-C", dir], { env });
    expect(add.code, add.stderr).toBe(0);
    const installed = path.join(dir, ".agents", "skills", "alpha");
    expect(readFileSync(path.join(installed, "SKILL.md"), "utf8")).toContain("Alpha v1.");
    expect(add.stdout).toContain(`Installed alpha from file://${repo} at ${commit.slice(0, 12)}`);
    expect(add.stdout).toMatch(/files that can run[\s\S]*scripts\/run\.sh/);
    const lock = JSON.parse(readFileSync(path.join(dir, "skills-lock.json"), "utf8"));
    expect(lock.skills.alpha).toMatchObject({
      source: `file://${repo}`,
      sourceUrl: `file://${repo}`,
      sourceType: "git",
      skillPath: "skills/alpha/SKILL.md",
      computedHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      commit,
      installedTo: ".agents/skills/alpha",
    });
    expect(existsSync(path.join(dir, ".agents", "skills", "beta"))).toBe(false);

    const clean = JSON.parse((await runHx(["skills", "list", "--json", "-C", dir], { env })).stdout);
    expect(clean.skills[0]).toMatchObject({
      name: "alpha",
      installed: { source: `file://${repo}`, modified: false },
    });
    writeFileSync(path.join(installed, "SKILL.md"), "---\nname: alpha\ndescription: edited\n---\nmine\n");
    const edited = await runHx(["skills", "list", "-C", dir], { env });
    expect(edited.stdout).toContain("alpha  (project, modified since installed)");
    const json = JSON.parse((await runHx(["skills", "list", "--json", "-C", dir], { env })).stdout);
    expect(json.skills[0].installed.modified).toBe(true);

    // update refuses to overwrite local edits without --force
    const refused = await runHx(["skills", "update", "alpha", "-C", dir], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("alpha was changed since it was installed");
    writeFileSync(
      path.join(repo, "skills/alpha/SKILL.md"),
      "---\nname: alpha\ndescription: Does alpha.\n---\nAlpha v2.\n",
    );
    git(repo, "commit", "-qam", "v2");
    const v2 = git(repo, "rev-parse", "HEAD");
    const forced = await runHx(["skills", "update", "--force", "-C", dir], { env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(
      `Updated alpha from file://${repo} at ${v2.slice(0, 12)} (was ${commit.slice(0, 12)})`,
    );
    expect(readFileSync(path.join(installed, "SKILL.md"), "utf8")).toContain("Alpha v2.");
    expect(JSON.parse(readFileSync(path.join(dir, "skills-lock.json"), "utf8")).skills.alpha.commit).toBe(v2);
    const again = await runHx(["skills", "update", "-C", dir], { env });
    expect(again.stdout).toContain("alpha is up to date");

    const removed = await runHx(["skills", "remove", "alpha", "-C", dir], { env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(installed)).toBe(false);
    expect(JSON.parse(readFileSync(path.join(dir, "skills-lock.json"), "utf8")).skills).toEqual({});
  });

  it("installs from a folder into ~/.agents/skills with --global; refuses invalid skills and clashes", async () => {
    const repo = skillRepo();
    const dir = project();
    const home = tempDir("hx-home-");
    const env = { HOME: home };
    const add = await runHx(["skills", "add", path.join(repo, "skills", "beta"), "--global", "-C", dir], {
      env,
    });
    expect(add.code, add.stderr).toBe(0);
    expect(existsSync(path.join(home, ".agents", "skills", "beta", "SKILL.md"))).toBe(true);
    const lock = JSON.parse(readFileSync(path.join(home, ".agents", "skills-lock.json"), "utf8"));
    expect(lock.skills.beta).toMatchObject({ sourceType: "local", skillPath: "SKILL.md" });
    const clash = await runHx(["skills", "add", path.join(repo, "skills", "beta"), "--global", "-C", dir], {
      env,
    });
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain("already exists: it is installed; run hx skills update beta");
    const bad = await runHx(["skills", "add", repo, "--skill", "Bad_One", "-C", dir], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /Bad_One is not a valid skill, not installed:\n {2}Skill name 'Bad_One' must be lowercase/,
    );
    const nothing = await runHx(["skills", "add", "not a source", "-C", dir], { env });
    expect(nothing.code).toBe(2);
    const notLocked = await runHx(["skills", "remove", "gamma", "-C", dir], { env });
    expect(notLocked.code).toBe(1);
  });

  it("reads owner/repo as a GitHub URL (no network: only the resolution is checked)", () => {
    expect(resolveSource("anthropics/skills", tempDir())).toEqual({
      type: "git",
      url: "https://github.com/anthropics/skills.git",
      github: "anthropics/skills",
    });
    expect(resolveSource("git@example.org:team/skills.git", tempDir())).toMatchObject({ type: "git" });
  });
});
