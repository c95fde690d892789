// The skill discovery cache through the real binary: a run keeps what it parsed in
// ~/.hx/cache/, the next uses it while the files are unchanged, an edit is seen at once.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

const list = async (project: string, home: string) => {
  const run = await runHx(["skills", "list", "--json"], { cwd: project, env: { HOME: home } });
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { skills: Array<{ name: string; description: string }> }).skills;
};

describe("hx and its skill discovery cache", () => {
  it("uses what an earlier run parsed until the SKILL.md changes", async () => {
    const base = tempDir();
    const project = path.join(base, "project");
    const home = path.join(base, "home");
    const skillFile = path.join(project, ".agents", "skills", "deploy", "SKILL.md");
    mkdirSync(path.dirname(skillFile), { recursive: true });
    mkdirSync(path.join(project, ".git"));
    writeFileSync(skillFile, "---\nname: deploy\ndescription: Ships the app.\n---\nSteps.\n");
    await sleep(2100); // a file changed in the last two seconds is never kept
    expect(await list(project, home)).toMatchObject([{ name: "deploy", description: "Ships the app." }]);

    const folder = path.join(home, ".hx", "cache");
    const cacheFile = path.join(folder, readdirSync(folder).find((n) => n.startsWith("skills-"))!);
    const data = JSON.parse(readFileSync(cacheFile, "utf8"));
    expect(Object.keys(data.entries)).toHaveLength(1);
    // What the next run lists comes from the cache, not the file: prove it with a marker.
    data.entries[Object.keys(data.entries)[0]!].skill.description = "Kept by the cache.";
    writeFileSync(cacheFile, JSON.stringify(data));
    expect((await list(project, home))[0]?.description).toBe("Kept by the cache.");

    writeFileSync(skillFile, "---\nname: deploy\ndescription: Ships it now.\n---\nSteps.\n");
    expect((await list(project, home))[0]?.description).toBe("Ships it now.");
  });
});
