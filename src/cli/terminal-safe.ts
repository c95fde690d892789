/**
 * Text from outside hx (tool output, file names, model text) made safe to print: a terminal
 * must not act on anything in it. Escape sequences (colours, cursor moves, OSC titles and
 * hyperlinks, DCS, ...) are removed whole; any other control character is shown as a caret
 * pair (`^G`, `^[`), C1 controls as `<9b>`-style hex; bidirectional overrides, which can make
 * shown text differ from what runs, are shown as `<U+202E>`. Newlines and tabs stay; a carriage
 * return before a newline is dropped, a lone one becomes a newline (so nothing is overwritten).
 *
 * hx adds its own colours after this step, so they are never touched.
 */
export function neutraliseTerminalText(text: string): string {
  // Fast path: most text has nothing to neutralise.
  if (!UNSAFE.test(text)) return text;
  return text
    .replace(ESCAPE_SEQUENCE, "")
    .replace(/\r\n/g, "\n")
    .replace(UNSAFE_CHAR, (char) => {
      const code = char.codePointAt(0) ?? 0;
      if (char === "\r") return "\n";
      if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
      if (code === 0x7f) return "^?";
      if (code < 0xa0) return `<${code.toString(16)}>`;
      return `<U+${code.toString(16).toUpperCase()}>`;
    });
}

// C0 controls except \t and \n, DEL, C1 controls, and the bidi embedding/override/isolate marks.
const UNSAFE_CHAR_SOURCE = "[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]";
const UNSAFE = new RegExp(UNSAFE_CHAR_SOURCE);
const UNSAFE_CHAR = new RegExp(UNSAFE_CHAR_SOURCE, "g");

// ESC-introduced sequences, and their 8-bit C1 forms:
// - CSI: ESC [ (or \x9b) parameters, intermediates, a final byte
// - OSC, DCS, SOS, PM, APC: ESC ] P X ^ _ (or \x9d \x90 \x98 \x9e \x9f) up to BEL or ST (ESC \ or \x9c)
// - two- and three-byte escapes: ESC followed by intermediates and one final byte
const ESCAPE_SEQUENCE = new RegExp(
  [
    "(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]?",
    "(?:\\u001b[\\]PX^_]|[\\u009d\\u0090\\u0098\\u009e\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)?",
    "\\u001b[\\u0020-\\u002f]*[\\u0030-\\u007e]",
  ].join("|"),
  "g",
);
