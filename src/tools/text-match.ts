/**
 * Pure text helpers for exact-match editing: finding occurrences, and finding where a
 * near-miss (whitespace differences only) would have matched, so the model can fix its text.
 */

/** Start offsets of the non-overlapping occurrences of `needle` in `haystack`. */
export function findOccurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  if (needle === "") return found;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length))
    found.push(i);
  return found;
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Replaces the occurrences at `offsets` (from findOccurrences) without `$` patterns. */
export function replaceAt(text: string, offsets: number[], length: number, replacement: string): string {
  let result = "";
  let from = 0;
  for (const offset of offsets) {
    result += text.slice(from, offset) + replacement;
    from = offset + length;
  }
  return result + text.slice(from);
}

/** Lines [first, last] (1-based) of `text` that match `needle` when whitespace is ignored. */
export interface LooseMatch {
  first: number;
  last: number;
  text: string;
}

/**
 * Finds the first run of whole lines that equals `needle` once each line's whitespace is
 * collapsed and trimmed. Undefined when there is none, or when the needle is only whitespace.
 */
export function findLooseMatch(text: string, needle: string): LooseMatch | undefined {
  const wanted = squeezeLines(needle);
  if (wanted.length === 0) return undefined;
  const lines = text.split("\n");
  const squeezed = lines.map(squeeze);
  for (let start = 0; start + wanted.length <= lines.length; start++) {
    let ok = true;
    for (let k = 0; k < wanted.length && ok; k++) {
      const have = squeezed[start + k];
      const want = wanted[k];
      // The first and last needle lines may be partial lines.
      ok =
        wanted.length === 1
          ? have.includes(want)
          : k === 0
            ? have.endsWith(want)
            : k === wanted.length - 1
              ? have.startsWith(want)
              : have === want;
    }
    if (ok) {
      return {
        first: start + 1,
        last: start + wanted.length,
        text: lines.slice(start, start + wanted.length).join("\n"),
      };
    }
  }
  return undefined;
}

function squeeze(line: string): string {
  return line.replace(/\s+/g, " ").trim();
}

function squeezeLines(text: string): string[] {
  const lines = text.split("\n").map(squeeze);
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
