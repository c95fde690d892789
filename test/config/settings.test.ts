import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_SETTINGS_BYTES } from "../../src/config/settings.js";
import { loadSettings } from "../../src/settings/index.js";
import { tempDir } from "../support/temp-dir.js";

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
  it("layers user < project < local; scalars are replaced, rules and hooks add up", async () => {
    const work = tempDir("hx-settings-");
    write(home, "settings.json", { model: "user-model", maxTurns: 5, permissions: { allow: ["bash(ls*)"] } });
    write(work, "settings.json", { model: "project-model", permissions: { deny: ["bash(curl *)"] } });
    write(work, "settings.local.json", { permissions: { allow: ["bash(npm test)"] } });
    const { merged, files, diagnostics } = await loadSettings(work);
    expect(diagnostics).toEqual([]);
    expect(files.map((f) => f.scope)).toEqual(["user", "project", "local"]);
    expect(merged.model).toBe("project-model");
    expect(merged.maxTurns).toBe(5);
    expect(merged.permissions?.allow).toEqual(["bash(ls*)", "bash(npm test)"]);
    expect(merged.permissions?.deny).toEqual(["bash(curl *)"]);
  });

  it("keeps the repository root's settings when run in a subfolder; nearer files win", async () => {
    const root = tempDir("hx-settings-repo-");
    mkdirSync(path.join(root, ".git"));
    const sub = path.join(root, "packages", "app");
    mkdirSync(sub, { recursive: true });
    write(root, "settings.json", { model: "root-model", permissions: { deny: ["bash(rm *)"] } });
    write(sub, "settings.json", { model: "app-model" });
    const { merged } = await loadSettings(sub);
    expect(merged.model).toBe("app-model");
    expect(merged.permissions?.deny).toEqual(["bash(rm *)"]);
  });

  it("reports a file that is not valid JSON as an error naming it, and keeps the others", async () => {
    const work = tempDir("hx-settings-bad-");
    write(work, "settings.json", "{ not json");
    write(home, "settings.json", { model: "still-read" });
    const { merged, diagnostics } = await loadSettings(work);
    expect(merged.model).toBe("still-read");
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      level: "error",
      code: "settings.json",
      file: path.join(work, ".hx", "settings.json"),
    });
    expect(diagnostics[0].message).toMatch(/^is not valid JSON \(.+\); fix the file\.$/);
  });

  it("reads an empty file as no settings", async () => {
    const work = tempDir("hx-settings-empty-");
    write(work, "settings.json", "  \n");
    expect(await loadSettings(work)).toMatchObject({ diagnostics: [], merged: {} });
  });

  it("refuses a FIFO at once instead of waiting for a writer", async () => {
    const work = tempDir("hx-settings-fifo-");
    mkdirSync(path.join(work, ".hx"));
    execFileSync("mkfifo", [path.join(work, ".hx", "settings.json")]);
    const { diagnostics } = await loadSettings(work);
    expect(diagnostics).toEqual([expect.objectContaining({ level: "error", code: "settings.not-a-file" })]);
    expect(diagnostics[0].message).toMatch(/named pipe \(FIFO\), not a file/);
  });

  it("refuses a directory in place of the file, and a file over the size cap", async () => {
    const work = tempDir("hx-settings-odd-");
    mkdirSync(path.join(work, ".hx", "settings.json"), { recursive: true });
    write(work, "settings.local.json", `{"model": "${"x".repeat(MAX_SETTINGS_BYTES)}"}`);
    const { diagnostics } = await loadSettings(work);
    expect(diagnostics.map((d) => [d.code, d.message.split(";")[0]])).toEqual([
      ["settings.not-a-file", "is a directory, not a file"],
      ["settings.too-large", expect.stringMatching(/^is larger than the limit of 10 MB \(10 MB\)$/)],
    ]);
  });

  it("drops a file with errors entirely, so none of its values are half-used", async () => {
    const work = tempDir("hx-settings-half-");
    write(work, "settings.json", { model: "from-broken-file", maxTurns: "abc" });
    const { merged, diagnostics, files } = await loadSettings(work);
    expect(files).toEqual([]);
    expect(merged.model).toBeUndefined();
    expect(diagnostics[0]).toMatchObject({ level: "error", keyPath: "maxTurns" });
  });
});
