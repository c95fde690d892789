// End to end: settings files are validated before anything runs. Wrong types stop the run
// (exit 2) naming the file, key and expected value; typos are warned about with a suggestion;
// nothing crashes or hangs, whatever the file holds.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

let work: string;
let script: string;

beforeEach(() => {
  work = tempDir("hx-settings-e2e-");
  mkdirSync(path.join(work, ".hx"));
  script = path.join(tempDir("hx-settings-script-"), "script.json");
  writeFileSync(
    script,
    JSON.stringify({
      replies: [{ toolCalls: [{ name: "bash", arguments: { command: "touch touched" } }] }, { text: "done" }],
    }),
  );
});

function settings(value: unknown): void {
  writeFileSync(
    path.join(work, ".hx", "settings.json"),
    typeof value === "string" ? value : JSON.stringify(value),
  );
}

function run(...extra: string[]) {
  return runHx(
    // The user's own project: trusted, so its allow rules apply.
    ["agent", "touch a file", "-C", work, "--trust", "--provider", "scripted", "--script", script, ...extra],
    {
      cwd: work,
    },
  );
}

describe("settings validation through the binary", () => {
  it("a deny list written as a string stops the run instead of vanishing", async () => {
    settings({ permissions: { deny: "bash(touch *)" } });
    const result = await run("--permission-mode", "bypassPermissions");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'hx: .hx/settings.json: permissions.deny: must be a list of rules such as ["bash(git push*)"], got a string ("bash(touch *)")',
    );
    expect(result.stderr).toContain("stops the run");
    expect(result.stdout).toBe("");
    expect(existsSync(path.join(work, "touched"))).toBe(false);
  });

  it("an unknown provider is reported by file and key, exit 2", async () => {
    settings({ provider: "gemini" });
    const result = await runHx(["agent", "touch a file", "-C", work], { cwd: work });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'hx: .hx/settings.json: provider: must be one of deepseek, openai, anthropic, scripted, got a string ("gemini")',
    );
  });

  it("an unknown key is a warning with the closest known key; the run goes on", async () => {
    settings({ modle: "x", permissions: { allow: ["bash(touch *)"] } });
    const result = await run();
    expect(result.stderr).toContain("warning: .hx/settings.json: modle: unknown key, did you mean model?\n");
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe("done");
    expect(existsSync(path.join(work, "touched"))).toBe(true);
  });

  it("a misspelled permissions key is an error: its deny rules would be lost", async () => {
    settings({ permisions: { deny: ["bash(touch *)"] } });
    const result = await run("--permission-mode", "bypassPermissions");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "hx: .hx/settings.json: permisions: unknown key, did you mean permissions?\n",
    );
    expect(existsSync(path.join(work, "touched"))).toBe(false);
  });

  it('"maxTurns": "abc" is reported as a settings problem, not as a bad --max-turns', async () => {
    settings({ maxTurns: "abc" });
    const result = await run();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'hx: .hx/settings.json: maxTurns: must be a positive whole number, got a string ("abc")',
    );
    expect(result.stderr).not.toContain("--max-turns");
  });

  it('"skills": {"paths": [1]} is reported, not a crash; so is invalid JSON in the user file', async () => {
    settings({ skills: { paths: [1] } });
    const home = tempDir("hx-settings-home-");
    mkdirSync(path.join(home, ".hx"));
    writeFileSync(path.join(home, ".hx", "settings.json"), "{ not json");
    const result = await runHx(["skills", "list", "-C", work], { cwd: work, env: { HOME: home } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("hx: ~/.hx/settings.json: is not valid JSON (");
    expect(result.stderr).toContain(
      "hx: .hx/settings.json: skills.paths.0: must be a folder path, got a number (1)",
    );
    expect(result.stderr).toContain("These settings problems stop the run");
    expect(result.stderr).not.toMatch(/trim is not a function|at .*\.js:\d+/);
  });
});
