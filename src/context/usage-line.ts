import type { Usage } from "../core/messages.js";

/**
 * The token part of the closing stats line, `key=value` like the rest of it:
 * `input_tokens=12345 cached_tokens=10000 output_tokens=321`. Cache writes (Anthropic) and
 * reasoning tokens are added only when non-zero.
 */
export function formatUsage(usage: Usage): string {
  const parts = [
    `input_tokens=${usage.inputTokens}`,
    `cached_tokens=${usage.cachedInputTokens}`,
    `output_tokens=${usage.outputTokens}`,
  ];
  if (usage.cacheWriteTokens > 0) parts.push(`cache_write_tokens=${usage.cacheWriteTokens}`);
  if (usage.reasoningTokens > 0) parts.push(`reasoning_tokens=${usage.reasoningTokens}`);
  return parts.join(" ");
}

/** Share of prompt tokens served from cache, 0..1 (0 when nothing was sent). */
export function cacheHitRate(usage: Usage): number {
  return usage.inputTokens > 0 ? usage.cachedInputTokens / usage.inputTokens : 0;
}
