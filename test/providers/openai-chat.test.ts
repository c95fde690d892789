import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/core/messages.js";
import { toChatMessages } from "../../src/providers/openai-chat-request.js";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import {
  completeRecording,
  DEEPSEEK_COMPAT,
  expectProviderError,
  OPENAI_COMPAT,
  openaiProvider,
  request,
} from "./helpers.js";

let server: FakeModelServer;
beforeEach(async () => {
  server = await startFakeModelServer();
});
afterEach(async () => {
  await server.close();
});

describe("openai-chat streaming", () => {
  it("streams text deltas and assembles the answer", async () => {
    server.reply().text("Hello from the fake model", { chunks: 5 });
    const provider = await openaiProvider(`${server.url}/v1`);
    const { response, deltas } = await completeRecording(provider, request());
    expect(deltas.length).toBe(5);
    expect(deltas.every((d) => d.type === "text")).toBe(true);
    expect(deltas.map((d) => d.text).join("")).toBe("Hello from the fake model");
    expect(response.message).toEqual({
      role: "assistant",
      content: "Hello from the fake model",
      toolCalls: [],
    });
    expect(response.stopReason).toBe("stop");
    expect(server.requests[0]!.path).toBe("/v1/chat/completions");
    expect(server.requests[0]!.body.stream).toBe(true);
    expect(server.requests[0]!.body.stream_options).toEqual({ include_usage: true });
  });

  it("assembles a tool call whose arguments are split across many chunks", async () => {
    const args = { command: 'grep -rn "needle" src', timeout: 30 };
    server.reply().tool("bash", args, { chunks: 9, id: "call_abc" });
    const provider = await openaiProvider(`${server.url}/v1`);
    const { response } = await completeRecording(provider, {
      ...request(),
      tools: [{ name: "bash", description: "Run a command", parameters: { type: "object" } }],
    });
    expect(response.stopReason).toBe("tool_calls");
    expect(response.message.toolCalls).toHaveLength(1);
    const call = response.message.toolCalls[0]!;
    expect(call).toMatchObject({ id: "call_abc", name: "bash" });
    expect(JSON.parse(call.arguments)).toEqual(args);
    expect(server.requests[0]!.body.tools).toEqual([
      {
        type: "function",
        function: { name: "bash", description: "Run a command", parameters: { type: "object" } },
      },
    ]);
  });

  it("assembles parallel tool calls in one message, in index order", async () => {
    server
      .reply()
      .text("Reading both.")
      .tool("read", { path: "a.txt" }, { chunks: 4 })
      .tool("read", { path: "b.txt" }, { chunks: 2 })
      .tool("bash", { command: "ls" });
    const provider = await openaiProvider(`${server.url}/v1`);
    const { response } = await completeRecording(provider, request());
    expect(response.message.content).toBe("Reading both.");
    expect(response.message.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ["read", { path: "a.txt" }],
      ["read", { path: "b.txt" }],
      ["bash", { command: "ls" }],
    ]);
    expect(new Set(response.message.toolCalls.map((c) => c.id)).size).toBe(3);
  });

  it("reports usage from the final usage chunk", async () => {
    server.reply().text("ok").usage({ input: 1200, output: 34, cached: 1024, reasoning: 12 });
    const provider = await openaiProvider(`${server.url}/v1`);
    const { response } = await completeRecording(provider, request());
    expect(response.usage).toEqual({
      inputTokens: 1200,
      outputTokens: 34,
      cachedInputTokens: 1024,
      cacheWriteTokens: 0,
      reasoningTokens: 12,
    });
  });

  it("reads DeepSeek's prompt_cache_hit_tokens and usage in the finish chunk", async () => {
    const chunk = (body: object) => `data: ${JSON.stringify(body)}\n\n`;
    server.raw(
      chunk({ choices: [{ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }] }) +
        chunk({
          choices: [{ index: 0, delta: { content: "" }, finish_reason: "stop" }],
          usage: {
            prompt_tokens: 300,
            completion_tokens: 2,
            prompt_cache_hit_tokens: 256,
            prompt_cache_miss_tokens: 44,
          },
        }) +
        "data: [DONE]\n\n",
    );
    const provider = await openaiProvider(server.url, { compat: DEEPSEEK_COMPAT });
    const { response } = await completeRecording(provider, request());
    expect(response.message.content).toBe("Hi");
    expect(response.usage).toMatchObject({ inputTokens: 300, outputTokens: 2, cachedInputTokens: 256 });
  });

  it("handles quirky tool-call deltas: empty repeated ids, empty names, index starting at 1", async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    server.raw(
      chunk({
        tool_calls: [{ index: 1, id: "call_q", type: "function", function: { name: "read", arguments: "" } }],
      }) +
        chunk({ tool_calls: [{ index: 1, id: "", function: { name: "", arguments: '{"path":' } }] }) +
        chunk({ tool_calls: [{ index: 1, id: "", function: { arguments: '"x.ts"}' } }] }) +
        chunk({ tool_calls: [{ index: 1, id: "", function: { arguments: "" } }] }) +
        chunk({}, "tool_calls") +
        "data: [DONE]\n\n",
    );
    const provider = await openaiProvider(`${server.url}/v1`);
    const { response } = await completeRecording(provider, request());
    expect(response.message.toolCalls).toEqual([
      { id: "call_q", name: "read", arguments: '{"path":"x.ts"}' },
    ]);
  });
});

describe("openai-chat request", () => {
  it("sends system, user, assistant tool calls and tool results in Chat Completions form", async () => {
    server.reply().text("done");
    const provider = await openaiProvider(`${server.url}/v1`);
    const messages: Message[] = [
      { role: "user", content: "list files" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"ls"}' }],
        reasoning: { text: "I should list." },
      },
      { role: "tool", toolCallId: "c1", toolName: "bash", content: "a.txt", isError: false },
    ];
    await provider.complete(request(messages, "SYSTEM"));
    expect(server.requests[0]!.body.messages).toEqual([
      { role: "system", content: "SYSTEM" },
      { role: "user", content: "list files" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "a.txt" },
    ]);
  });

  it("never sends reasoning back to non-DeepSeek endpoints and sends no thinking switch", async () => {
    server.reply().text("ok");
    const provider = await openaiProvider(`${server.url}/v1`, { compat: OPENAI_COMPAT, thinking: true });
    await provider.complete(
      request([
        { role: "user", content: "q" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c", name: "x", arguments: "{}" }],
          reasoning: { text: "r" },
        },
        { role: "tool", toolCallId: "c", toolName: "x", content: "out" },
      ]),
    );
    const body = server.requests[0]!.body;
    expect(JSON.stringify(body)).not.toContain("reasoning_content");
    expect(body).not.toHaveProperty("thinking");
  });

  it("uses the compat's output-limit field", async () => {
    server.reply().text("a");
    server.reply().text("b");
    const openai = await openaiProvider(`${server.url}/v1`, { config: { maxOutputTokens: 777 } });
    await openai.complete(request());
    const deepseek = await openaiProvider(server.url, {
      compat: DEEPSEEK_COMPAT,
      config: { maxOutputTokens: 555 },
    });
    await deepseek.complete(request());
    expect(server.requests[0]!.body.max_completion_tokens).toBe(777);
    expect(server.requests[0]!.body).not.toHaveProperty("max_tokens");
    expect(server.requests[1]!.body.max_tokens).toBe(555);
  });

  it("ignores OPENAI_BASE_URL in the environment", async () => {
    const saved = process.env.OPENAI_BASE_URL;
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    try {
      server.reply().text("reached the right server");
      const provider = await openaiProvider(`${server.url}/v1`, { config: { maxRetries: 0 } });
      const response = await provider.complete(request());
      expect(response.message.content).toBe("reached the right server");
      expect(server.requests).toHaveLength(1);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_BASE_URL;
      else process.env.OPENAI_BASE_URL = saved;
    }
  });
});

describe("DeepSeek thinking mode", () => {
  it("streams reasoning_content as reasoning deltas and stores it on the message", async () => {
    server.reply().reasoning("Let me think about it.", { chunks: 4 }).text("42");
    const provider = await openaiProvider(server.url, { compat: DEEPSEEK_COMPAT, thinking: true });
    const { response, deltas } = await completeRecording(provider, request());
    expect(deltas.filter((d) => d.type === "reasoning").map((d) => d.text)).toHaveLength(4);
    expect(response.message.reasoning).toEqual({ text: "Let me think about it." });
    expect(response.message.content).toBe("42");
  });

  it("sends reasoning_content back for tool-call turns and drops it for plain answers", async () => {
    const provider = await openaiProvider(server.url, { compat: DEEPSEEK_COMPAT, thinking: true });
    const messages: Message[] = [{ role: "user", content: "What is 6*7?" }];
    server.reply().reasoning("Simple arithmetic.").text("42");
    messages.push((await provider.complete(request(messages))).message);
    messages.push({ role: "user", content: "Now list the files." });
    server.reply().reasoning("I need the bash tool.").tool("bash", { command: "ls" });
    const toolTurn = (await provider.complete(request(messages))).message;
    messages.push(toolTurn);
    messages.push({
      role: "tool",
      toolCallId: toolTurn.toolCalls[0]!.id,
      toolName: "bash",
      content: "a.txt",
    });
    server.reply().text("There is a.txt.");
    await provider.complete(request(messages));

    const sent = server.requests[2]!.body.messages as Record<string, unknown>[];
    const assistants = sent.filter((m) => m.role === "assistant");
    expect(assistants).toHaveLength(2);
    expect(assistants[0]!.content).toBe("42");
    expect(assistants[0]).not.toHaveProperty("reasoning_content");
    expect(assistants[1]!.reasoning_content).toBe("I need the bash tool.");
    expect(assistants[1]!.tool_calls).toHaveLength(1);
  });

  it("sends an empty reasoning_content for a tool call that came without reasoning", async () => {
    server.reply().text("ok");
    const provider = await openaiProvider(server.url, { compat: DEEPSEEK_COMPAT, thinking: true });
    await provider.complete(
      request([
        { role: "user", content: "q" },
        { role: "assistant", content: "", toolCalls: [{ id: "c", name: "x", arguments: "{}" }] },
        { role: "tool", toolCallId: "c", toolName: "x", content: "out" },
      ]),
    );
    const assistant = server.requests[0]!.body.messages.find((m: { role: string }) => m.role === "assistant");
    expect(assistant.reasoning_content).toBe("");
  });

  it("passes the thinking switch in the body", async () => {
    server.reply().text("a");
    server.reply().text("b");
    server.reply().text("c");
    await (await openaiProvider(server.url, { compat: DEEPSEEK_COMPAT, thinking: true })).complete(request());
    await (await openaiProvider(server.url, { compat: DEEPSEEK_COMPAT, thinking: false })).complete(
      request(),
    );
    await (await openaiProvider(server.url, { compat: DEEPSEEK_COMPAT })).complete(request());
    expect(server.requests[0]!.body.thinking).toEqual({ type: "enabled" });
    expect(server.requests[1]!.body.thinking).toEqual({ type: "disabled" });
    expect(server.requests[2]!.body).not.toHaveProperty("thinking");
  });
});

describe("openai-chat failures", () => {
  it("retries a 429 honouring retry-after-ms, then succeeds", async () => {
    server.httpError(429, undefined, { "retry-after-ms": "10" });
    server.reply().text("after the wait");
    const provider = await openaiProvider(`${server.url}/v1`);
    const { response, retries } = await completeRecording(provider, request());
    expect(response.message.content).toBe("after the wait");
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual([
      { attempt: 1, delayMs: 10, reason: "rate limited (HTTP 429)", discard: { text: 0, reasoning: 0 } },
    ]);
  });

  it("retries a 500, then succeeds", async () => {
    server.httpError(500);
    server.reply().text("recovered");
    const provider = await openaiProvider(`${server.url}/v1`);
    const { response, retries } = await completeRecording(provider, request());
    expect(response.message.content).toBe("recovered");
    expect(retries.map((r) => r.reason)).toEqual(["server error (HTTP 500)"]);
  });

  it("gives up on a 500 that persists with a 'server' error naming the endpoint", async () => {
    for (let i = 0; i < 3; i += 1) server.httpError(500, { error: { message: "upstream exploded" } });
    const provider = await openaiProvider(`${server.url}/v1`, { config: { maxRetries: 2 } });
    const error = await expectProviderError(provider);
    expect(error.kind).toBe("server");
    expect(error.message).toContain(`${server.url}/v1`);
    expect(error.message).toContain("HTTP 500");
    expect(error.message).toContain("upstream exploded");
    expect(error.status).toBe(500);
    expect(error.hint).toBe("The provider is having trouble; try again later.");
    expect(server.requests).toHaveLength(3);
  });

  it("maps a 429 that outlasts the retries to 'rate_limit'", async () => {
    server.httpError(429, { error: { message: "slow down", type: "rate_limit_error" } });
    server.httpError(429, { error: { message: "slow down", type: "rate_limit_error" } });
    const provider = await openaiProvider(`${server.url}/v1`, { config: { maxRetries: 1 } });
    const error = await expectProviderError(provider);
    expect(error.kind).toBe("rate_limit");
    expect(error.message).toContain("slow down");
  });

  it("retries a stream that drops mid-way and returns the full answer", async () => {
    server.dropAfter(3).text("The complete answer text", { chunks: 6 });
    server.reply().text("The complete answer text", { chunks: 6 });
    const provider = await openaiProvider(`${server.url}/v1`);
    const { response, retries } = await completeRecording(provider, request());
    expect(response.message.content).toBe("The complete answer text");
    expect(server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.reason).toMatch(/dropped/);
  });

  it("fails with 'network' when every stream drops", async () => {
    server.dropAfter(2).text("partial answer");
    server.dropAfter(2).text("partial answer");
    const provider = await openaiProvider(`${server.url}/v1`, { config: { maxRetries: 1 } });
    const error = await expectProviderError(provider);
    expect(error.kind).toBe("network");
    expect(error.message).toContain("dropped");
    expect(server.requests).toHaveLength(2);
  });

  it("maps 401 to 'auth' naming the endpoint and the key variable", async () => {
    server.httpError(401, {
      error: { message: "Incorrect API key provided", type: "invalid_request_error" },
    });
    const provider = await openaiProvider(`${server.url}/v1`, { keyEnv: "DEEPSEEK_API_KEY" });
    const error = await expectProviderError(provider);
    expect(error.kind).toBe("auth");
    expect(error.message).toContain(`API key rejected by ${server.url}/v1`);
    expect(error.hint).toContain("DEEPSEEK_API_KEY");
    expect(server.requests).toHaveLength(1);
  });

  it("maps context-length 400s to 'context_overflow' (OpenAI and DeepSeek wording)", async () => {
    server.httpError(400, {
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        type: "invalid_request_error",
        code: "context_length_exceeded",
      },
    });
    server.httpError(400, {
      error: {
        message:
          "This model's maximum context length is 1048576 tokens. However, you requested 1100000 tokens (1100000 in the messages, 0 in the completion). Please reduce the length of the messages or completion.",
        type: "invalid_request_error",
      },
    });
    const provider = await openaiProvider(`${server.url}/v1`);
    for (const _ of [1, 2]) {
      const error = await expectProviderError(provider);
      expect(error.kind).toBe("context_overflow");
      expect(error.message).toContain("maximum context length");
    }
  });

  it("maps other 400s to 'bad_request' quoting the server", async () => {
    server.httpError(400, {
      error: { message: "Unsupported parameter: 'max_tokens'", type: "invalid_request_error" },
    });
    const provider = await openaiProvider(`${server.url}/v1`);
    const error = await expectProviderError(provider);
    expect(error.kind).toBe("bad_request");
    expect(error.message).toContain("Unsupported parameter: 'max_tokens'");
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  it("maps a refused connection to 'network'", async () => {
    const port = await closedPort();
    const provider = await openaiProvider(`http://127.0.0.1:${port}/v1`, { config: { maxRetries: 1 } });
    const { retries } = { retries: [] as string[] };
    const error = await expectProviderError(provider, request(), { onRetry: (r) => retries.push(r.reason) });
    expect(error.kind).toBe("network");
    expect(error.message).toContain(`Could not reach http://127.0.0.1:${port}/v1`);
    expect(retries).toHaveLength(1);
  });

  it("maps a server that never answers to 'network' after the timeout", async () => {
    server.hang();
    const provider = await openaiProvider(`${server.url}/v1`, { config: { maxRetries: 0, timeoutMs: 200 } });
    const error = await expectProviderError(provider);
    expect(error.kind).toBe("network");
    expect(error.message).toContain("did not begin to answer within 200 ms");
    expect(error.hint).toContain("HX_REQUEST_TIMEOUT_MS (now 200)");
  });

  it("treats a stream that goes silent as dropped", async () => {
    server.reply().text("slow", { chunks: 4 }).delay(400);
    server.reply().text("fast");
    const provider = await openaiProvider(`${server.url}/v1`, {
      config: { maxRetries: 1, streamIdleTimeoutMs: 150 },
    });
    const { response, retries } = await completeRecording(provider, request());
    expect(response.message.content).toBe("fast");
    expect(retries[0]!.reason).toBe("the stream sent nothing for 150 ms");
  });

  it("maps cancellation to 'aborted'", async () => {
    server.hang();
    const provider = await openaiProvider(`${server.url}/v1`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await expectProviderError(provider, request(), { signal: controller.signal });
    expect(error.kind).toBe("aborted");
  });

  it("maps cancellation mid-stream to 'aborted'", async () => {
    server.reply().text("a long answer that streams slowly", { chunks: 10 }).delay(50);
    const provider = await openaiProvider(`${server.url}/v1`);
    const controller = new AbortController();
    const error = await expectProviderError(provider, request(), {
      signal: controller.signal,
      onDelta: () => controller.abort(),
    });
    expect(error.kind).toBe("aborted");
    expect(server.requests).toHaveLength(1);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe("openai-chat images in tool results", () => {
  const messages: Message[] = [
    { role: "user", content: "look" },
    { role: "assistant", content: "", toolCalls: [{ id: "t1", name: "mcp__fx__picture", arguments: "{}" }] },
    {
      role: "tool",
      toolCallId: "t1",
      toolName: "mcp__fx__picture",
      content: "[image: image/png, 8 B; attached for models that take images]",
      images: [{ mimeType: "image/png", data: "iVBORw0KGgo=" }],
    },
  ];
  const compat = {
    sendReasoningContent: false,
    thinkingFormat: "none",
    maxTokensField: "max_tokens",
  } as const;

  it("follows the turn's tool messages with one user message of image parts when the endpoint takes images", () => {
    const wire = toChatMessages({ system: "", messages, tools: [] }, { ...compat, images: true });
    expect(wire.at(-2)).toMatchObject({ role: "tool", tool_call_id: "t1" });
    expect(wire.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "text", text: "Images returned by mcp__fx__picture:" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      ],
    });
  });

  it("sends only the note when it does not", () => {
    const wire = toChatMessages({ system: "", messages, tools: [] }, compat);
    expect(wire.at(-1)).toMatchObject({
      role: "tool",
      content: expect.stringContaining("[image: image/png"),
    });
  });
});
