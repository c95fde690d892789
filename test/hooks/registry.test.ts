import { describe, expect, it } from "vitest";
import { compileMatcher } from "../../src/hooks/matcher.js";
import { HookRegistry } from "../../src/hooks/registry.js";
import { createBashTool } from "../../src/tools/bash.js";
import { toolNames } from "../../src/tools/claude-call.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { readFileTool } from "../../src/tools/read-file.js";
import type { Tool } from "../../src/tools/tool.js";
import { writeFileTool } from "../../src/tools/write-file.js";

const matches = (matcher: string | undefined, tool: string) => {
  const compiled = compileMatcher(matcher);
  if (typeof compiled !== "function") throw new Error(compiled.error);
  return compiled([tool]);
};

describe("matchers", () => {
  it.each([
    [undefined, "bash", true],
    ["", "bash", true],
    ["*", "anything", true],
    ["bash", "bash", true],
    ["bash", "bash2", false],
    ["write_file|edit_file", "edit_file", true],
    ["write_file|edit_file", "write", false],
    [".*_file", "read_file", true],
    [".*_file", "bash", false],
    ["^mcp__.*", "mcp__x__y", true],
    ["mcp__*", "mcp__github__create_issue", true],
    ["mcp__*", "bash", false],
  ])("%s matches %s → %s", (matcher, tool, expected) => {
    expect(matches(matcher, tool)).toBe(expected);
  });

  // Claude Code's tool names, as copied from a Claude Code setup: a tool is matched by each
  // of its names, its own and the one its definition gives Claude Code (Tool.claude).
  it.each([
    ["Bash", createBashTool(), true],
    ["bash", createBashTool(), true],
    ["Write|Edit", writeFileTool, true],
    ["Write|Edit", editFileTool, true],
    ["MultiEdit", editFileTool, true],
    ["Write|Edit", createBashTool(), false],
    ["Read", readFileTool, true],
    ["Notebook.*|Re.*", readFileTool, true],
  ] as const)("%s matches the tool %s → %s", (matcher, tool, expected) => {
    const compiled = compileMatcher(matcher);
    if (typeof compiled !== "function") throw new Error(compiled.error);
    expect(compiled(toolNames(tool as Tool))).toBe(expected);
  });

  it("an invalid regex is an error", () => {
    expect(compileMatcher("(")).toHaveProperty("error");
  });
});

describe("HookRegistry.fromSettings", () => {
  it("reads Claude Code's shape, defaults the timeout and dedupes commands", () => {
    const { registry, warnings } = HookRegistry.fromSettings({
      PreToolUse: [
        { matcher: "bash", hooks: [{ type: "command", command: "a", timeout: 5 }] },
        {
          matcher: "*",
          hooks: [
            { type: "command", command: "a" },
            { type: "command", command: "b" },
          ],
        },
      ],
      Stop: [{ hooks: [{ type: "command", command: "s" }] }],
    });
    expect(warnings).toEqual([]);
    expect(registry.hooksFor("PreToolUse", ["bash"]).map((hook) => [hook.command, hook.timeoutMs])).toEqual([
      ["a", 5000],
      ["b", 60000],
    ]);
    expect(registry.hooksFor("PreToolUse", ["grep"]).map((hook) => hook.command)).toEqual(["a", "b"]);
    expect(registry.hooksFor("Stop").map((hook) => hook.command)).toEqual(["s"]);
  });

  it("warns about unknown events, bad matchers and non-command hooks", () => {
    const { warnings } = HookRegistry.fromSettings({
      Nope: [],
      PreToolUse: [{ matcher: "(", hooks: [{ type: "command", command: "a" }] }],
      PostToolUse: [{ hooks: [{ type: "prompt", command: "" } as never] }],
    });
    expect(warnings).toHaveLength(3);
  });
});
