import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CALL_LIMIT_DEFAULTS, callLimits, formatWait, MAX_TIMER_MS } from "../../src/providers/limits.js";
import { ProviderError } from "../../src/providers/provider.js";
import { withRetries } from "../../src/providers/retry.js";
import { retryAfterMs } from "../../src/providers/sdk-api-errors.js";

const headers = (entries: Record<string, string>) => new Headers(entries);

describe("retryAfterMs", () => {
  it("reads retry-after-ms, then retry-after as seconds or an HTTP date", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(retryAfterMs(headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(retryAfterMs(headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(retryAfterMs(headers({ "retry-after": "1.5" }), now)).toBe(1500);
    expect(retryAfterMs(headers({ "retry-after": "Tue, 01 Jan 2030 00:01:00 GMT" }), now)).toBe(60_000);
    expect(retryAfterMs(headers({ "retry-after": "Mon, 31 Dec 2029 23:00:00 GMT" }), now)).toBe(0);
    for (const junk of ["soon", "-3", "", "1e3"])
      expect(retryAfterMs(headers({ "retry-after": junk }), now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
  });

  it("reads any whole number of seconds, and any future date to the second", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (seconds) => {
        expect(retryAfterMs(headers({ "retry-after": String(seconds) }))).toBe(seconds * 1000);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (seconds) => {
        const now = Date.parse("2030-01-01T00:00:00Z");
        const date = new Date(now + seconds * 1000).toUTCString();
        expect(retryAfterMs(headers({ "retry-after": date }), now)).toBe(seconds * 1000);
      }),
    );
  });

  it("never throws, whatever the header holds", () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const ms = retryAfterMs(headers({ "retry-after": value.replace(/[\r\n\0]/g, "") }));
        expect(ms === undefined || (Number.isFinite(ms) && ms >= 0)).toBe(true);
      }),
    );
  });
});

describe("withRetries", () => {
  const limits = { ...callLimits({ provider: "x", model: "m", timeoutMs: 1000, maxRetries: 3 }) };

  it("announces the wait it sleeps, backs off without a server wait, and stops at maxRetries", async () => {
    const notices: { attempt: number; delayMs: number }[] = [];
    let attempts = 0;
    const error = await withRetries({
      limits,
      baseDelayMs: 4,
      attempt: async () => {
        attempts += 1;
        throw new Error("boom");
      },
      classify: () => ({ error: new ProviderError("server", "down"), retry: { reason: "down" } }),
      onRetry: (notice) => notices.push(notice),
    }).catch((e) => e);
    expect(error).toMatchObject({ kind: "server", message: "down" });
    expect(attempts).toBe(4);
    expect(notices.map((n) => n.attempt)).toEqual([1, 2, 3]);
    notices.forEach((notice, retry) => {
      expect(notice.delayMs).toBeLessThanOrEqual(4 * 2 ** retry);
      expect(notice.delayMs).toBeGreaterThanOrEqual(Math.floor(0.75 * 4 * 2 ** retry));
    });
  });

  it("names the wait a server asks beyond the cap, and the setting only when one can allow it", async () => {
    const hints: (string | undefined)[] = [];
    for (const afterMs of [3_600_000, 30 * 86_400_000]) {
      const error = await withRetries({
        limits,
        baseDelayMs: 1,
        attempt: async () => {
          throw new Error("429");
        },
        classify: () => ({
          error: new ProviderError("rate_limit", "Rate limited."),
          retry: { reason: "429", afterMs },
        }),
      }).catch((e) => e);
      expect(error.message).toContain(`it asked to wait ${formatWait(afterMs)} before trying again`);
      hints.push(error.hint);
    }
    expect(hints).toEqual([
      "Try again later, or set HX_RETRY_MAX_WAIT_MS=3600000 to wait it out.",
      "Try again later.",
    ]);
  });

  it("does not retry a failure that is not worth it", async () => {
    let attempts = 0;
    const error = await withRetries({
      limits,
      baseDelayMs: 1,
      attempt: async () => {
        attempts += 1;
        throw new Error("no");
      },
      classify: () => ({ error: new ProviderError("auth", "bad key") }),
    }).catch((e) => e);
    expect(error.kind).toBe("auth");
    expect(attempts).toBe(1);
  });
});

describe("limits", () => {
  it("clamps timers to what Node can hold and fills defaults", () => {
    const limits = callLimits({
      provider: "x",
      model: "m",
      timeoutMs: 1e15,
      maxRetries: 2,
      streamIdleTimeoutMs: 0,
    });
    expect(limits.requestTimeoutMs).toBe(MAX_TIMER_MS);
    expect(limits.streamIdleTimeoutMs).toBe(1);
    expect(limits.maxRetryWaitMs).toBe(CALL_LIMIT_DEFAULTS.maxRetryWaitMs);
  });

  it("formats waits as a person reads them", () => {
    expect([0, 400, 1000, 59_000, 60_000, 125_000, 3_600_000, 5_400_000].map(formatWait)).toEqual([
      "0 ms",
      "400 ms",
      "1 s",
      "59 s",
      "1 min",
      "2 min 5 s",
      "1 h",
      "1 h 30 min",
    ]);
  });
});
