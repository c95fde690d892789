/**
 * Replays every recorded provider stream in /work/shared/fixtures/provider-streams through the
 * fake server and the real providers, and checks the assembled messages. Text and reasoning are
 * checked against a plain concatenation of the recorded deltas; tool calls and usage against
 * the values the recordings encode (listed below).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { Usage } from "../../src/core/messages.js";
import type { ModelProvider, ProviderErrorKind } from "../../src/providers/provider.js";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import {
  anthropicProvider,
  completeRecording,
  DEEPSEEK_COMPAT,
  expectProviderError,
  openaiProvider,
  request,
} from "./helpers.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dir = path.resolve(repoRoot, "../shared/fixtures/provider-streams");

type Wire = "openai" | "anthropic";

interface Expected {
  toolCalls: [string, unknown][];
  usage: Partial<Usage>;
  stopReason: "stop" | "tool_calls" | "length";
  signature?: boolean;
}

/** One replayable stream: where its bytes come from and what it must assemble to. */
interface StreamCase {
  name: string;
  wire: Wire;
  sse: () => string;
  expected: Expected;
}

const usage = (
  inputTokens: number,
  outputTokens: number,
  cachedInputTokens = 0,
  reasoningTokens = 0,
  cacheWriteTokens = 0,
) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
  reasoningTokens,
  cacheWriteTokens,
});
const calls = (...list: [string, unknown][]) => list;

const read = (file: string) => readFileSync(path.join(dir, file), "utf8");
const lines = (file: string) =>
  read(file)
    .split("\n")
    .filter((line) => line.trim() !== "");
/** F1 chunk file as SSE: `data:` frames, plus `[DONE]` (OpenAI) or `event:` lines (Anthropic). */
const chunkFile = (file: string, wire: Wire) => () =>
  wire === "openai"
    ? `${lines(file)
        .map((line) => `data: ${line}\n\n`)
        .join("")}data: [DONE]\n\n`
    : lines(file)
        .map((line) => `event: ${JSON.parse(line).type}\ndata: ${line}\n\n`)
        .join("");
const opencodeBody = (file: string, index: number) => () =>
  JSON.parse(read(file)).interactions[index].response.body;
const harnessBody = (file: string, index: number) => () =>
  JSON.parse(read(file)).exchanges[index].response.body.value;
const cassetteBody = (file: string, index: number) => () =>
  parseYaml(read(file)).interactions[index].response.body.string;

const STREAMS: StreamCase[] = [
  // openai/
  {
    name: "openai/openai-text.chunks.txt",
    wire: "openai",
    sse: chunkFile("openai/openai-text.chunks.txt", "openai"),
    expected: { toolCalls: [], usage: usage(16, 300), stopReason: "stop" },
  },
  {
    name: "openai/issue-15789-step-1.chunks.txt",
    wire: "openai",
    sse: chunkFile("openai/issue-15789-step-1.chunks.txt", "openai"),
    expected: { toolCalls: calls(["weather", {}]), usage: usage(58, 12), stopReason: "tool_calls" },
  },
  {
    name: "openai/issue-15789-step-2.chunks.txt",
    wire: "openai",
    sse: chunkFile("openai/issue-15789-step-2.chunks.txt", "openai"),
    expected: { toolCalls: [], usage: usage(86, 2), stopReason: "stop" },
  },
  {
    name: "openai/azure-model-router.1.chunks.txt",
    wire: "openai",
    sse: chunkFile("openai/azure-model-router.1.chunks.txt", "openai"),
    expected: { toolCalls: [], usage: usage(15, 78, 0, 64), stopReason: "stop" },
  },
  {
    name: "openai/drives-a-tool-loop-end-to-end.json #1",
    wire: "openai",
    sse: opencodeBody("openai/drives-a-tool-loop-end-to-end.json", 0),
    expected: {
      toolCalls: calls(["get_weather", { city: "Paris" }]),
      usage: usage(64, 14),
      stopReason: "tool_calls",
    },
  },
  {
    name: "openai/drives-a-tool-loop-end-to-end.json #2",
    wire: "openai",
    sse: opencodeBody("openai/drives-a-tool-loop-end-to-end.json", 1),
    expected: { toolCalls: [], usage: usage(96, 15), stopReason: "stop" },
  },
  {
    name: "openai/test_complex_agent_run.yaml #1",
    wire: "openai",
    sse: cassetteBody("openai/test_complex_agent_run.yaml", 0),
    expected: {
      toolCalls: calls(["get_country", {}], ["get_product_name", {}]),
      usage: usage(364, 40),
      stopReason: "tool_calls",
    },
  },
  {
    name: "openai/test_complex_agent_run.yaml #2",
    wire: "openai",
    sse: cassetteBody("openai/test_complex_agent_run.yaml", 1),
    expected: {
      toolCalls: calls(["get_weather", { city: "Mexico City" }]),
      usage: usage(423, 15),
      stopReason: "tool_calls",
    },
  },
  {
    name: "openai/test_complex_agent_run.yaml #3",
    wire: "openai",
    sse: cassetteBody("openai/test_complex_agent_run.yaml", 2),
    expected: {
      toolCalls: calls([
        "final_result",
        {
          answers: [
            { label: "Capital", answer: "The capital of Mexico is Mexico City." },
            { label: "Weather", answer: "The weather in Mexico City is currently sunny." },
            { label: "Product Name", answer: "The product name is Pydantic AI." },
          ],
        },
      ]),
      usage: usage(448, 62),
      stopReason: "tool_calls",
    },
  },
  // deepseek/
  {
    name: "deepseek/deepseek-text.chunks.txt",
    wire: "openai",
    sse: chunkFile("deepseek/deepseek-text.chunks.txt", "openai"),
    expected: { toolCalls: [], usage: usage(13, 400), stopReason: "length" },
  },
  {
    name: "deepseek/deepseek-reasoning.chunks.txt",
    wire: "openai",
    sse: chunkFile("deepseek/deepseek-reasoning.chunks.txt", "openai"),
    expected: { toolCalls: [], usage: usage(18, 219, 0, 205), stopReason: "stop" },
  },
  {
    name: "deepseek/deepseek-tool-call.chunks.txt",
    wire: "openai",
    sse: chunkFile("deepseek/deepseek-tool-call.chunks.txt", "openai"),
    expected: {
      toolCalls: calls(["weather", { location: "San Francisco" }]),
      usage: usage(339, 83, 320, 39),
      stopReason: "tool_calls",
    },
  },
  {
    name: "deepseek/deepseek-streams-text.json",
    wire: "openai",
    sse: opencodeBody("deepseek/deepseek-streams-text.json", 0),
    expected: { toolCalls: [], usage: usage(14, 2), stopReason: "stop" },
  },
  // openai-compatible/
  {
    name: "openai-compatible/xai-tool-call.chunks.txt",
    wire: "openai",
    sse: chunkFile("openai-compatible/xai-tool-call.chunks.txt", "openai"),
    expected: {
      toolCalls: calls(["weather", { location: "San Francisco" }]),
      usage: usage(307, 26, 306, 227),
      stopReason: "tool_calls",
    },
  },
  {
    name: "openai-compatible/alibaba-tool-call.chunks.txt",
    wire: "openai",
    sse: chunkFile("openai-compatible/alibaba-tool-call.chunks.txt", "openai"),
    expected: {
      toolCalls: calls(["weather", { location: "San Francisco" }]),
      usage: usage(295, 22),
      stopReason: "tool_calls",
    },
  },
  {
    name: "openai-compatible/groq-tool-call.chunks.txt",
    wire: "openai",
    sse: chunkFile("openai-compatible/groq-tool-call.chunks.txt", "openai"),
    expected: { toolCalls: calls(["weather", {}]), usage: usage(210, 15), stopReason: "tool_calls" },
  },
  {
    name: "openai-compatible/mistral-incremental-tool-call.chunks.txt",
    wire: "openai",
    sse: chunkFile("openai-compatible/mistral-incremental-tool-call.chunks.txt", "openai"),
    expected: {
      toolCalls: calls(["webSearchTool", { query: "current Berlin weather" }]),
      usage: usage(171, 14, 128),
      stopReason: "tool_calls",
    },
  },
  {
    name: "openai-compatible/anthropic-fallback-tool-call.sse",
    wire: "openai",
    sse: () => read("openai-compatible/anthropic-fallback-tool-call.sse"),
    expected: {
      toolCalls: calls(["read_file", { path: "a.txt" }]),
      usage: usage(0, 0),
      stopReason: "tool_calls",
    },
  },
  // anthropic/
  {
    name: "anthropic/anthropic-text.chunks.txt",
    wire: "anthropic",
    sse: chunkFile("anthropic/anthropic-text.chunks.txt", "anthropic"),
    expected: { toolCalls: [], usage: usage(12, 30), stopReason: "stop" },
  },
  {
    name: "anthropic/anthropic-json-tool.2.chunks.txt",
    wire: "anthropic",
    sse: chunkFile("anthropic/anthropic-json-tool.2.chunks.txt", "anthropic"),
    expected: {
      toolCalls: calls([
        "json",
        { elements: [{ location: "San Francisco", temperature: 58, condition: "sunny" }] },
      ]),
      usage: usage(849, 47),
      stopReason: "tool_calls",
    },
  },
  {
    name: "anthropic/anthropic-tool-no-args.chunks.txt",
    wire: "anthropic",
    sse: chunkFile("anthropic/anthropic-tool-no-args.chunks.txt", "anthropic"),
    expected: { toolCalls: calls(["updateIssueList", {}]), usage: usage(565, 48), stopReason: "tool_calls" },
  },
  {
    name: "anthropic/anthropic-issue-11719-quoted-tool-input.chunks.txt",
    wire: "anthropic",
    sse: chunkFile("anthropic/anthropic-issue-11719-quoted-tool-input.chunks.txt", "anthropic"),
    expected: {
      toolCalls: calls([
        "website_update",
        {
          website_path: "/home/user/pace-landing",
          tasks: [
            {
              description:
                'Today you post every run to Strava, but Strava does not answer the question: "What should I do next after this run?". It is a great log, but it is not adaptive.',
              type: "feature",
              passes: false,
            },
          ],
        },
      ]),
      usage: usage(912, 118),
      stopReason: "tool_calls",
    },
  },
  {
    name: "anthropic/anthropic-issue-15652-false.chunks.txt",
    wire: "anthropic",
    sse: chunkFile("anthropic/anthropic-issue-15652-false.chunks.txt", "anthropic"),
    expected: {
      toolCalls: calls(
        ["searchDocs", { query: "alpha" }],
        ["searchDocs", { query: "beta" }],
        ["searchDocs", { query: "gamma" }],
      ),
      usage: usage(798, 110),
      stopReason: "tool_calls",
    },
  },
  {
    name: "anthropic/anthropic-clear-thinking.1.chunks.txt",
    wire: "anthropic",
    sse: chunkFile("anthropic/anthropic-clear-thinking.1.chunks.txt", "anthropic"),
    expected: { toolCalls: [], usage: usage(69, 53), stopReason: "stop", signature: true },
  },
  {
    name: "anthropic/pi-generate-tool.json #1",
    wire: "anthropic",
    sse: harnessBody("anthropic/pi-generate-tool.json", 0),
    expected: {
      toolCalls: calls(["add", { a: 21, b: 21 }]),
      usage: usage(1853, 98, 0, 0, 1850),
      stopReason: "tool_calls",
      signature: true,
    },
  },
  {
    name: "anthropic/pi-generate-tool.json #2",
    wire: "anthropic",
    sse: harnessBody("anthropic/pi-generate-tool.json", 1),
    expected: { toolCalls: [], usage: usage(1967, 4, 1850, 0, 116), stopReason: "stop" },
  },
  {
    name: "anthropic/claude-opus-4-7-drives-a-tool-loop.json #1",
    wire: "anthropic",
    sse: opencodeBody("anthropic/claude-opus-4-7-drives-a-tool-loop.json", 0),
    expected: {
      toolCalls: calls(["get_weather", { city: "Paris" }]),
      usage: usage(798, 66),
      stopReason: "tool_calls",
    },
  },
  {
    name: "anthropic/claude-opus-4-7-drives-a-tool-loop.json #2",
    wire: "anthropic",
    sse: opencodeBody("anthropic/claude-opus-4-7-drives-a-tool-loop.json", 1),
    expected: { toolCalls: [], usage: usage(895, 19), stopReason: "stop" },
  },
];

/** Recorded error responses: status (stored or, for bare bodies, the status the API sends) and the kind hx must report. */
interface ErrorCase {
  name: string;
  wire: Wire;
  status: number;
  body: () => unknown;
  kind: ProviderErrorKind;
  mentions: string;
}

const cassetteError = (file: string, index: number) => () =>
  parseYaml(read(file)).interactions[index].response.parsed_body;

const ERRORS: ErrorCase[] = [
  {
    name: "openai-compatible/test_openrouter_errors_raised.yaml",
    wire: "openai",
    status: 429,
    body: cassetteError("openai-compatible/test_openrouter_errors_raised.yaml", 0),
    kind: "rate_limit",
    mentions: "rate-limited upstream",
  },
  {
    name: "openai-compatible/test_tool_use_failed_error.yaml",
    wire: "openai",
    status: 400,
    body: cassetteError("openai-compatible/test_tool_use_failed_error.yaml", 0),
    kind: "bad_request",
    mentions: "Tool call validation failed",
  },
  {
    name: "openai/reasoning-model-legacy-parameter-error.json (HTTP 400)",
    wire: "openai",
    status: 400,
    body: () => JSON.parse(read("openai/reasoning-model-legacy-parameter-error.json")),
    kind: "bad_request",
    mentions: "max_completion_tokens",
  },
  {
    name: "openai/openai-error.1.json (HTTP 429)",
    wire: "openai",
    status: 429,
    body: () => JSON.parse(read("openai/openai-error.1.json")),
    kind: "rate_limit",
    mentions: "exceeded your current quota",
  },
  {
    name: "openai/issue-10082-token-limit-error.json (HTTP 400)",
    wire: "openai",
    status: 400,
    body: () => JSON.parse(read("openai/issue-10082-token-limit-error.json")),
    kind: "context_overflow",
    mentions: "max 300000 tokens",
  },
  {
    name: "anthropic/rejects-malformed-assistant-tool-order-without-patch.json",
    wire: "anthropic",
    status: 400,
    body: () =>
      JSON.parse(
        JSON.parse(read("anthropic/rejects-malformed-assistant-tool-order-without-patch.json"))
          .interactions[0].response.body,
      ),
    kind: "bad_request",
    mentions: "tool_use` ids were found",
  },
];

/** The recorded deltas, concatenated: what the assembled text and reasoning must equal. */
function concatenated(sse: string, wire: Wire): { text: string; reasoning: string } {
  let text = "";
  let reasoning = "";
  for (const line of sse.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (data === "[DONE]" || data === "") continue;
    const event = JSON.parse(data);
    if (wire === "openai") {
      const delta = event.choices?.[0]?.delta ?? {};
      text += delta.content ?? "";
      reasoning += delta.reasoning_content ?? "";
    } else if (event.type === "content_block_delta") {
      text += event.delta.text ?? "";
      reasoning += event.delta.thinking ?? "";
    }
  }
  return { text, reasoning };
}

describe.skipIf(!existsSync(dir))("recorded provider streams", () => {
  let server: FakeModelServer;
  let openai: ModelProvider;
  let anthropic: ModelProvider;
  beforeAll(async () => {
    server = await startFakeModelServer();
    openai = await openaiProvider(server.url, { compat: DEEPSEEK_COMPAT, config: { maxRetries: 0 } });
    anthropic = await anthropicProvider(server.url, { config: { maxRetries: 0 } });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(STREAMS.map((c) => [c.name, c] as const))("replays %s", async (_name, streamCase) => {
    const sse = streamCase.sse();
    server.raw(sse);
    const provider = streamCase.wire === "openai" ? openai : anthropic;
    const { response, deltas } = await completeRecording(provider, request());
    const expected = concatenated(sse, streamCase.wire);
    const { message } = response;

    expect(message.content).toBe(expected.text);
    expect(
      deltas
        .filter((d) => d.type === "text")
        .map((d) => d.text)
        .join(""),
    ).toBe(expected.text);
    expect(message.reasoning?.text ?? "").toBe(expected.reasoning);
    expect(
      deltas
        .filter((d) => d.type === "reasoning")
        .map((d) => d.text)
        .join(""),
    ).toBe(expected.reasoning);
    if (streamCase.expected.signature) expect(message.reasoning?.signature).toMatch(/^E/);
    expect(message.toolCalls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual(
      streamCase.expected.toolCalls,
    );
    for (const call of message.toolCalls) expect(call.id).not.toBe("");
    expect(response.usage).toEqual({ ...usage(0, 0), ...streamCase.expected.usage });
    expect(response.stopReason).toBe(streamCase.expected.stopReason);
  });

  it('keeps the recorded tool-call id through quirky deltas (Alibaba repeats id:"")', async () => {
    server.raw(chunkFile("openai-compatible/alibaba-tool-call.chunks.txt", "openai")());
    const { response } = await completeRecording(openai, request());
    expect(response.message.toolCalls[0]!.id).toBe("call_eee11723464a4b9eb8cee71d");
  });

  it.each(ERRORS.map((c) => [c.name, c] as const))("maps the recorded error %s", async (_name, errorCase) => {
    server.httpError(errorCase.status, errorCase.body());
    const error = await expectProviderError(errorCase.wire === "openai" ? openai : anthropic);
    expect(error.kind).toBe(errorCase.kind);
    expect(error.message).toContain(errorCase.mentions);
    expect(error.status).toBe(errorCase.status);
  });

  it("maps the error event inside an HTTP-200 stream (openai/openai-error.1.chunks.txt)", async () => {
    server.raw(chunkFile("openai/openai-error.1.chunks.txt", "openai")());
    const error = await expectProviderError(openai);
    expect(error.kind).toBe("rate_limit");
    expect(error.message).toContain("exceeded your current quota");
  });
});
