// What a provider's prefix cache can serve across the requests of a session (shared by the
// context and MCP benches).
import { estimateTokens } from "../src/context/tokens.js";
import type { ModelRequest } from "../src/providers/provider.js";

/** The request as a provider sees it, in order: system, tools, then each message. */
function serialize(request: ModelRequest): string {
  return [
    request.system,
    JSON.stringify(request.tools),
    ...request.messages.map((m) => JSON.stringify(m)),
  ].join("\n");
}

export interface PrefixStats {
  /** Mean over requests 2..N of (unchanged prefix tokens / request tokens): the per-request reading. */
  mean: number;
  /**
   * Cached tokens / all input tokens over the session, the first request (nothing cached yet)
   * included: the share of the input bill served from cache, if the provider caches every
   * request's whole prefix that equals the previous request.
   */
  weighted: number;
  min: number;
  /** Requests 2..N that start with the whole previous request (nothing rewritten). */
  appendOnly: number;
  /** Input tokens billed with cache hits at `CACHE_PRICE` of the normal price. */
  billed: number;
}

/** DeepSeek and Anthropic bill a cache hit at about a tenth of a normal input token. */
const CACHE_PRICE = 0.1;

/**
 * What a prefix cache serves: a provider caches what it was sent, so request i can be served
 * from cache up to where it stops matching request i-1 (for an append-only history, the whole
 * of request i-1). Providers round down to their block size (64–128 tokens); not modelled.
 */
export function prefixShares(requests: ModelRequest[]): PrefixStats {
  const shares: number[] = [];
  let cached = 0;
  let total = estimateTokens(serialize(requests[0]));
  let appendOnly = 0;
  for (let i = 1; i < requests.length; i++) {
    const previous = serialize(requests[i - 1]);
    const current = serialize(requests[i]);
    let n = 0;
    while (n < previous.length && n < current.length && previous[n] === current[n]) n++;
    const prefix = estimateTokens(current.slice(0, n));
    const all = estimateTokens(current);
    shares.push(prefix / all);
    if (n === previous.length) appendOnly += 1;
    cached += prefix;
    total += all;
  }
  return {
    mean: shares.reduce((a, b) => a + b, 0) / shares.length,
    weighted: cached / total,
    min: Math.min(...shares),
    appendOnly: appendOnly / (requests.length - 1),
    billed: total - cached + CACHE_PRICE * cached,
  };
}
