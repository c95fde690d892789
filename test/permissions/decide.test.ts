import { describe, expect, it } from "vitest";
import type { ToolEffect } from "../../src/core/tool.js";
import { permissionsFromSettings } from "../../src/permissions/index.js";
import { PERMISSION_MODES, type PermissionMode } from "../../src/permissions/modes.js";
import { decide, decideCommand } from "./support.js";

describe("modes without rules", () => {
  const expected: Record<PermissionMode, Record<ToolEffect, string>> = {
    default: { read: "allow", none: "allow", write: "ask", execute: "ask" },
    acceptEdits: { read: "allow", none: "allow", write: "allow", execute: "ask" },
    plan: { read: "allow", none: "allow", write: "deny", execute: "deny" },
    bypassPermissions: { read: "allow", none: "allow", write: "allow", execute: "allow" },
  };
  for (const mode of PERMISSION_MODES) {
    for (const effect of ["read", "none", "write", "execute"] as const) {
      it(`${mode} / ${effect} → ${expected[mode][effect]}`, async () => {
        const subject = effect === "execute" ? "make build" : "x";
        expect((await decide({ mode }, "t", effect, subject)).action).toBe(expected[mode][effect]);
      });
    }
  }

  it("plan mode says so", async () => {
    const decision = await decide({ mode: "plan" }, "write_file", "write", "a.ts");
    expect(decision).toMatchObject({ action: "deny", reason: expect.stringContaining("plan mode") });
  });
});

describe("rules", () => {
  const rules = {
    allow: ["bash(git *)", "bash(npm test)", "write_file(src/**)", "read_file", "load_skill(deploy)"],
    ask: ["bash(git push*)", "write_file(src/secrets/**)"],
    deny: ["bash(git push --force*)", "read_file(.env*)", "load_skill(deploy)"],
  };

  it.each<[PermissionMode, string, ToolEffect, string | undefined, string]>([
    ["default", "bash", "execute", "git status", "allow"],
    ["default", "bash", "execute", "npm test", "allow"],
    ["default", "bash", "execute", "npm install", "ask"],
    ["default", "bash", "execute", "git push origin main", "ask"], // ask beats allow
    ["default", "bash", "execute", "git push --force origin", "deny"], // deny beats ask and allow
    ["default", "write_file", "write", "src/a.ts", "allow"],
    ["default", "write_file", "write", "src/secrets/k.txt", "ask"],
    ["default", "write_file", "write", "README.md", "ask"],
    ["default", "read_file", "read", "src/a.ts", "allow"],
    ["default", "read_file", "read", ".env.local", "deny"],
    ["default", "grep", "read", ".env.local", "deny"], // read_file deny rules cover every reader
    ["default", "load_skill", "none", "deploy", "deny"], // deny beats allow
    ["default", "load_skill", "none", "review", "allow"],
    ["acceptEdits", "write_file", "write", "src/secrets/k.txt", "ask"], // ask rules still ask
    ["acceptEdits", "write_file", "write", "README.md", "allow"],
    ["acceptEdits", "bash", "execute", "make", "ask"],
    ["plan", "bash", "execute", "git push origin", "deny"], // plan beats allow rules
    ["plan", "bash", "execute", "git status", "allow"], // ... but runs read-only commands
    ["plan", "read_file", "read", "a.ts", "allow"],
    ["bypassPermissions", "bash", "execute", "git push origin", "allow"],
    ["bypassPermissions", "bash", "execute", "git push --force", "deny"], // deny rules still hold
    ["bypassPermissions", "bash", "execute", "sudo ls", "deny"], // the block list always holds
  ])("%s: %s(%s) %s → %s", async (mode, tool, effect, subject, action) => {
    expect((await decide({ mode, ...rules }, tool, effect, subject)).action).toBe(action);
  });

  it("no rule unlocks the block list", async () => {
    const decision = await decideCommand(
      { mode: "bypassPermissions", allow: ["bash", "bash(sudo *)", "bash(*)"] },
      "sudo rm -rf /",
    );
    expect(decision).toMatchObject({ action: "deny", reason: expect.stringContaining("block list") });
  });

  it("names the deny rule and the command it matched", async () => {
    const decision = await decideCommand(rules, "make && git push --force");
    expect(decision).toMatchObject({
      action: "deny",
      reason: expect.stringContaining("bash(git push --force*)"),
    });
    expect(decision.action === "deny" && decision.reason).toContain("`git push --force`");
  });
});

describe("permissionsFromSettings", () => {
  it("takes --permission-mode over settings and warns on unknown modes", () => {
    expect(permissionsFromSettings({ defaultMode: "plan" }).mode).toBe("plan");
    expect(permissionsFromSettings({ defaultMode: "plan" }, "acceptEdits").mode).toBe("acceptEdits");
    const bad = permissionsFromSettings({ defaultMode: "yolo" });
    expect(bad.mode).toBe("default");
    expect(bad.warnings[0]).toContain("bypassPermissions");
  });

  it("reads readOnlyCommands, on unless set to false", () => {
    expect(permissionsFromSettings({}).readOnlyCommands).toBe(true);
    expect(permissionsFromSettings({ readOnlyCommands: false }).readOnlyCommands).toBe(false);
  });
});
