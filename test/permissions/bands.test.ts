import { describe, expect, it } from "vitest";
import type { ToolEffect } from "../../src/core/tool.js";
import { bandRank, DECISION_BANDS, type DecisionBand } from "../../src/permissions/bands.js";
import { PermissionChecker } from "../../src/permissions/checker.js";
import type { PreToolUseVerdict } from "../../src/permissions/decide.js";
import type { PermissionMode } from "../../src/permissions/modes.js";
import { parseRules } from "../../src/permissions/rules.js";
import type { ScopedPermissionRules } from "../../src/permissions/scoped-rules.js";
import { runHx } from "../support/run-hx.js";
import { loadParser, tempRoot } from "./support.js";

interface Inputs {
  mode?: PermissionMode;
  allow?: string[];
  ask?: string[];
  deny?: string[];
  skill?: Partial<ScopedPermissionRules>;
  hook?: PreToolUseVerdict;
}

/** Decides one call with every input of the procedure given as data. */
async function decide(inputs: Inputs, tool: string, effect: ToolEffect, subject?: string) {
  const { rules } = parseRules({ allow: inputs.allow, ask: inputs.ask, deny: inputs.deny });
  const skill = inputs.skill;
  const checker = new PermissionChecker({
    mode: inputs.mode ?? "default",
    rules,
    root: tempRoot(),
    loadParser,
    scopedRules: skill
      ? () => ({
          allow: skill.allow ?? [],
          deny: skill.deny ?? [],
        })
      : undefined,
  });
  const { decision } = await checker.check({ tool, effect, subject }, { hook: inputs.hook });
  return decision;
}

const skillRule = (rule: string) => [{ rule, source: "the skill deploy" }];

describe("the decision bands", () => {
  it("are listed once each, every one with the input it stands for", () => {
    const names = DECISION_BANDS.map((entry) => entry.band);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of DECISION_BANDS) expect(entry.input.length).toBeGreaterThan(0);
    expect(bandRank("hook-deny")).toBe(0);
    expect(bandRank("mode")).toBe(names.length - 1);
  });

  // Each case: the inputs, the call, and the band that must decide it (with its verdict).
  it.each<[string, Inputs, string, ToolEffect, string | undefined, DecisionBand, string]>([
    [
      "a hook's deny beats an allow rule",
      { allow: ["bash"], hook: { decision: "deny" } },
      "bash",
      "execute",
      "ls",
      "hook-deny",
      "deny",
    ],
    [
      "the block list beats bypassPermissions and allow rules",
      { mode: "bypassPermissions", allow: ["bash(sudo *)"] },
      "bash",
      "execute",
      "sudo ls",
      "block-list",
      "deny",
    ],
    [
      "a deny rule beats a skill's allow",
      { deny: ["bash(curl *)"], skill: { allow: skillRule("bash(curl *)") } },
      "bash",
      "execute",
      "curl x",
      "deny-rule",
      "deny",
    ],
    [
      "a skill's deny beats an allow rule",
      { allow: ["bash(git *)"], skill: { deny: skillRule("bash(git push*)") } },
      "bash",
      "execute",
      "git push",
      "skill-deny",
      "deny",
    ],
    [
      "a skill's deny beats plan mode",
      { mode: "plan", skill: { deny: skillRule("write_file") } },
      "write_file",
      "write",
      "a.ts",
      "skill-deny",
      "deny",
    ],
    [
      "plan mode beats an allow rule",
      { mode: "plan", allow: ["bash(make)"] },
      "bash",
      "execute",
      "make",
      "plan",
      "deny",
    ],
    [
      "a protected path beats bypassPermissions and a hook's allow",
      { mode: "bypassPermissions", hook: { decision: "allow" } },
      "write_file",
      "write",
      ".hx/settings.json",
      "protected",
      "ask",
    ],
    [
      "a line hx cannot read beats bypassPermissions",
      { mode: "bypassPermissions" },
      "bash",
      "execute",
      "git status ;; x",
      "unreadable",
      "ask",
    ],
    [
      "a hook's ask beats bypassPermissions",
      { mode: "bypassPermissions", hook: { decision: "ask" } },
      "bash",
      "execute",
      "make",
      "hook-ask",
      "ask",
    ],
    [
      "a hook's ask beats the read-only list",
      { hook: { decision: "ask" } },
      "bash",
      "execute",
      "ls",
      "hook-ask",
      "ask",
    ],
    [
      "bypassPermissions beats an ask rule",
      { mode: "bypassPermissions", ask: ["bash(make)"] },
      "bash",
      "execute",
      "make",
      "bypass",
      "allow",
    ],
    [
      "an ask rule beats an allow rule",
      { allow: ["bash(git *)"], ask: ["bash(git push*)"] },
      "bash",
      "execute",
      "git push",
      "ask-rule",
      "ask",
    ],
    [
      "an ask rule beats a hook's allow",
      { ask: ["bash(make)"], hook: { decision: "allow" } },
      "bash",
      "execute",
      "make",
      "ask-rule",
      "ask",
    ],
    ["an allow rule", { allow: ["bash(make)"] }, "bash", "execute", "make", "allow-rule", "allow"],
    ["the read-only list", {}, "bash", "execute", "git status", "read-only", "allow"],
    [
      "a substitution no rule covers beats a skill's allow",
      { skill: { allow: skillRule("bash") } },
      "bash",
      "execute",
      "echo $(make)",
      "unclear",
      "ask",
    ],
    [
      "a skill's allow answers the mode's question",
      { skill: { allow: skillRule("bash(make *)") } },
      "bash",
      "execute",
      "make all",
      "skill-allow",
      "allow",
    ],
    [
      "a hook's allow answers the mode's question",
      { hook: { decision: "allow" } },
      "bash",
      "execute",
      "make",
      "hook-allow",
      "allow",
    ],
    ["the mode asks the rest", {}, "bash", "execute", "make", "mode", "ask"],
    ["the mode runs reads", {}, "read_file", "read", "a.ts", "mode", "allow"],
  ])("%s", async (_name, inputs, tool, effect, subject, band, action) => {
    expect(await decide(inputs, tool, effect, subject)).toMatchObject({ band, action });
  });

  it("names the rule and the skill that decided", async () => {
    const decision = await decide(
      { skill: { deny: skillRule("bash(git push*)") } },
      "bash",
      "execute",
      "git push",
    );
    expect(decision).toMatchObject({
      band: "skill-deny",
      rule: { text: "bash(git push*)" },
      reason: expect.stringContaining("while the skill deploy is active"),
    });
  });

  it("hx permissions check prints the band that decided (text and --json)", async () => {
    const root = tempRoot();
    const text = await runHx(["permissions", "check", "-C", root, "--", "sudo ls"]);
    expect(text.stdout).toContain("decided by: block-list (the block list)");
    const json = await runHx(["permissions", "check", "--json", "-C", root, "--", "git status"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ decision: "allow", band: "read-only" });
  });
});
