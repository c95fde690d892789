import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { neutraliseTerminalText } from "../../src/cli/terminal-safe.js";

// What a terminal acts on: C0 controls other than \t and \n, DEL, C1 controls, bidi overrides.
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("neutraliseTerminalText", () => {
  it("removes colour, cursor, title and hyperlink sequences whole", () => {
    expect(neutraliseTerminalText("\x1b[31mred\x1b[0m")).toBe("red");
    expect(neutraliseTerminalText("a\x1b[2J\x1b[Hb")).toBe("ab");
    expect(neutraliseTerminalText("\x1b]0;pwned\x07title")).toBe("title");
    expect(neutraliseTerminalText("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\")).toBe("link");
    expect(neutraliseTerminalText("\x1bPq#0;2;0;0;0\x1b\\sixel")).toBe("sixel");
    expect(neutraliseTerminalText("\x9b31mc1")).toBe("c1");
  });

  it("shows other controls instead of sending them, keeps newlines and tabs", () => {
    expect(neutraliseTerminalText("bell\x07 nul\x00")).toBe("bell^G nul^@");
    expect(neutraliseTerminalText("a\tb\nc")).toBe("a\tb\nc");
    expect(neutraliseTerminalText("line\r\nnext")).toBe("line\nnext");
    expect(neutraliseTerminalText("50%\rdone")).toBe("50%\ndone");
    expect(neutraliseTerminalText("evil\u202Etxt.exe")).toBe("evil<U+202E>txt.exe");
    expect(neutraliseTerminalText("plain ünïcode ✓")).toBe("plain ünïcode ✓");
  });

  it("never lets an active character through, whatever the input", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        expect(neutraliseTerminalText(text)).not.toMatch(ACTIVE);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom("\x1b", "[", "]", "3", "1", "m", "\x07", "\\", "P", "\x9b", "a", "\r", "\n"),
        ),
        (parts) => {
          expect(neutraliseTerminalText(parts.join(""))).not.toMatch(ACTIVE);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
