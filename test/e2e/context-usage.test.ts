// End to end through the built binary: token accounting on the stats line and in JSON, spilling
// of big tool output, compact-and-retry on a context overflow, `--output-format stream-json`,
// and `hx context`.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import {
  BYPASS,
  isSessionRequest,
  messagesOf,
  OPENAI_KEY,
  openaiArgs,
  pairingProblems,
} from "../support/wire.js";

let server: FakeModelServer;
let work: string;

beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-ctx-e2e-");
});
afterEach(async () => {
  await server.close();
});

/** A DeepSeek-style Chat Completions stream whose usage names cache hits its own way. */
function deepseekStream(
  delta: Record<string, unknown>,
  finish: string,
  usage: { hit: number; miss: number; output: number },
): string {
  const base = { id: "ds", object: "chat.completion.chunk", created: 1, model: "deepseek-chat" };
  const frame = (body: Record<string, unknown>) => `data: ${JSON.stringify({ ...base, ...body })}\n\n`;
  return [
    frame({
      choices: [{ index: 0, delta: { role: "assistant", content: "", ...delta }, finish_reason: null }],
    }),
    frame({ choices: [{ index: 0, delta: {}, finish_reason: finish }] }),
    frame({
      choices: [],
      usage: {
        prompt_tokens: usage.hit + usage.miss,
        completion_tokens: usage.output,
        total_tokens: usage.hit + usage.miss + usage.output,
        prompt_cache_hit_tokens: usage.hit,
        prompt_cache_miss_tokens: usage.miss,
      },
    }),
    "data: [DONE]\n\n",
  ].join("");
}

describe("token accounting", () => {
  it("sums DeepSeek's prompt_cache_hit_tokens into cached on the stats line and in json", async () => {
    const call = {
      index: 0,
      id: "call_ds_1",
      type: "function",
      function: { name: "bash", arguments: '{"command":"echo hi"}' },
    };
    server.raw(deepseekStream({ tool_calls: [call] }, "tool_calls", { hit: 1200, miss: 300, output: 40 }));
    server.raw(deepseekStream({ content: "done" }, "stop", { hit: 1400, miss: 150, output: 7 }));
    const args = [
      "agent",
      "say hi",
      "--provider",
      "deepseek",
      "--base-url",
      server.url,
      "-C",
      work,
      ...BYPASS,
    ];
    const run = await runHx(args, { env: { DEEPSEEK_API_KEY: "sk-ds" } });
    expect(run.stderr).toContain("turns=2 tool_calls=1 blocked=0 tokens: input=3050 cached=2600 output=47");
    expect(run.code).toBe(0);

    server.raw(deepseekStream({ content: "ok" }, "stop", { hit: 900, miss: 100, output: 3 }));
    const json = await runHx([...args, "--output-format", "json"], { env: { DEEPSEEK_API_KEY: "sk-ds" } });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).usage).toEqual({
      input_tokens: 100,
      cache_read_input_tokens: 900,
      cache_creation_input_tokens: 0,
      output_tokens: 3,
      total_input_tokens: 1000,
      reasoning_tokens: 0,
    });
  });

  it("counts Anthropic cache reads as cached and cache writes as input", async () => {
    server
      .reply()
      .tool("bash", { command: "echo hi" })
      .usage({ input: 5000, cached: 0, cacheWrite: 4000, output: 30 });
    server.reply().text("done").usage({ input: 5100, cached: 4000, cacheWrite: 60, output: 12 });
    const args = [
      "agent",
      "hi",
      "--provider",
      "anthropic",
      "--base-url",
      server.url,
      "--model",
      "claude-x",
      "-C",
      work,
      ...BYPASS,
    ];
    const run = await runHx(args, { env: { ANTHROPIC_API_KEY: "sk-ant" } });
    expect(run.stderr).toContain("tokens: input=10100 cached=4000 output=42");
    expect(run.code).toBe(0);

    server.reply().text("again").usage({ input: 5200, cached: 5100, cacheWrite: 50, output: 9 });
    const json = await runHx([...args, "--output-format", "json"], { env: { ANTHROPIC_API_KEY: "sk-ant" } });
    expect(JSON.parse(json.stdout).usage).toEqual({
      input_tokens: 50,
      cache_read_input_tokens: 5100,
      cache_creation_input_tokens: 50,
      output_tokens: 9,
      total_input_tokens: 5200,
      reasoning_tokens: 0,
    });
  });
});

describe("compaction through the binary", () => {
  it("spills a big tool output to .hx/tool-results; the next request has a preview and the path; read_file reads on", async () => {
    server.reply().tool("bash", { command: "seq 1 8000" }, { id: "call_big" });
    server.reply().tool("read_file", { path: ".hx/tool-results/call_big.txt", offset: 7990 });
    server.reply().text("The last number is 8000.");
    const run = await runHx(["agent", "count", ...openaiArgs(server, work), ...BYPASS], { env: OPENAI_KEY });
    expect(run.code).toBe(0);
    const saved = path.join(work, ".hx/tool-results/call_big.txt");
    expect(readFileSync(saved, "utf8").trim().split("\n")).toHaveLength(8000);

    const spilled = messagesOf(server.requests[1]).find((m) => m.role === "tool");
    expect(spilled.content.length).toBeLessThan(4_000);
    expect(spilled.content.startsWith("1\n2\n3\n")).toBe(true);
    expect(spilled.content).toContain(".hx/tool-results/call_big.txt");
    expect(spilled.content).toMatch(/read_file .*offset \d+/);
    const reread = messagesOf(server.requests[2]).filter((m) => m.role === "tool")[1];
    expect(reread.content).toContain("7999");
    expect(reread.content).toContain("8000");
    expect(run.stderr).toMatch(/saved to \.hx\/tool-results\/call_big\.txt/);
  });

  it("compacts and retries once when the provider says the context is too long", async () => {
    for (let i = 0; i < 6; i++) server.reply().tool("bash", { command: `echo step ${i}` });
    server.httpError(400, {
      error: {
        message:
          "This model's maximum context length is 32768 tokens. However, your messages resulted in 40000 tokens.",
        type: "invalid_request_error",
        code: "context_length_exceeded",
      },
    });
    server.reply().text("## Goal\nsix echo steps\n## Done\nsteps 0-5");
    server.reply().text("finished after compaction");
    const run = await runHx(["agent", "run six steps", ...openaiArgs(server, work), ...BYPASS], {
      env: OPENAI_KEY,
    });
    expect(run.stdout).toBe("finished after compaction\n");
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("context is too long; compacting");
    expect(server.requests).toHaveLength(9);
    const [failed, summary, retried] = server.requests.slice(6);
    expect(isSessionRequest(failed)).toBe(true);
    expect(isSessionRequest(summary)).toBe(false);
    expect(JSON.stringify(summary.body.messages)).toContain("echo step 0");
    expect(isSessionRequest(retried)).toBe(true);
    const messages = messagesOf(retried);
    expect(messages[0]).toEqual(messagesOf(failed)[0]);
    expect(messages.length).toBeLessThan(messagesOf(failed).length);
    expect(JSON.stringify(messages)).toContain("six echo steps");
    expect(pairingProblems(messages)).toEqual([]);
  });

  it("ends with the provider's error when the retry overflows again (one retry only)", async () => {
    const overflow = { error: { message: "maximum context length exceeded", type: "invalid_request_error" } };
    server.reply().tool("bash", { command: "echo a" });
    server.reply().tool("bash", { command: "echo b" });
    server.httpError(400, overflow);
    server.reply().text("summary of a and b");
    server.httpError(400, overflow);
    const run = await runHx(["agent", "x", ...openaiArgs(server, work), ...BYPASS], { env: OPENAI_KEY });
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(5);
    expect(server.pending()).toBe(0);
  });
});

describe("--output-format stream-json", () => {
  it("writes one JSON event per line, the kinds docs/context.md lists, and ends with the summary", async () => {
    server.reply().reasoning("thinking").text("Listing.").tool("bash", { command: "echo streamed" });
    server.reply().text("All done.", { chunks: 3 });
    const run = await runHx(
      ["agent", "go", "--output-format", "stream-json", ...openaiArgs(server, work), ...BYPASS],
      {
        env: OPENAI_KEY,
      },
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    const events = lines.map((line) => JSON.parse(line));
    const kinds = new Set(events.map((e) => e.type));
    for (const kind of [
      "system",
      "turn_start",
      "reasoning_delta",
      "text_delta",
      "assistant_message",
      "tool_call",
      "tool_result",
      "result",
    ])
      expect(kinds).toContain(kind);
    const documented = readFileSync(path.resolve(import.meta.dirname, "../../docs/context.md"), "utf8");
    for (const kind of kinds) expect(documented).toContain(`\`${kind}\``);

    const text = events
      .filter((e) => e.type === "text_delta")
      .map((e) => e.text)
      .join("");
    expect(text).toBe("Listing.All done.");
    const call = events.find((e) => e.type === "tool_call");
    expect(call).toMatchObject({ name: "bash", arguments: { command: "echo streamed" } });
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ id: call.id, name: "bash", is_error: false, blocked: false });
    expect(result.content).toContain("streamed");
    const end = events.at(-1);
    expect(end).toMatchObject({ type: "result", result: "All done.", stop: "done", turns: 2, tool_calls: 1 });
    expect(end.usage.input_tokens).toBe(20);
    expect(events.filter((e) => e.type === "result")).toHaveLength(1);
  });
});

describe("hx context", () => {
  function writeSkill(root: string, name: string, body: string): void {
    const dir = path.join(root, ".agents/skills", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "SKILL.md"),
      `---\nname: ${name}\ndescription: Use for ${name} tasks.\n---\n${body}\n`,
    );
  }

  function rows(stdout: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const match of stdout.matchAll(/^ {2}([a-z ]+?)\s+(-?[\d,]+)\s/gm))
      out[match[1]] = Number(match[2].replace(/,/g, ""));
    return out;
  }

  it("prints the breakdown of a new session without a key and without calling the model", async () => {
    writeSkill(work, "release-notes", "Write release notes.");
    const run = await runHx(["context", "-C", work, "--context-window", "32k"], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Context: [\d,]+ of 32,000 tokens used/);
    const table = rows(run.stdout);
    expect(Object.keys(table)).toEqual([
      "system prompt",
      "skill catalog",
      "tool schemas",
      "loaded skills",
      "history",
      "free space",
    ]);
    expect(table["system prompt"]).toBeGreaterThan(0);
    expect(table["skill catalog"]).toBeGreaterThan(0);
    expect(table["tool schemas"]).toBeGreaterThan(500);
    expect(table["loaded skills"]).toBe(0);
    expect(table.history).toBe(0);
    const used = table["system prompt"] + table["skill catalog"] + table["tool schemas"];
    expect(table["free space"]).toBe(32_000 - used);
    expect(server.requests).toHaveLength(0);
  });

  it("with --continue shows the saved session's loaded skills and history", async () => {
    writeSkill(
      work,
      "release-notes",
      `Write release notes.\n${"Keep each entry short and factual. ".repeat(60)}`,
    );
    server.reply().tool("load_skill", { name: "release-notes" });
    server.reply().tool("bash", { command: "seq 1 500" });
    server.reply().text("noted");
    const home = tempDir("hx-home-");
    const first = await runHx(["agent", "notes", ...openaiArgs(server, work), ...BYPASS], {
      env: { ...OPENAI_KEY, HOME: home },
    });
    expect(first.code).toBe(0);
    const fresh = rows((await runHx(["context", "-C", work], { env: { HOME: home } })).stdout);
    const resumed = await runHx(["context", "-C", work, "--continue"], { env: { HOME: home } });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("(release-notes)");
    const table = rows(resumed.stdout);
    expect(table["loaded skills"]).toBeGreaterThan(400);
    expect(table.history).toBeGreaterThan(400);
    expect(table["free space"]).toBeLessThan(fresh["free space"] - 800);
    expect(server.requests).toHaveLength(3);
  });
});
