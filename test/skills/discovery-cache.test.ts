import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadSkillsFromRoots } from "../../src/skills/discover.js";
import { SkillDiscoveryCache } from "../../src/skills/discovery-cache.js";
import { codePointLength, codePointSlice } from "../../src/skills/skill-fields.js";
import { tempDir } from "../support/temp-dir.js";
import { writeSkill } from "./helpers.js";

/** A skills root with two skills, and a home for the cache. */
function layout() {
  const base = tempDir();
  const root = path.join(base, "skills");
  const home = path.join(base, "home");
  writeSkill(root, "alpha", "name: alpha\ndescription: First skill.", "Alpha body\n");
  writeSkill(root, "beta", "name: beta\ndescription: Second skill.", "Beta body\n");
  return { root, home, roots: [{ dir: root, source: "project" as const }] };
}

/** A discovery as `hx` runs one: cache opened, skills read, cache saved. `later` skips the racy window. */
function discover(home: string, roots: Array<{ dir: string; source: "project" }>, later = 10_000) {
  const cache = SkillDiscoveryCache.open(
    home,
    roots.map((r) => r.dir),
    () => Date.now() + later,
  );
  const result = loadSkillsFromRoots(roots, { cache });
  cache.save();
  return result;
}

function cacheFile(home: string): string {
  const folder = path.join(home, ".hx", "cache");
  const [name] = readdirSync(folder).filter((n) => n.startsWith("skills-") && n.endsWith(".json"));
  return path.join(folder, name!);
}

/** Rewrites the description a cache entry holds: a later discovery that shows it did not read the file. */
function tamperCachedDescription(home: string, skill: string, description: string) {
  const file = cacheFile(home);
  const data = JSON.parse(readFileSync(file, "utf8"));
  const key = Object.keys(data.entries).find((k) => k.endsWith(`${path.sep}${skill}${path.sep}SKILL.md`))!;
  data.entries[key].skill.description = description;
  writeFileSync(file, JSON.stringify(data));
}

describe("the skill discovery cache", () => {
  it("gives the same skills as reading every file, and uses what it kept while files are unchanged", () => {
    const { home, roots } = layout();
    const uncached = loadSkillsFromRoots(roots);
    const first = discover(home, roots);
    expect(first).toEqual(uncached);
    tamperCachedDescription(home, "alpha", "From the cache.");
    const second = discover(home, roots);
    expect(second.skills.map((s) => s.description)).toEqual(["From the cache.", "Second skill."]);
    expect(second.skills.map((s) => s.file)).toEqual(uncached.skills.map((s) => s.file));
  });

  it("a write removes what nothing wrote in the cache folder for 30 days, and keeps the rest", () => {
    const { home, roots } = layout();
    const folder = path.join(home, ".hx", "cache");
    mkdirSync(folder, { recursive: true });
    const day = 24 * 60 * 60;
    const aged = (name: string, days: number) => {
      const file = path.join(folder, name);
      writeFileSync(file, "{}");
      const when = Date.now() / 1000 - days * day;
      utimesSync(file, when, when);
      return name;
    };
    const left = aged("skills-0123456789abcdef.json", 31); // a project not opened for a month
    const oldBuild = aged("123-456-agent-v20.20.2-x64-00000000.bin", 40);
    const recent = aged("skills-fedcba9876543210.json", 29);
    const ownCode = aged("789-012-session-v20.20.2-x64-00000000.bin", 2);
    discover(home, roots);
    const names = readdirSync(folder);
    expect(names).not.toContain(left);
    expect(names).not.toContain(oldBuild);
    expect(names).toEqual(expect.arrayContaining([recent, ownCode, path.basename(cacheFile(home))]));
    // Nothing is written when nothing changed, so nothing is pruned either.
    const again = aged("skills-aaaaaaaaaaaaaaaa.json", 60);
    discover(home, roots);
    expect(readdirSync(folder)).toContain(again);
  });

  it("reads a file again once it changed, even to the same size and modification time", () => {
    const { root, home, roots } = layout();
    discover(home, roots);
    tamperCachedDescription(home, "alpha", "Stale.");
    const file = path.join(root, "alpha", "SKILL.md");
    const before = statSync(file);
    writeFileSync(file, readFileSync(file, "utf8").replace("First skill.", "Fresh skill."));
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);
    const again = discover(home, roots);
    expect(again.skills.find((s) => s.name === "alpha")?.description).toBe("Fresh skill.");
  });

  it("reads a skill again when Codex's agents/openai.yaml appears beside it", () => {
    const { root, home, roots } = layout();
    expect(discover(home, roots).skills[0]?.disableModelInvocation).toBe(false);
    mkdirSync(path.join(root, "alpha", "agents"));
    writeFileSync(
      path.join(root, "alpha", "agents", "openai.yaml"),
      "policy:\n  allow_implicit_invocation: false\n",
    );
    expect(discover(home, roots).skills[0]?.disableModelInvocation).toBe(true);
  });

  it("keeps nothing of a file changed in the last two seconds (its timestamps may not show the next change)", () => {
    const { home, roots } = layout();
    discover(home, roots, 0);
    expect(Object.keys(JSON.parse(readFileSync(cacheFile(home), "utf8")).entries)).toEqual([]);
  });

  it("drops skills that are gone, and ignores a cache of another build or one it cannot parse", () => {
    const { root, home, roots } = layout();
    discover(home, roots);
    rmSync(path.join(root, "beta"), { recursive: true });
    discover(home, roots);
    const file = cacheFile(home);
    const kept = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(kept.entries).map((k) => path.basename(path.dirname(k)))).toEqual(["alpha"]);
    tamperCachedDescription(home, "alpha", "Another build's.");
    const tampered = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...tampered, build: "another build" }));
    expect(discover(home, roots).skills.map((s) => s.description)).toEqual(["First skill."]);
    writeFileSync(file, "{ not json");
    expect(discover(home, roots).skills.map((s) => s.name)).toEqual(["alpha"]);
  });
});

describe("code point helpers", () => {
  it("agree with counting and slicing the string's code points", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(40), (text, count) => {
        expect(codePointLength(text)).toBe([...text].length);
        expect(codePointSlice(text, count)).toBe([...text].slice(0, count).join(""));
      }),
    );
  });
});
