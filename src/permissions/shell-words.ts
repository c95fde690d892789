/**
 * Bash word rules the permission check needs, on text the parser has already cut into words:
 * quote removal, `$'…'` decoding, brace expansion and glob detection.
 *
 * A word is carried as its *source*: the characters bash sees after quote removal, where a
 * character that was quoted or escaped and would otherwise be special (`*`, `{`, `~`, …) is
 * written with a backslash, and a part computed at run time (`$x`, `$(…)`) is
 * {@link DYNAMIC}. Brace expansion and glob detection then work on one string.
 */

/** Stands for a part of a word that bash computes at run time. */
export const DYNAMIC = "\u0000";

/** Characters whose quoting matters after quote removal (globs, braces, tilde, escapes). */
const SPECIAL_AFTER_QUOTES = new Set(["\\", "*", "?", "[", "]", "{", "}", ",", "~"]);

/** The source form of text that was quoted: special characters escaped. */
export function quotedSource(text: string): string {
  let out = "";
  for (const ch of text) out += SPECIAL_AFTER_QUOTES.has(ch) ? `\\${ch}` : ch;
  return out;
}

/**
 * The source form of an unquoted word as written (`c\url`, `a\ b`, `*.ts`): a backslash
 * quotes the next character, backslash-newline disappears.
 */
export function unquotedSource(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = text[i + 1];
    i += 1;
    if (next === undefined || next === "\n") continue;
    out += quotedSource(next);
  }
  return out;
}

/** The value of a double-quoted text part: `\$ \` \" \\` and backslash-newline are escapes. */
export function doubleQuotedText(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === "\n" ? "" : ch));
}

/** Decodes the inside of `$'…'` the way bash does (`\n`, `\x41`, `\101`, `\u00e9`, `\cA`, `\'`). */
export function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i];
    if (ch !== "\\" || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body[++i];
    const simple = ANSI_C_SIMPLE[next];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    if (next >= "0" && next <= "7") {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i))?.[0] ?? next;
      out += String.fromCharCode(Number.parseInt(digits, 8) & 0xff);
      i += digits.length - 1;
      continue;
    }
    const hexLength = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
    if (hexLength > 0) {
      const digits = new RegExp(`^[0-9a-fA-F]{1,${hexLength}}`).exec(body.slice(i + 1))?.[0];
      if (!digits) {
        out += `\\${next}`;
        continue;
      }
      const code = Number.parseInt(digits, 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : "";
      i += digits.length;
      continue;
    }
    if (next === "c" && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
      continue;
    }
    out += `\\${next}`;
  }
  return out;
}

const ANSI_C_SIMPLE: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** The text of a source: escapes removed (dynamic parts stay {@link DYNAMIC}). */
export function sourceText(source: string): string {
  return source.replace(/\\([\s\S])/g, "$1");
}

/** True when the source has an unquoted `*`, `?` or `[`: bash would expand it to file names. */
export function hasGlob(source: string): boolean {
  for (let i = 0; i < source.length; i += 1) {
    const ch = source[i];
    if (ch === "\\") i += 1;
    else if (ch === "*" || ch === "?" || ch === "[") return true;
  }
  return false;
}
