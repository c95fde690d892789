import { describe, expect, it } from "vitest";
import { breakdownContext, renderContextTable } from "../../src/context/breakdown.js";
import { shortenOldToolResults } from "../../src/context/shorten.js";
import { estimateRequestTokens, estimateTokens } from "../../src/context/tokens.js";
import { cacheHitRate, formatUsage } from "../../src/context/usage-line.js";
import { emptyUsage, type Message, type ToolResultMeta } from "../../src/core/messages.js";
import {
  contextWindowForModel,
  DEFAULT_CONTEXT_WINDOW,
  parseTokenCount,
  resolveContextWindow,
} from "../../src/providers/context-windows.js";

describe("estimateTokens", () => {
  it("counts ASCII at ~4 chars per token and CJK at one per character", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("a".repeat(400))).toBe(100);
    expect(estimateTokens("上下文压缩")).toBe(5);
    expect(estimateTokens("héllo")).toBe(2);
    expect(estimateTokens("😀")).toBe(1);
  });

  it("estimates a whole request: system, tools and messages", () => {
    const request = {
      system: "s".repeat(40),
      tools: [{ name: "t", description: "d", parameters: {} }],
      messages: [{ role: "user", content: "u".repeat(40) }] as Message[],
    };
    expect(estimateRequestTokens(request)).toBeGreaterThan(20);
  });
});

describe("context windows", () => {
  it("matches known models by longest prefix and falls back to a default", () => {
    expect(contextWindowForModel("deepseek-flash")).toBe(128_000);
    expect(contextWindowForModel("deepseek-v4-pro")).toBe(128_000);
    expect(contextWindowForModel("gpt-4.1-mini")).toBe(1_047_576);
    expect(contextWindowForModel("gpt-4o-2024-08-06")).toBe(128_000);
    expect(contextWindowForModel("gpt-5-mini")).toBe(272_000);
    expect(contextWindowForModel("claude-sonnet-4-5")).toBe(200_000);
    expect(contextWindowForModel("llama3:8b")).toBe(DEFAULT_CONTEXT_WINDOW);
  });

  it("resolves flag > env > settings > model; unusable or too small values are errors", () => {
    expect(
      resolveContextWindow({ model: "gpt-4o", flag: "32k", env: "64000", settings: 5000 }),
    ).toMatchObject({
      tokens: 32_000,
      source: "flag",
    });
    expect(resolveContextWindow({ model: "gpt-4o", env: "64000", settings: 5000 })).toMatchObject({
      source: "env",
    });
    expect(resolveContextWindow({ model: "gpt-4o", settings: 5000 })).toMatchObject({
      tokens: 5000,
      source: "settings",
      errors: [],
    });
    expect(resolveContextWindow({ model: "gpt-4o", env: "lots" }).errors).toEqual([
      "HX_CONTEXT_WINDOW must be a token count such as 32000 or 32k (got 'lots').",
    ]);
    expect(resolveContextWindow({ model: "gpt-4o", flag: "1" }).errors).toEqual([
      "--context-window is 1 tokens; hx needs at least 4096 (the system prompt and tools alone take a few thousand).",
    ]);
    expect(resolveContextWindow({ model: "gpt-4o", flag: "4k" }).errors[0]).toContain("at least 4096");
    expect(resolveContextWindow({ model: "mystery" }).source).toBe("default");
    expect(parseTokenCount("1m")).toBe(1_000_000);
    expect(parseTokenCount("0")).toBeUndefined();
  });
});

describe("formatUsage", () => {
  it("prints input, cached and output tokens for the stats line", () => {
    const usage = { ...emptyUsage(), inputTokens: 1200, cachedInputTokens: 1000, outputTokens: 50 };
    expect(formatUsage(usage)).toBe("input_tokens=1200 cached_tokens=1000 output_tokens=50");
    expect(formatUsage({ ...usage, cacheWriteTokens: 7 })).toContain("cache_write_tokens=7");
    expect(cacheHitRate(usage)).toBeCloseTo(0.833, 2);
    expect(cacheHitRate(emptyUsage())).toBe(0);
  });
});

describe("breakdownContext", () => {
  it("splits the next request into system, catalog, tools, loaded skills, history and free space", () => {
    const catalog = "# Skills\n- deploy: ship it";
    const skill = `<skill name="deploy">\n${"step ".repeat(200)}\n</skill>`;
    const messages: Message[] = [
      { role: "user", content: "ship" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "1", name: "load_skill", arguments: '{"name":"deploy"}' }],
      },
      { role: "tool", toolCallId: "1", toolName: "load_skill", content: skill, meta: { skill: "deploy" } },
    ];
    const b = breakdownContext({
      system: `You are hx.\n\n${catalog}`,
      catalog,
      toolSchemas: [{ name: "load_skill", description: "load", parameters: { type: "object" } }],
      messages,
      window: 10_000,
    });
    expect(b.skillCatalog).toBe(estimateTokens(catalog));
    expect(b.systemPrompt).toBe(estimateTokens("You are hx.\n\n"));
    expect(b.loadedSkills).toBe(estimateTokens(skill));
    expect(b.loadedSkillNames).toEqual(["deploy"]);
    expect(b.used).toBe(b.systemPrompt + b.skillCatalog + b.toolSchemas + b.loadedSkills + b.history);
    expect(b.free).toBe(10_000 - b.used);
    const table = renderContextTable(b, "deepseek-flash");
    for (const row of [
      "system prompt",
      "skill catalog",
      "tool schemas",
      "loaded skills",
      "history",
      "free space",
    ]) {
      expect(table).toContain(row);
    }
    expect(table).toContain("(deploy)");
  });
});

describe("shortenOldToolResults", () => {
  const turn = (id: string, content: string, meta?: ToolResultMeta): Message[] => [
    { role: "assistant", content: "", toolCalls: [{ id, name: "t", arguments: "{}" }] },
    { role: "tool", toolCallId: id, toolName: "t", content, ...(meta ? { meta } : {}) },
  ];
  const messages: Message[] = [
    { role: "user", content: "go" },
    ...turn("a", "A".repeat(5_000)),
    ...turn("s", "S".repeat(5_000), { skill: "x" }),
    ...turn("k", "K".repeat(5_000), { keepWhole: true }),
    ...turn("b", "B".repeat(5_000)),
    ...turn("c", "C".repeat(5_000)),
  ];

  it("shortens results older than the last K turns, never skill bodies or keepWhole ones, and is idempotent", () => {
    const once = shortenOldToolResults(messages, { keepTurns: 1 });
    expect(once.shortened).toBe(2);
    expect(once.savedTokens).toBeGreaterThan(2_000);
    const results = once.messages.filter((m) => m.role === "tool");
    const contents = results.map((m) => m.content);
    expect(contents[0]).toContain("[hx: older tool output shortened");
    expect(results[0].meta).toEqual({ shortened: true });
    expect(contents[1]).toBe("S".repeat(5_000));
    expect(contents[2]).toBe("K".repeat(5_000));
    expect(contents[3]).toContain("[hx: older tool output shortened");
    expect(contents[4]).toBe("C".repeat(5_000));
    expect(messages[2].content).toBe("A".repeat(5_000));
    expect(shortenOldToolResults(once.messages, { keepTurns: 1 }).shortened).toBe(0);
  });
});
