import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitLines, truncate } from "../../src/tools/truncate.js";

const numbered = (n: number, width = 10) =>
  Array.from({ length: n }, (_, i) => `line ${String(i + 1).padStart(4, "0")}`.padEnd(width, ".")).join("\n");

describe("truncate", () => {
  it("returns text that fits unchanged and reports no cut", () => {
    const result = truncate("a\nb\nc", { maxChars: 100, maxLines: 3 });
    expect(result).toEqual({ text: "a\nb\nc" });
  });

  it("keeps whole lines from the head and says how to continue", () => {
    const text = numbered(100);
    const result = truncate(text, {
      maxChars: 400,
      keep: "head",
      nextStep: (cut) => `Use offset=${cut.keptHeadLines + 1}.`,
    });
    expect(result.text.length).toBeLessThanOrEqual(400);
    const [kept, note] = [
      result.text.slice(0, result.text.lastIndexOf("\n[")),
      result.text.slice(result.text.lastIndexOf("\n[") + 1),
    ];
    for (const line of kept.split("\n")) expect(line).toMatch(/^line \d{4}\.*$/);
    expect(kept.split("\n")).toHaveLength(result.cut!.keptHeadLines);
    expect(note).toBe(
      `[… ${100 - result.cut!.keptHeadLines} lines (${text.length - kept.length - 1} chars) more not shown. Use offset=${result.cut!.keptHeadLines + 1}.]`,
    );
  });

  it("keeps head and tail around a middle note in 'both' mode", () => {
    const result = truncate(numbered(1000), { maxChars: 2000, keep: "both", nextStep: "Narrow it." });
    expect(result.text.startsWith("line 0001")).toBe(true);
    expect(result.text.endsWith("line 1000.")).toBe(true);
    expect(result.text).toMatch(/\n\[… [\d,]+ lines \([\d,]+ chars\) cut from the middle\. Narrow it\.\]\n/);
    expect(result.cut!.keptHeadLines).toBeGreaterThan(0);
    expect(result.cut!.keptTailLines).toBeGreaterThan(0);
  });

  it("keeps the end in 'tail' mode", () => {
    const result = truncate(numbered(50), { maxChars: 200, keep: "tail" });
    expect(result.text).toMatch(/^\[… the first \d+ lines \(\d+ chars\) not shown\.\]\n/);
    expect(result.text.endsWith("line 0050.")).toBe(true);
  });

  it("applies maxLines even when the chars fit, naming the unit", () => {
    const result = truncate(["a", "b", "c", "d", "e"].join("\n"), {
      maxChars: 1000,
      maxLines: 2,
      keep: "head",
      unit: "files",
    });
    expect(result.text).toBe("a\nb\n[… 3 files (5 chars) more not shown.]");
  });

  it("cuts inside a line only when a single line is larger than the budget", () => {
    const result = truncate("x".repeat(10_000), { maxChars: 500, keep: "head" });
    expect(result.text.length).toBeLessThanOrEqual(500);
    expect(result.text.startsWith("xxxx")).toBe(true);
    expect(result.cut!.keptHeadLines).toBe(0);
  });

  it("counts text dropped earlier and always cuts when some was", () => {
    const result = truncate("head\ntail", {
      maxChars: 1000,
      keep: "head",
      alreadyCut: { chars: 700, lines: 70 },
    });
    expect(result.text).toContain("[… 70 lines (700 chars) more not shown.]");
  });

  it("splitLines keeps line endings so joining restores the text", () => {
    expect(splitLines("a\n\nb")).toEqual(["a\n", "\n", "b"]);
    expect(splitLines("a\n")).toEqual(["a\n"]);
    expect(splitLines("")).toEqual([]);
  });

  it("property: never exceeds the cap, notes every cut, keeps a prefix and suffix of the input", () => {
    const line = fc.string({ unit: fc.constantFrom("a", "b", " ", "é", "\n"), maxLength: 120 });
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 200 }).map((lines) => lines.join("\n")),
        fc.integer({ min: 300, max: 3000 }),
        fc.integer({ min: 1, max: 300 }),
        fc.constantFrom("head", "tail", "both") as fc.Arbitrary<"head" | "tail" | "both">,
        (text, maxChars, maxLines, keep) => {
          const result = truncate(text, { maxChars, maxLines, keep, nextStep: "Next step." });
          expect(result.text.length).toBeLessThanOrEqual(maxChars);
          const mustCut = text.length > maxChars || splitLines(text).length > maxLines;
          if (!mustCut) {
            expect(result.text).toBe(text);
            return;
          }
          expect(result.cut).toBeDefined();
          expect(result.text).toMatch(/\[… (the first )?[\d,]+ lines \([\d,]+ chars\) .*Next step\.\]/);
          const cut = result.cut!;
          expect(cut.omittedChars).toBeGreaterThan(0);
          const lines = splitLines(text);
          const head = lines.slice(0, cut.keptHeadLines).join("");
          const tail = lines.slice(lines.length - cut.keptTailLines).join("");
          if (keep !== "tail") expect(result.text.startsWith(head)).toBe(true);
          if (keep !== "head") expect(result.text.endsWith(tail)).toBe(true);
          expect(cut.keptHeadLines + cut.keptTailLines).toBeLessThanOrEqual(maxLines);
        },
      ),
      { numRuns: 300 },
    );
  });
});
