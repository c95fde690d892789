/**
 * Brace expansion as bash (and glob libraries) do it: `a{b,c}d` is `abd acd`, `{1..3}` is
 * `1 2 3`, nested and repeated braces too. A backslash quotes the next character, so `\{a,b\}`
 * stays as it is. Used by the permission check (bash words) and by glob (patterns that would
 * leave the folder).
 */

/** Most words one brace expansion may produce; past this the rest are dropped (and flagged). */
const MAX_BRACE_WORDS = 256;

/** Expands `source`; at most {@link MAX_BRACE_WORDS} results. */
export function expandBraces(source: string): string[] {
  const found = findBrace(source);
  if (!found) return [source];
  const { open, close, alternatives } = found;
  const before = source.slice(0, open);
  const after = source.slice(close + 1);
  const results: string[] = [];
  for (const alternative of alternatives) {
    for (const expanded of expandBraces(before + alternative + after)) {
      if (results.length >= MAX_BRACE_WORDS) return results;
      results.push(expanded);
    }
  }
  return results;
}

/** The first `{…}` that bash would expand: with a top-level comma, or a `x..y` sequence. */
function findBrace(source: string): { open: number; close: number; alternatives: string[] } | undefined {
  for (let open = 0; open < source.length; open += 1) {
    const ch = source[open];
    if (ch === "\\") {
      open += 1;
      continue;
    }
    if (ch !== "{") continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open + 1; i < source.length; i += 1) {
      const c = source[i];
      if (c === "\\") {
        i += 1;
        continue;
      }
      if (c === "{") depth += 1;
      else if (c === "}" && depth > 0) depth -= 1;
      else if (c === "," && depth === 0) commas.push(i);
      else if (c === "}") {
        const inner = source.slice(open + 1, i);
        if (commas.length > 0) {
          const alternatives: string[] = [];
          let start = open + 1;
          for (const comma of commas) {
            alternatives.push(source.slice(start, comma));
            start = comma + 1;
          }
          alternatives.push(source.slice(start, i));
          return { open, close: i, alternatives };
        }
        const sequence = expandSequence(inner);
        if (sequence) return { open, close: i, alternatives: sequence };
        break;
      }
    }
  }
  return undefined;
}

/** `1..5`, `a..e`, `10..1..3`: bash's brace sequences. */
function expandSequence(inner: string): string[] | undefined {
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  if (numeric) {
    const [from, to] = [Number(numeric[1]), Number(numeric[2])];
    const step = Math.max(1, Math.abs(Number(numeric[3] ?? 1)));
    const out: string[] = [];
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? step : -step) {
      out.push(String(n));
      if (out.length >= MAX_BRACE_WORDS) break;
    }
    return out;
  }
  const letters = /^([A-Za-z])\.\.([A-Za-z])$/.exec(inner);
  if (letters) {
    const [from, to] = [letters[1].charCodeAt(0), letters[2].charCodeAt(0)];
    const out: string[] = [];
    for (let c = from; from <= to ? c <= to : c >= to; c += from <= to ? 1 : -1) {
      out.push(String.fromCharCode(c));
    }
    return out;
  }
  return undefined;
}
