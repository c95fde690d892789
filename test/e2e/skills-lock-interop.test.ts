// skills-lock.json shared with the `skills` npm CLI (the real package, pinned, run offline
// against local folders): each tool reads and updates the other's entries, both compute the same
// hash; entries hx cannot use are warned about, never a crash; a source with invalid skills
// installs its valid ones; a FIFO is refused with nothing left behind.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { computeSkillFolderHash } from "../../src/skills/install/lock.js";
import { runHx } from "../support/run-hx.js";
import { runSkillsCli, skillsCli } from "../support/skills-cli.js";
import { tempDir } from "../support/temp-dir.js";

const cli = skillsCli();
const skip = "skip" in cli ? ` (skipped: ${cli.skip})` : "";
const bin = "bin" in cli ? cli.bin : "";

function write(root: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

/** A folder of skills whose files sort differently by code unit and by locale. */
function source(): string {
  const dir = tempDir("hx-interop-src-");
  write(
    dir,
    "skills/alpha/SKILL.md",
    "---\nname: alpha\ndescription: Alpha things. Use for alpha.\n---\nAlpha v1.\n",
  );
  write(dir, "skills/alpha/Zeta.md", "upper\n");
  write(dir, "skills/alpha/apple.md", "lower\n");
  write(dir, "skills/alpha/scripts/_run.sh", "echo run\n");
  write(dir, "skills/beta/SKILL.md", "---\nname: beta\ndescription: Beta things.\n---\nBeta.\n");
  return dir;
}

function project(): string {
  const dir = tempDir("hx-interop-project-");
  execFileSync("git", ["init", "-q"], { cwd: dir });
  return dir;
}

// biome-ignore lint/suspicious/noExplicitAny: the lock as JSON.
const lockOf = (dir: string): any => JSON.parse(readFileSync(path.join(dir, "skills-lock.json"), "utf8"));

describe("skills-lock.json with the skills CLI", () => {
  it("hashes a folder as skills 1.5.18 does (a fixed expected value)", () => {
    const dir = tempDir();
    write(dir, "SKILL.md", "---\nname: x\ndescription: y\n---\n");
    write(dir, "B.md", "b");
    write(dir, "a.md", "a");
    write(dir, "node_modules/skip.js", "no");
    // skills 1.5.18's computeSkillFolderHash on this folder (a.md sorts before B.md by locale).
    expect(computeSkillFolderHash(dir)).toBe(
      "c7b09a674cb76dbe0ba38a137ff1ae81b6059aeca27691412a3261fc5408e907",
    );
  });

  it.skipIf(skip !== "")(`reads and updates a lock the skills CLI wrote${skip}`, async () => {
    const src = source();
    const dir = project();
    const home = tempDir("hx-home-");
    const added = runSkillsCli(bin, ["add", src, "-y", "-a", "claude-code"], dir, home);
    expect(added.code, added.output).toBe(0);
    const written = lockOf(dir);
    expect(written.skills.alpha).toMatchObject({ source: src, sourceType: "local" });
    const copy = path.join(dir, ".claude", "skills", "alpha");
    expect(existsSync(path.join(copy, "SKILL.md"))).toBe(true);
    // Same folder, same hash.
    expect(computeSkillFolderHash(path.join(src, "skills", "alpha"))).toBe(written.skills.alpha.computedHash);

    const env = { HOME: home };
    const list = await runHx(["skills", "list", "--json", "-C", dir], { env });
    expect(list.code, list.stderr).toBe(0);
    const alpha = JSON.parse(list.stdout).skills.find((s: { name: string }) => s.name === "alpha");
    expect(alpha.installed).toMatchObject({ source: src, modified: false });

    const same = await runHx(["skills", "update", "alpha", "-C", dir], { env });
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain("alpha is up to date");

    write(src, "skills/alpha/SKILL.md", "---\nname: alpha\ndescription: Alpha things.\n---\nAlpha v2.\n");
    const updated = await runHx(["skills", "update", "alpha", "-C", dir], { env });
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain(`into ${copy}`);
    expect(readFileSync(path.join(copy, "SKILL.md"), "utf8")).toContain("Alpha v2.");
    expect(existsSync(path.join(dir, ".agents", "skills", "alpha"))).toBe(false);
    const after = lockOf(dir);
    expect(after.skills.alpha).toMatchObject({
      source: src,
      sourceType: "local",
      computedHash: computeSkillFolderHash(path.join(src, "skills", "alpha")),
      installedTo: ".claude/skills/alpha",
    });
    expect(after.skills.beta).toEqual(written.skills.beta);

    // --force re-installs an unchanged skill, and replaces an edited one.
    write(copy, "SKILL.md", "---\nname: alpha\ndescription: mine\n---\nmine\n");
    const refused = await runHx(["skills", "update", "alpha", "-C", dir], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("alpha was changed since it was installed");
    const forced = await runHx(["skills", "update", "alpha", "--force", "-C", dir], { env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(path.join(copy, "SKILL.md"), "utf8")).toContain("Alpha v2.");

    // remove deletes the copy the skills CLI made, where it made it.
    const removed = await runHx(["skills", "remove", "beta", "-C", dir], { env });
    expect(removed.code, removed.stderr).toBe(0);
    const betaCopy = path.join(dir, ".claude", "skills", "beta");
    expect(removed.stdout).toContain(`Removed beta (${betaCopy})`);
    expect(existsSync(betaCopy)).toBe(false);
    expect(lockOf(dir).skills.beta).toBeUndefined();
  });

  it.skipIf(skip !== "")(`writes a lock the skills CLI reads and restores from${skip}`, async () => {
    const src = source();
    const dir = project();
    const home = tempDir("hx-home-");
    const add = await runHx(["skills", "add", src, "--skill", "alpha", "-C", dir], { env: { HOME: home } });
    expect(add.code, add.stderr).toBe(0);
    const ours = lockOf(dir).skills.alpha;
    expect(ours).toMatchObject({
      source: src,
      sourceType: "local",
      skillPath: "skills/alpha/SKILL.md",
      computedHash: computeSkillFolderHash(path.join(src, "skills", "alpha")),
      installedTo: ".agents/skills/alpha",
    });

    // The skills CLI adds beta beside hx's entry and keeps it as written.
    const beta = runSkillsCli(bin, ["add", src, "--skill", "beta", "-y", "-a", "claude-code"], dir, home);
    expect(beta.code, beta.output).toBe(0);
    const both = lockOf(dir);
    expect(both.skills.alpha).toEqual(ours);
    expect(Object.keys(both.skills)).toEqual(["alpha", "beta"]);

    // It restores hx's skill from hx's entry, and computes the hash hx recorded.
    execFileSync("rm", ["-rf", path.join(dir, ".agents", "skills", "alpha")]);
    const restored = runSkillsCli(bin, ["experimental_install"], dir, home);
    expect(restored.code, restored.output).toBe(0);
    expect(readFileSync(path.join(dir, ".agents", "skills", "alpha", "SKILL.md"), "utf8")).toContain(
      "Alpha v1.",
    );
    expect(lockOf(dir).skills.alpha.computedHash).toBe(ours.computedHash);
  });

  it("warns about lock entries it cannot use, naming them, and goes on", async () => {
    const dir = project();
    const home = tempDir("hx-home-");
    write(dir, ".agents/skills/kept/SKILL.md", "---\nname: kept\ndescription: Kept.\n---\nx\n");
    writeFileSync(
      path.join(dir, "skills-lock.json"),
      JSON.stringify({
        version: 1,
        skills: {
          broken: "not an object",
          kept: { sourceType: "node_modules", source: "some-pkg", computedHash: "00" },
          partial: {},
        },
      }),
    );
    const env = { HOME: home };
    const list = await runHx(["skills", "list", "-C", dir], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toContain("the entry for 'broken' is not an object; ignored");
    expect(list.stdout).toContain("kept");
    const update = await runHx(["skills", "update", "-C", dir], { env });
    expect(update.code).toBe(1);
    expect(update.stderr).toContain("the entry for 'broken' is not an object");
    expect(update.stderr).toContain("the entry for 'kept' has sourceType 'node_modules'");
    expect(update.stderr).toContain("the entry for 'partial' names no source");
    expect(update.stderr).not.toContain("TypeError");
    const removed = await runHx(["skills", "remove", "partial", "-C", dir], { env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain("no installed copy was found");
  });

  it("installs each valid skill of a source, reports each invalid one, and refuses a FIFO cleanly", async () => {
    const src = tempDir("hx-multi-src-");
    write(src, "skills/good/SKILL.md", "---\nname: good\ndescription: Good.\n---\nx\n");
    write(src, "skills/long/SKILL.md", `---\nname: long\ndescription: ${"d".repeat(1100)}\n---\nx\n`);
    write(src, "skills/folder-name/SKILL.md", "---\nname: real-name\ndescription: Renamed.\n---\nx\n");
    write(src, "skills/piped/SKILL.md", "---\nname: piped\ndescription: Has a FIFO.\n---\nx\n");
    execFileSync("mkfifo", [path.join(src, "skills", "piped", "pipe")]);
    const dir = project();
    const env = { HOME: tempDir("hx-home-") };
    const add = await runHx(["skills", "add", src, "-C", dir], { env });
    expect(add.code).toBe(1);
    expect(add.stdout).toContain("Installed good from");
    expect(add.stderr).toMatch(/long is not a valid skill, not installed:\n {2}Description exceeds 1024/);
    expect(add.stderr).toMatch(
      /real-name is not a valid skill[\s\S]*Directory name 'folder-name' must match[\s\S]*--use-name/,
    );
    expect(add.stderr).toMatch(
      /piped is not a valid skill, not installed:\n {2}pipe \(a named pipe \(FIFO\)\) is not a regular file/,
    );
    expect(add.stderr).toContain("installed 1 of 4 skills");
    const skills = path.join(dir, ".agents", "skills");
    expect(readdirSync(skills)).toEqual(["good"]);
    expect(Object.keys(lockOf(dir).skills)).toEqual(["good"]);

    const renamed = await runHx(["skills", "add", src, "--skill", "real-name", "--use-name", "-C", dir], {
      env,
    });
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(existsSync(path.join(skills, "real-name", "SKILL.md"))).toBe(true);
    expect(lockOf(dir).skills["real-name"]).toMatchObject({
      skillPath: "skills/folder-name/SKILL.md",
      installedTo: ".agents/skills/real-name",
    });
    expect(readdirSync(skills).sort()).toEqual(["good", "real-name"]);
  });
});
