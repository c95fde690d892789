import { describe, expect, it } from "vitest";
import { costOf, createPriceTable, formatCost } from "../../src/cli/prices.js";
import { emptyUsage } from "../../src/core/messages.js";

describe("price table", () => {
  it("prices DeepSeek cache hits and misses apart", () => {
    const price = createPriceTable(undefined).priceOf("deepseek-flash");
    expect(price).toEqual({ input: 0.14, cachedInput: 0.0028, output: 0.28 });
    // 1M prompt tokens of which 900k hit the cache, 100k output.
    const usage = {
      ...emptyUsage(),
      inputTokens: 1_000_000,
      cachedInputTokens: 900_000,
      outputTokens: 100_000,
    };
    expect(costOf(usage, price!)).toBeCloseTo(0.1 * 0.14 + 0.9 * 0.0028 + 0.1 * 0.28, 10);
  });

  it("matches the longest prefix, knows nothing of local models, and takes overrides from settings", () => {
    const table = createPriceTable({
      qwen3: { input: 1, output: 2 },
      "gpt-5-mini": { input: 9, cachedInput: 1, output: 9 },
    });
    expect(table.priceOf("gpt-5-nano-2025")?.input).toBe(0.05);
    expect(table.priceOf("gpt-5")?.input).toBe(1.25);
    expect(table.priceOf("gpt-5-mini")?.input).toBe(9);
    expect(table.priceOf("qwen3:8b")).toEqual({ input: 1, cachedInput: 1, output: 2 });
    expect(table.priceOf("llama")).toBeUndefined();
  });

  it("knows Anthropic cache writes", () => {
    expect(createPriceTable(undefined).priceOf("claude-sonnet-4-6")?.cacheWrite).toBe(3.75);
  });

  it("formats small and large costs", () => {
    expect(formatCost(0.00123)).toBe("$0.0012");
    expect(formatCost(12.345)).toBe("$12.35");
  });
});
