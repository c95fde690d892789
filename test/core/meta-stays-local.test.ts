import { describe, expect, it } from "vitest";
import type { Message } from "../../src/core/messages.js";
import { buildMessagesRequest } from "../../src/providers/anthropic-messages-request.js";
import { buildChatRequest } from "../../src/providers/openai-chat-request.js";
import type { ModelRequest } from "../../src/providers/provider.js";

const messages: Message[] = [
  { role: "user", content: "go", meta: { kind: "reminder", skills: [{ name: "s", start: 0, end: 2 }] } },
  { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "load_skill", arguments: "{}" }] },
  {
    role: "tool",
    toolCallId: "c1",
    toolName: "load_skill",
    content: "body",
    meta: { skill: "s", keepWhole: true },
  },
];
const request: ModelRequest = { system: "sys", messages, tools: [] };

describe("message meta", () => {
  it("is never sent to a model: not in Chat Completions bodies", () => {
    const body = buildChatRequest(request, {
      model: "m",
      compat: { sendReasoningContent: false, thinkingFormat: "none", maxTokensField: "max_tokens" },
    });
    expect(JSON.stringify(body)).not.toMatch(/meta|keepWhole|reminder/);
  });

  it("is never sent to a model: not in Anthropic Messages bodies", () => {
    const body = buildMessagesRequest(request, { model: "m" });
    expect(JSON.stringify(body)).not.toMatch(/meta|keepWhole|reminder/);
  });
});
