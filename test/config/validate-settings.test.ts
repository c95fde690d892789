import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/core/diagnostic.js";
import { validateSettings } from "../../src/settings/validate.js";

const FILE = ".hx/settings.json";

/** The diagnostics of one settings value, as the terminal shows them. */
function problems(raw: unknown): string[] {
  return validateSettings(raw, FILE).diagnostics.map((d) => `${d.level}: ${formatDiagnostic(d)}`);
}

describe("validateSettings", () => {
  it("accepts every key of the README's example", () => {
    const example = {
      provider: "deepseek",
      model: "deepseek-flash",
      baseURL: "https://api.deepseek.com",
      maxTurns: 50,
      thinking: true,
      contextWindow: 128000,
      logHooks: false,
      verbose: false,
      permissions: {
        defaultMode: "acceptEdits",
        allow: ["bash(npm test*)", "write_file(src/**)"],
        ask: ["bash(git push*)"],
        deny: ["bash(curl *)", "load_skill(deploy)"],
      },
      hooks: {
        PreToolUse: [{ matcher: "bash", hooks: [{ type: "command", command: "./check.sh", timeout: 30 }] }],
        Stop: [{ hooks: [{ type: "command", command: "true" }] }],
      },
      skills: { paths: ["~/team-skills"], catalogBudget: 0.02 },
    };
    const result = validateSettings(example, FILE);
    expect(result.diagnostics).toEqual([]);
    expect(result.settings).toEqual(example);
  });

  it("names the file, the key path and what was expected for a wrong type", () => {
    expect(problems({ permissions: { deny: "bash(touch *)" } })).toEqual([
      `error: ${FILE}: permissions.deny: must be a list of rules such as ["bash(git push*)"], got a string ("bash(touch *)")`,
    ]);
    expect(problems({ skills: { paths: [1] } })).toEqual([
      `error: ${FILE}: skills.paths.0: must be a folder path, got a number (1)`,
    ]);
    expect(problems({ maxTurns: "abc" })).toEqual([
      `error: ${FILE}: maxTurns: must be a positive whole number, got a string ("abc")`,
    ]);
    expect(problems({ maxTurns: 2.5, thinking: "yes" })).toEqual([
      `error: ${FILE}: maxTurns: must be a positive whole number, got a number (2.5)`,
      `error: ${FILE}: thinking: must be true or false, got a string ("yes")`,
    ]);
    expect(problems([1])).toEqual([
      `error: ${FILE}: must hold a JSON object such as {"permissions": {...}}, got a list`,
    ]);
  });

  it("warns about an unknown key with the closest known one", () => {
    const result = validateSettings({ modle: "x", verbos: true }, FILE);
    expect(result.settings).toEqual({});
    expect(problems({ modle: "x", zzzz: 1 })).toEqual([
      `warning: ${FILE}: modle: unknown key, did you mean model?`,
      expect.stringMatching(
        new RegExp(`^warning: ${FILE}: zzzz: unknown key, known keys: .*provider, model`),
      ),
    ]);
  });

  it("fails closed: unknown keys that would drop rules or hooks are errors", () => {
    expect(problems({ permisions: { deny: ["bash(rm *)"] } })).toEqual([
      `error: ${FILE}: permisions: unknown key, did you mean permissions?`,
    ]);
    expect(problems({ permissions: { dney: ["bash(rm *)"] } })).toEqual([
      `error: ${FILE}: permissions.dney: unknown key, did you mean deny?`,
    ]);
    expect(problems({ hooks: { PreTooluse: [] } })).toEqual([
      `error: ${FILE}: hooks.PreTooluse: unknown key, did you mean PreToolUse?`,
    ]);
    expect(validateSettings({ hooks: { PreTooluse: [] } }, FILE).settings).toBeUndefined();
  });

  it("refuses rules, modes, matchers and hooks it could not apply", () => {
    expect(problems({ permissions: { deny: ["bash("], defaultMode: "yolo" } })).toEqual([
      `error: ${FILE}: permissions.defaultMode: must be one of default, acceptEdits, plan, bypassPermissions, got a string ("yolo")`,
      expect.stringMatching(
        new RegExp(`^error: ${FILE}: permissions\\.deny\\.0: 'bash\\(' is not a permission rule`),
      ),
    ]);
    expect(
      problems({ hooks: { PreToolUse: [{ matcher: "(", hooks: [{ type: "command", command: "" }] }] } }),
    ).toEqual([
      expect.stringMatching(/hooks\.PreToolUse\.0\.matcher: matcher '\(' is not a tool name/),
      `error: ${FILE}: hooks.PreToolUse.0.hooks.0.command: a command hook needs a non-empty command`,
    ]);
  });

  it("loads a Claude Code file with events and hook kinds hx does not run; a misspelled event is an error", () => {
    expect(
      problems({
        hooks: {
          Notification: [{ matcher: "", hooks: [{ type: "command", command: "notify.sh" }] }],
          Stop: [{ hooks: [{ type: "prompt", prompt: "Is the work done?", timeout: 30 }] }],
          FutureEvent: [{ hooks: [{ type: "command", command: "x" }] }],
        },
      }),
    ).toEqual([expect.stringMatching(/^warning: .*hooks\.FutureEvent: not a hook event hx knows/)]);
    expect(problems({ hooks: { PreTooluse: [] } })).toEqual([
      expect.stringMatching(/^error: .*hooks\.PreTooluse: unknown key, did you mean PreToolUse\?/),
    ]);
  });

  it("never throws and never accepts a file with errors, whatever the JSON", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.jsonValue(),
        fc.constantFrom("permissions", "hooks", "skills", "maxTurns", "deny"),
        (a, b, key) => {
          for (const raw of [
            a,
            { [key]: b },
            { permissions: { [key]: b } },
            { hooks: { PreToolUse: [{ hooks: b }] } },
          ]) {
            const result = validateSettings(raw, FILE);
            const failed = result.diagnostics.some((d) => d.level === "error");
            expect(failed).toBe(result.settings === undefined);
            for (const d of result.diagnostics) expect(d.message).not.toBe("");
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
