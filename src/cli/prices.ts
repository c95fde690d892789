import type { Usage } from "../core/messages.js";

/** US dollars per million tokens. `cachedInput`: a prompt-cache hit; `cacheWrite`: tokens written to it. */
export interface ModelPrice {
  input: number;
  cachedInput: number;
  cacheWrite?: number;
  output: number;
}

/**
 * List prices of the models hx knows, matched by the longest prefix of the model name, as
 * published by the vendors (checked 2026-05). DeepSeek bills a prompt-cache hit and a miss
 * differently; the usage it reports splits the two, so both are priced. Settings override or
 * add entries: `"prices": {"my-model": {"input": 1, "cachedInput": 0.1, "output": 2}}`.
 */
const KNOWN_PRICES: ReadonlyArray<readonly [prefix: string, price: ModelPrice]> = [
  ["deepseek-", { input: 0.14, cachedInput: 0.0028, output: 0.28 }],
  ["deepseek-flash", { input: 0.14, cachedInput: 0.0028, output: 0.28 }],
  ["deepseek-v4-flash", { input: 0.14, cachedInput: 0.0028, output: 0.28 }],
  ["deepseek-pro", { input: 1.74, cachedInput: 0.0145, output: 3.48 }],
  ["deepseek-v4-pro", { input: 1.74, cachedInput: 0.0145, output: 3.48 }],
  ["gpt-5", { input: 1.25, cachedInput: 0.125, output: 10 }],
  ["gpt-5-mini", { input: 0.25, cachedInput: 0.025, output: 2 }],
  ["gpt-5-nano", { input: 0.05, cachedInput: 0.005, output: 0.4 }],
  ["gpt-4.1", { input: 2, cachedInput: 0.5, output: 8 }],
  ["gpt-4.1-mini", { input: 0.4, cachedInput: 0.1, output: 1.6 }],
  ["gpt-4o", { input: 2.5, cachedInput: 1.25, output: 10 }],
  ["gpt-4o-mini", { input: 0.15, cachedInput: 0.075, output: 0.6 }],
  ["claude-sonnet-4", { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 }],
  ["claude-opus-4", { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25 }],
  ["claude-haiku-4", { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 }],
];

export interface PriceTable {
  /** The price of `model`, or undefined when it is unknown (a local model: cost not shown). */
  priceOf(model: string): ModelPrice | undefined;
}

/** Prices as settings give them (validated by the settings schema). */
export type PriceOverrides = Record<
  string,
  { input: number; cachedInput?: number; cacheWrite?: number; output: number }
>;

/** The built-in table with the settings' `prices` on top (for the same prefix, settings win). */
export function createPriceTable(overrides: PriceOverrides | undefined): PriceTable {
  const entries: Array<readonly [string, ModelPrice]> = [...KNOWN_PRICES];
  for (const [name, price] of Object.entries(overrides ?? {})) {
    entries.push([name.toLowerCase(), { ...price, cachedInput: price.cachedInput ?? price.input }]);
  }
  return {
    priceOf(model) {
      const name = model.trim().toLowerCase();
      let best: readonly [string, ModelPrice] | undefined;
      // Later entries win ties, so a settings entry replaces a built-in one of the same prefix.
      for (const entry of entries) {
        if (name.startsWith(entry[0]) && (!best || entry[0].length >= best[0].length)) best = entry;
      }
      return best?.[1];
    },
  };
}

/** What `usage` cost in dollars: cache hits, cache writes and the rest of the prompt priced apart. */
export function costOf(usage: Usage, price: ModelPrice): number {
  const uncached = Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
  const dollars =
    uncached * price.input +
    usage.cachedInputTokens * price.cachedInput +
    usage.cacheWriteTokens * (price.cacheWrite ?? price.input) +
    usage.outputTokens * price.output;
  return dollars / 1_000_000;
}

/** `$0.0123` below a dollar (four places), `$1.23` above. */
export function formatCost(dollars: number): string {
  return dollars < 1 ? `$${dollars.toFixed(4)}` : `$${dollars.toFixed(2)}`;
}
