import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCount } from "../../src/core/format-count.js";

describe("formatCount", () => {
  it("groups digits by thousands", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1000)).toBe("1,000");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(-45000)).toBe("-45,000");
  });

  it("writes what toLocaleString('en-US') writes for any safe integer", () => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
      }),
    );
  });
});
