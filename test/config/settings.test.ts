import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "../../src/config/settings.js";
import { tempDir } from "../support/run-hx.js";

let home: string;
let savedHome: string | undefined;
beforeEach(() => {
  savedHome = process.env.HOME;
  home = tempDir("hx-settings-home-");
  process.env.HOME = home;
});
afterEach(() => {
  process.env.HOME = savedHome;
});

function write(dir: string, file: string, value: unknown): void {
  mkdirSync(path.join(dir, ".hx"), { recursive: true });
  writeFileSync(path.join(dir, ".hx", file), typeof value === "string" ? value : JSON.stringify(value));
}

describe("loadSettings", () => {
  it("layers user < project < local; scalars are replaced, rules and hooks add up", () => {
    const work = tempDir("hx-settings-");
    write(home, "settings.json", { model: "user-model", maxTurns: 5, permissions: { allow: ["bash(ls*)"] } });
    write(work, "settings.json", { model: "project-model", permissions: { deny: ["bash(curl *)"] } });
    write(work, "settings.local.json", { permissions: { allow: ["bash(npm test)"] } });
    const { merged, files, warnings } = loadSettings(work);
    expect(warnings).toEqual([]);
    expect(files.map((f) => f.scope)).toEqual(["user", "project", "local"]);
    expect(merged.model).toBe("project-model");
    expect(merged.maxTurns).toBe(5);
    expect(merged.permissions?.allow).toEqual(["bash(ls*)", "bash(npm test)"]);
    expect(merged.permissions?.deny).toEqual(["bash(curl *)"]);
  });

  it("keeps the repository root's settings when run in a subfolder; nearer files win", () => {
    const root = tempDir("hx-settings-repo-");
    mkdirSync(path.join(root, ".git"));
    const sub = path.join(root, "packages", "app");
    mkdirSync(sub, { recursive: true });
    write(root, "settings.json", { model: "root-model", permissions: { deny: ["bash(rm *)"] } });
    write(sub, "settings.json", { model: "app-model" });
    const { merged } = loadSettings(sub);
    expect(merged.model).toBe("app-model");
    expect(merged.permissions?.deny).toEqual(["bash(rm *)"]);
  });

  it("reports a file that is not valid JSON, names it, and goes on with the others", () => {
    const work = tempDir("hx-settings-bad-");
    write(work, "settings.json", "{ not json");
    write(home, "settings.json", { model: "still-read" });
    const { merged, warnings } = loadSettings(work);
    expect(merged.model).toBe("still-read");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/settings\.json: invalid JSON .*ignored\. Fix the file\./);
  });
});
