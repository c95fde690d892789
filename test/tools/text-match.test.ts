import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OutputBuffer } from "../../src/process/output-buffer.js";
import { findLooseMatch, findOccurrences, lineAt, replaceAt } from "../../src/tools/text-match.js";

describe("text-match", () => {
  it("finds non-overlapping occurrences and their lines", () => {
    expect(findOccurrences("aaaa", "aa")).toEqual([0, 2]);
    expect(findOccurrences("abc", "")).toEqual([]);
    expect(lineAt("a\nb\nc", 4)).toBe(3);
    expect(lineAt("a\nb\nc", 0)).toBe(1);
  });

  it("property: replacing every occurrence equals split/join", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ minLength: 1, maxLength: 3 }),
        fc.string(),
        (text, needle, replacement) => {
          const offsets = findOccurrences(text, needle);
          expect(replaceAt(text, offsets, needle.length, replacement)).toBe(
            text.split(needle).join(replacement),
          );
        },
      ),
    );
  });

  it("finds whole-line runs that match when whitespace is ignored", () => {
    const text = "a\n  if (x) {\n\treturn   1;\n  }\nb";
    expect(findLooseMatch(text, "if (x) {\n  return 1;")).toEqual({
      first: 2,
      last: 3,
      text: "  if (x) {\n\treturn   1;",
    });
    expect(findLooseMatch(text, "return 2;")).toBeUndefined();
    expect(findLooseMatch(text, "  \n ")).toBeUndefined();
  });
});

describe("OutputBuffer", () => {
  it("keeps everything while small, decoding UTF-8 split across chunks", () => {
    const buffer = new OutputBuffer(100);
    const bytes = Buffer.from("héllo\n");
    buffer.write("stdout", bytes.subarray(0, 2));
    buffer.write("stdout", bytes.subarray(2));
    expect(buffer.text()).toBe("héllo\n");
    expect(buffer.dropped()).toEqual({ chars: 0, lines: 0 });
  });

  it("keeps head and tail and counts exactly what it dropped", () => {
    const buffer = new OutputBuffer(10);
    const chunks = Array.from({ length: 20 }, (_, i) => `line-${String(i).padStart(2, "0")}\n`);
    for (const chunk of chunks) buffer.append(chunk);
    const kept = buffer.text();
    const all = chunks.join("");
    expect(all.startsWith(kept.slice(0, 10))).toBe(true);
    expect(all.endsWith(kept.slice(10))).toBe(true);
    expect(kept.length + buffer.dropped().chars).toBe(all.length);
    expect(kept.split("\n").length - 1 + buffer.dropped().lines).toBe(20);
  });
});
