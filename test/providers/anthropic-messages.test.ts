import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/core/messages.js";
import { toAnthropicMessages } from "../../src/providers/anthropic-messages-request.js";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { anthropicProvider, completeRecording, expectProviderError, request } from "./helpers.js";

let server: FakeModelServer;
beforeEach(async () => {
  server = await startFakeModelServer();
});
afterEach(async () => {
  await server.close();
});

const TOOL = { name: "bash", description: "Run a command", parameters: { type: "object" } };

describe("anthropic-messages conversion", () => {
  it("groups consecutive tool results into one user message with is_error set", () => {
    const messages: Message[] = [
      { role: "user", content: "check" },
      {
        role: "assistant",
        content: "Two things.",
        toolCalls: [
          { id: "t1", name: "bash", arguments: '{"command":"ls"}' },
          { id: "t2", name: "bash", arguments: "{broken" },
        ],
      },
      { role: "tool", toolCallId: "t1", toolName: "bash", content: "a.txt" },
      { role: "tool", toolCallId: "t2", toolName: "bash", content: "Error: bad args", isError: true },
    ];
    const wire = toAnthropicMessages(messages);
    expect(wire).toHaveLength(3);
    expect(wire[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Two things." },
        { type: "tool_use", id: "t1", name: "bash", input: { command: "ls" } },
        { type: "tool_use", id: "t2", name: "bash", input: {} },
      ],
    });
    expect(wire[2]!.role).toBe("user");
    expect(wire[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "a.txt" },
      {
        type: "tool_result",
        tool_use_id: "t2",
        content: "Error: bad args",
        is_error: true,
        cache_control: { type: "ephemeral" },
      },
    ]);
  });

  it("sends thinking with its signature back only on assistant messages with tool calls", () => {
    const wire = toAnthropicMessages([
      { role: "user", content: "a" },
      { role: "assistant", content: "plain", toolCalls: [], reasoning: { text: "t0", signature: "s0" } },
      { role: "user", content: "b" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "t1", name: "bash", arguments: "{}" }],
        reasoning: { text: "need bash", signature: "sig-123" },
      },
      { role: "tool", toolCallId: "t1", toolName: "bash", content: "ok" },
    ]);
    expect(wire[1]!.content).toEqual([{ type: "text", text: "plain" }]);
    expect(wire[3]!.content[0]).toEqual({ type: "thinking", thinking: "need bash", signature: "sig-123" });
    expect(wire[3]!.content[1]).toMatchObject({ type: "tool_use", id: "t1" });
  });

  it("sends system and tools with cache_control breakpoints and a max_tokens default", async () => {
    server.reply().text("ok");
    const provider = await anthropicProvider(server.url);
    await provider.complete({
      system: "SYSTEM PROMPT",
      messages: [{ role: "user", content: "hi" }],
      tools: [TOOL, { ...TOOL, name: "read" }],
    });
    const { body, path, headers } = server.requests[0]!;
    expect(path).toBe("/v1/messages");
    // SDK 1.14 sends the API key as a bearer token.
    expect(headers.authorization).toBe("Bearer test-key");
    expect(body.system).toEqual([
      { type: "text", text: "SYSTEM PROMPT", cache_control: { type: "ephemeral" } },
    ]);
    expect(body.tools[0]).not.toHaveProperty("cache_control");
    expect(body.tools[1]).toEqual({
      name: "read",
      description: "Run a command",
      input_schema: { type: "object" },
      cache_control: { type: "ephemeral" },
    });
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
    ]);
    expect(body.max_tokens).toBeGreaterThan(0);
    expect(body.stream).toBe(true);
  });
});

describe("anthropic-messages streaming", () => {
  it("streams text and reasoning, keeps the thinking signature and parses tool input", async () => {
    server
      .reply()
      .reasoning("I will run ls.", { signature: "sig-abc", chunks: 3 })
      .text("Listing.", { chunks: 2 })
      .tool("bash", { command: "ls -la" }, { chunks: 4, id: "toolu_1" });
    const provider = await anthropicProvider(server.url);
    const { response, deltas } = await completeRecording(provider, { ...request(), tools: [TOOL] });
    expect(
      deltas
        .filter((d) => d.type === "reasoning")
        .map((d) => d.text)
        .join(""),
    ).toBe("I will run ls.");
    expect(deltas.filter((d) => d.type === "text").map((d) => d.text)).toEqual(["List", "ing."]);
    expect(response.message.reasoning).toEqual({ text: "I will run ls.", signature: "sig-abc" });
    expect(response.message.content).toBe("Listing.");
    expect(response.message.toolCalls).toEqual([
      { id: "toolu_1", name: "bash", arguments: '{"command":"ls -la"}' },
    ]);
    expect(response.stopReason).toBe("tool_calls");
  });

  it("reports usage with cache reads and writes counted in the input", async () => {
    server.reply().text("ok").usage({ input: 2000, cached: 1500, cacheWrite: 300, output: 42 });
    const provider = await anthropicProvider(server.url);
    const { response } = await completeRecording(provider, request());
    expect(response.usage).toEqual({
      inputTokens: 2000,
      outputTokens: 42,
      cachedInputTokens: 1500,
      cacheWriteTokens: 300,
      reasoningTokens: 0,
    });
  });

  it("passes the thinking switch", async () => {
    server.reply().text("a");
    server.reply().text("b");
    await (
      await anthropicProvider(server.url, { thinking: true, config: { maxOutputTokens: 8000 } })
    ).complete(request());
    await (await anthropicProvider(server.url)).complete(request());
    expect(server.requests[0]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 4000 });
    expect(server.requests[0]!.body.max_tokens).toBe(8000);
    expect(server.requests[1]!.body).not.toHaveProperty("thinking");
  });

  it("ignores ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN in the environment", async () => {
    const saved = { url: process.env.ANTHROPIC_BASE_URL, token: process.env.ANTHROPIC_AUTH_TOKEN };
    process.env.ANTHROPIC_BASE_URL = "http://127.0.0.1:9";
    process.env.ANTHROPIC_AUTH_TOKEN = "env-token";
    try {
      server.reply().text("right server");
      const provider = await anthropicProvider(server.url);
      expect((await provider.complete(request())).message.content).toBe("right server");
      expect(server.requests[0]!.headers.authorization).toBe("Bearer test-key");
    } finally {
      for (const [key, value] of [
        ["ANTHROPIC_BASE_URL", saved.url],
        ["ANTHROPIC_AUTH_TOKEN", saved.token],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});

describe("anthropic-messages failures", () => {
  it("maps 401 to 'auth' naming ANTHROPIC_API_KEY", async () => {
    server.httpError(401, {
      type: "error",
      error: { type: "authentication_error", message: "invalid x-api-key" },
    });
    const error = await expectProviderError(await anthropicProvider(server.url));
    expect(error.kind).toBe("auth");
    expect(error.message).toContain(`API key rejected by ${server.url}`);
    expect(error.message).toContain("invalid x-api-key");
    expect(error.hint).toContain("ANTHROPIC_API_KEY");
  });

  it("retries overloaded 529s and gives up with 'server'", async () => {
    const body = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    server.httpError(529, body);
    server.httpError(529, body);
    server.httpError(529, body);
    const retries: string[] = [];
    const error = await expectProviderError(await anthropicProvider(server.url), request(), {
      onRetry: (info) => retries.push(info.reason),
    });
    expect(error.kind).toBe("server");
    expect(error.message).toContain("Overloaded");
    expect(retries).toEqual(["server error (HTTP 529)", "server error (HTTP 529)"]);
  });

  it("maps 'prompt is too long' to 'context_overflow'", async () => {
    server.httpError(400, {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
    });
    const error = await expectProviderError(await anthropicProvider(server.url));
    expect(error.kind).toBe("context_overflow");
  });

  it("retries a dropped stream", async () => {
    server.dropAfter(4).text("Complete answer", { chunks: 5 });
    server.reply().text("Complete answer");
    const { response, retries } = await completeRecording(await anthropicProvider(server.url), request());
    expect(response.message.content).toBe("Complete answer");
    expect(retries).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it("retries an overloaded error event inside a 200 stream", async () => {
    server.raw(
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}}\n\n' +
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    );
    server.reply().text("second try");
    const { response, retries } = await completeRecording(await anthropicProvider(server.url), request());
    expect(response.message.content).toBe("second try");
    expect(retries).toHaveLength(1);
  });
});

describe("anthropic-messages images in tool results", () => {
  it("sends a tool result's images as image blocks after its text", () => {
    const wire = toAnthropicMessages([
      { role: "user", content: "look" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "t1", name: "mcp__fx__picture", arguments: "{}" }],
      },
      {
        role: "tool",
        toolCallId: "t1",
        toolName: "mcp__fx__picture",
        content: "[image: image/png, 8 B; attached for models that take images]",
        images: [{ mimeType: "image/png", data: "iVBORw0KGgo=" }],
      },
    ]);
    expect(wire[2]!.content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: "t1",
      content: [
        { type: "text", text: "[image: image/png, 8 B; attached for models that take images]" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      ],
    });
  });
});
