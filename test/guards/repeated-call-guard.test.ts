import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agent/loop.js";
import { Conversation } from "../../src/core/conversation.js";
import type { ToolResultMessage } from "../../src/core/messages.js";
import { createRepeatedCallGuard } from "../../src/guards/repeated-call-guard.js";
import { ScriptedProvider } from "../../src/providers/scripted.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { defineTool } from "../../src/tools/tool.js";
import { Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";

const probe = defineTool({
  name: "probe",
  description: "Looks at something.",
  parameters: () => z.object({ what: z.string() }),
  effect: "read",
  execute: async ({ what }) => `nothing new about ${what}`,
});

async function run(calls: string[]) {
  const model = new ScriptedProvider([
    ...calls.map((what) => ({ toolCalls: [{ name: "probe", arguments: { what } }] })),
    { text: "done" },
  ]);
  const conversation = new Conversation([{ role: "user", content: "go" }]);
  await runAgentLoop(
    {
      provider: model,
      system: "s",
      tools: new ToolRegistry([probe]),
      workspace: new Workspace(tempDir()),
      maxTurns: 20,
      extensions: [createRepeatedCallGuard(3)],
      emit: () => {},
    },
    conversation,
  );
  return conversation.messages.filter((m): m is ToolResultMessage => m.role === "tool").map((m) => m.content);
}

describe("repeated-call guard", () => {
  it("notes the third identical call in a row, and each one after", async () => {
    const results = await run(["a", "a", "a", "a"]);
    expect(results.slice(0, 2)).toEqual(["nothing new about a", "nothing new about a"]);
    expect(results[2]).toMatch(/^nothing new about a\n\n\[hx: this is call 3 in a row of probe/);
    expect(results[3]).toMatch(/call 4 in a row/);
  });

  it("counts again from one when the arguments change", async () => {
    const results = await run(["a", "a", "b", "a", "a"]);
    expect(results.every((r) => !r.includes("[hx:"))).toBe(true);
  });
});
