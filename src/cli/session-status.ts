import { formatCount } from "../core/format-count.js";
import type { Usage } from "../core/messages.js";
import type { SandboxStatus } from "../sandbox/index.js";
import { costOf, formatCost, type PriceTable } from "./prices.js";

/** What the status line shows; every figure comes from the session, nothing is parsed back. */
export interface StatusFacts {
  model: string;
  mode: string;
  /** What holds commands in; left out when the session has no sandbox. */
  sandbox?: SandboxStatus;
  /** Tokens the last request held (its prompt plus its answer). */
  contextTokens: number;
  contextWindow: number;
  /** Everything used this session. */
  usage: Usage;
  prices: PriceTable;
}

/** `deepseek-flash · default · sandboxed · ctx 12% of 128k · 15.2k tokens · $0.0042` (the provider is in the header). */
export function formatStatusLine(facts: StatusFacts): string {
  const parts = [facts.model, facts.mode];
  if (facts.sandbox) parts.push(sandboxWord(facts.sandbox));
  parts.push(
    `ctx ${contextPercent(facts.contextTokens, facts.contextWindow)}% of ${compact(facts.contextWindow)}`,
  );
  parts.push(`${compact(facts.usage.inputTokens + facts.usage.outputTokens)} tokens`);
  const price = facts.prices.priceOf(facts.model);
  if (price) parts.push(formatCost(costOf(facts.usage, price)));
  return parts.join(" · ");
}

/** The sandbox in a word or two (`hx doctor` and -v say more, see describeSandbox). */
function sandboxWord(status: SandboxStatus): string {
  switch (status.state) {
    case "off":
      return "no sandbox";
    case "unavailable":
      return status.required ? "no sandbox: commands refused" : "no sandbox";
    default:
      return status.mode === "read-only" ? "sandboxed read-only" : "sandboxed";
  }
}

function contextPercent(tokens: number, window: number): number {
  return window > 0 ? Math.min(100, Math.round((tokens / window) * 100)) : 0;
}

/** `/cost`: the session's tokens by kind and what they cost at the model's list price. */
export function formatCostReport(usage: Usage, model: string, prices: PriceTable): string {
  const uncached = Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
  const price = prices.priceOf(model);
  const row = (label: string, tokens: number, perMillion: number | undefined) =>
    `  ${label.padEnd(20)} ${formatCount(tokens).padStart(12)}${
      price && perMillion !== undefined
        ? `  × $${perMillion}/M = ${formatCost((tokens * perMillion) / 1e6)}`
        : ""
    }`;
  const lines = [
    `Tokens this session (${model}):`,
    row("input, cache miss", uncached, price?.input),
    row("input, cache hit", usage.cachedInputTokens, price?.cachedInput),
  ];
  if (usage.cacheWriteTokens > 0)
    lines.push(row("cache writes", usage.cacheWriteTokens, price?.cacheWrite ?? price?.input));
  lines.push(row("output", usage.outputTokens, price?.output));
  lines.push(
    price
      ? `  total: ${formatCost(costOf(usage, price))} at list prices (override them with "prices" in settings)`
      : `  no price known for ${model}: add one under "prices" in settings to see the cost`,
  );
  return lines.join("\n");
}

/** 1234 → `1.2k`, 128000 → `128k`, 1047576 → `1M`. */
export function compact(n: number): string {
  if (n >= 1_000_000) return `${trim(n / 1_000_000)}M`;
  if (n >= 1000) return `${trim(n / 1000)}k`;
  return String(n);
}

function trim(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, "");
}
