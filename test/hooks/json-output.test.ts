import { describe, expect, it } from "vitest";
import type { HookEventName } from "../../src/hooks/events.js";
import { foldOutcomes } from "../../src/hooks/fold-outcomes.js";
import { parseHookStdout } from "../../src/hooks/json-output.js";
import { type ConfiguredHook, HookRegistry } from "../../src/hooks/registry.js";
import type { HookOutcome } from "../../src/hooks/runner.js";

const hook = (event: HookEventName, command = "h.sh"): ConfiguredHook => ({
  event,
  command,
  timeoutMs: 1000,
  matcher: "",
  matches: () => true,
});
const said = (stdout: unknown): HookOutcome => ({
  kind: "success",
  stdout: typeof stdout === "string" ? stdout : JSON.stringify(stdout),
  stderr: "",
});

describe("parseHookStdout", () => {
  it("reads a JSON object as Claude Code's answer and anything else as text", () => {
    expect(parseHookStdout('{"decision":"block","reason":"no"}')).toEqual({
      kind: "json",
      output: { decision: "block", reason: "no" },
    });
    expect(parseHookStdout("all good")).toEqual({ kind: "text", text: "all good" });
    expect(parseHookStdout("{not json")).toEqual({ kind: "text", text: "{not json" });
    expect(parseHookStdout('["a"]')).toEqual({ kind: "text", text: '["a"]' });
  });

  it("names the field of an answer that does not match", () => {
    expect(parseHookStdout('{"decision":"maybe"}')).toMatchObject({
      kind: "invalid",
      problem: expect.stringMatching(/^decision:/),
    });
  });
});

describe("foldOutcomes with JSON answers", () => {
  it("PreToolUse: permissionDecision deny blocks with its reason; allow and ask go to the permission check", () => {
    const deny = foldOutcomes(
      [hook("PreToolUse")],
      [
        said({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: "no force pushes",
          },
        }),
      ],
    );
    expect(deny.blocked).toBe("no force pushes");
    const allow = foldOutcomes(
      [hook("PreToolUse")],
      [said({ hookSpecificOutput: { permissionDecision: "allow", permissionDecisionReason: "safe" } })],
    );
    expect(allow).toMatchObject({ permission: { decision: "allow", reason: "safe" } });
    expect(allow.blocked).toBeUndefined();
    // Of two hooks, ask wins over allow, and a deny over both.
    const both = foldOutcomes(
      [hook("PreToolUse", "a"), hook("PreToolUse", "b")],
      [
        said({ hookSpecificOutput: { permissionDecision: "ask" } }),
        said({ hookSpecificOutput: { permissionDecision: "allow" } }),
      ],
    );
    expect(both.permission?.decision).toBe("ask");
  });

  it("the older PreToolUse form: decision block / approve", () => {
    expect(foldOutcomes([hook("PreToolUse")], [said({ decision: "block", reason: "nope" })]).blocked).toBe(
      "nope",
    );
    expect(foldOutcomes([hook("PreToolUse")], [said({ decision: "approve" })]).permission?.decision).toBe(
      "allow",
    );
  });

  it("decision block with reason blocks PostToolUse, Stop and UserPromptSubmit; additionalContext is collected", () => {
    for (const event of ["PostToolUse", "Stop", "UserPromptSubmit"] as const) {
      expect(
        foldOutcomes([hook(event)], [said({ decision: "block", reason: "fix the tests" })]).blocked,
      ).toBe("fix the tests");
    }
    const context = foldOutcomes(
      [hook("SessionStart")],
      [said({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "branch: main" } })],
    );
    expect(context).toMatchObject({ context: ["branch: main"], outputs: [] });
    // permissionDecision means nothing outside PreToolUse.
    expect(
      foldOutcomes([hook("PostToolUse")], [said({ hookSpecificOutput: { permissionDecision: "deny" } })])
        .blocked,
    ).toBeUndefined();
  });

  it("continue: false stops with stopReason; systemMessage is for the user", () => {
    const verdict = foldOutcomes(
      [hook("PostToolUse")],
      [said({ continue: false, stopReason: "build broke", systemMessage: "heads up" })],
    );
    expect(verdict).toMatchObject({ stop: "build broke", messages: ["heads up"] });
  });

  it("exit codes still count: exit 2 blocks with stderr, JSON on a failing hook is ignored", () => {
    const verdict = foldOutcomes(
      [hook("PreToolUse", "a"), hook("PreToolUse", "b")],
      [
        { kind: "block", stdout: '{"decision":"approve"}', stderr: "blocked by exit 2" },
        { kind: "failure", message: "exited with code 1", stdout: '{"decision":"block"}', stderr: "" },
      ],
    );
    expect(verdict.blocked).toBe("blocked by exit 2");
    expect(verdict.permission).toBeUndefined();
    expect(verdict.warnings).toEqual(["PreToolUse hook `b` exited with code 1; going on."]);
  });

  it("an answer hx cannot read is a warning, never a decision", () => {
    const verdict = foldOutcomes([hook("PreToolUse")], [said({ decision: "allow-everything" })]);
    expect(verdict.blocked).toBeUndefined();
    expect(verdict.warnings[0]).toMatch(/^PreToolUse hook `h.sh` printed JSON hx cannot read \(decision: /);
  });
});

describe("hook timeouts", () => {
  const timeoutOf = (timeout: unknown) => {
    const { registry, warnings } = HookRegistry.fromSettings({
      PreToolUse: [{ hooks: [{ type: "command", command: "x", timeout: timeout as number }] }],
    });
    return { ms: registry.hooksFor("PreToolUse", ["bash"])[0].timeoutMs, warnings };
  };

  it("are clamped to [1 s, 10 min], so a huge value cannot overflow into no wait at all", () => {
    expect(timeoutOf(2147484)).toEqual({
      ms: 600_000,
      warnings: ["hooks.PreToolUse: `x`: timeout 2147484 s is above the 600 s maximum; using 600 s."],
    });
    expect(timeoutOf(0.001).ms).toBe(1000);
    expect(timeoutOf(30).ms).toBe(30_000);
    expect(timeoutOf(undefined)).toEqual({ ms: 60_000, warnings: [] });
    expect(timeoutOf("30")).toMatchObject({
      ms: 60_000,
      warnings: [expect.stringContaining("must be a number")],
    });
  });
});
