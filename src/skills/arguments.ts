/**
 * What `/name args` puts into a skill's body, as Claude Code does:
 * - `$ARGUMENTS`: the arguments exactly as typed;
 * - `$ARGUMENTS[N]`: the Nth argument, from 0;
 * - `$1` … `$9`: the arguments from 1, as in a shell (a body that uses `$0` counts from 0,
 *   Claude Code's convention for skills, so `$0 $1` are the first and the second);
 * - `$name` for each name listed in `arguments:`, in order.
 * Arguments split like shell words (quotes group, backslash escapes). A placeholder with no
 * argument behind it stays as written, so `$5` in "costs $5" survives a call with fewer.
 */
export interface SubstitutedBody {
  text: string;
  /** False when the body has no placeholder: the caller appends the arguments instead. */
  substituted: boolean;
}

const PLACEHOLDER =
  /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS(?![A-Za-z0-9_[])|\$(\d)(?!\d)|\$([A-Za-z_][A-Za-z0-9_]*)/g;

export function substituteArguments(body: string, args: string, names: readonly string[]): SubstitutedBody {
  const words = splitArguments(args);
  const fromZero = /\$0(?!\d)/.test(body);
  let substituted = false;
  const text = body.replace(PLACEHOLDER, (whole, indexed, digit, name) => {
    if (indexed !== undefined) return take(whole, words[Number(indexed)]);
    if (digit !== undefined) return take(whole, words[Number(digit) - (fromZero ? 0 : 1)]);
    if (name !== undefined) {
      const position = names.indexOf(name);
      return position === -1 ? whole : take(whole, words[position]);
    }
    substituted = true;
    return args;
  });
  return { text, substituted };

  function take(whole: string, word: string | undefined): string {
    substituted = true;
    return word ?? whole;
  }
}

/** Shell-like words: whitespace separates, '…' and "…" group, a backslash escapes one character. */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < args.length; i++) {
    const char = args[i];
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === "\\" && quote === '"' && i + 1 < args.length) current += args[++i];
      else current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === "\\" && i + 1 < args.length) {
      current += args[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}
