import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_HISTORY_ARGUMENT_CHARS } from "../../src/agent/history-arguments.js";
import { runAgentLoop } from "../../src/agent/loop.js";
import { Conversation } from "../../src/core/conversation.js";
import type { AssistantMessage } from "../../src/core/messages.js";
import { ScriptedProvider } from "../../src/providers/scripted.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { defineTool } from "../../src/tools/tool.js";
import { Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";

describe("oversized tool-call arguments in the history", () => {
  it("are cut with a marker in what is sent again, while the tool gets them whole", async () => {
    const received: string[] = [];
    const save = defineTool({
      name: "save",
      description: "Saves text.",
      parameters: () => z.object({ path: z.string(), content: z.string() }),
      effect: "none",
      execute: async ({ content }) => {
        received.push(content);
        return "saved";
      },
    });
    const content = "x".repeat(20 * 1024 * 1024);
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "save", arguments: { path: "big.txt", content } }] },
      { text: "done" },
    ]);
    const conversation = new Conversation([{ role: "user", content: "write it" }]);
    await runAgentLoop(
      {
        provider: model,
        system: "s",
        tools: new ToolRegistry([save]),
        workspace: new Workspace(tempDir("hx-history-args-")),
        maxTurns: 5,
        extensions: [],
        emit: () => {},
      },
      conversation,
    );

    expect(received).toEqual([content]);
    const sentAgain = model.requests[1].messages.find((m): m is AssistantMessage => m.role === "assistant");
    const args = JSON.parse(sentAgain?.toolCalls[0].arguments ?? "{}");
    expect(args.path).toBe("big.txt");
    expect(args.content.length).toBeLessThan(MAX_HISTORY_ARGUMENT_CHARS + 300);
    expect(args.content.startsWith("x".repeat(1000))).toBe(true);
    expect(args.content).toContain(
      `[hx: ${(content.length - MAX_HISTORY_ARGUMENT_CHARS).toLocaleString("en-US")} more characters of this argument are left out`,
    );
    expect(args.content).toContain("the tool received the whole argument");
  });

  it("leaves ordinary arguments as they are", async () => {
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "nop", arguments: { text: "short" } }] },
      { text: "ok" },
    ]);
    const nop = defineTool({
      name: "nop",
      description: "Does nothing.",
      parameters: () => z.object({ text: z.string() }),
      effect: "none",
      execute: async () => "ok",
    });
    const conversation = new Conversation([{ role: "user", content: "go" }]);
    await runAgentLoop(
      {
        provider: model,
        system: "s",
        tools: new ToolRegistry([nop]),
        workspace: new Workspace(tempDir("hx-history-args-")),
        maxTurns: 5,
        extensions: [],
        emit: () => {},
      },
      conversation,
    );
    const assistant = conversation.messages.find((m): m is AssistantMessage => m.role === "assistant");
    expect(JSON.parse(assistant?.toolCalls[0].arguments ?? "{}")).toEqual({ text: "short" });
  });
});
