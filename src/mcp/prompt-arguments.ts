/** An argument an MCP prompt declares (`prompts/list`). */
export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

export type PromptArgumentsResult =
  | { ok: true; values: Record<string, string> }
  | { ok: false; error: string; missing?: string };

/**
 * What the user typed after `/mcp__server__prompt`, mapped to the prompt's declared arguments:
 * `name=value` sets that argument; the other words fill the arguments not set by name, in
 * the declared order; words left over join the last of those (so a free-text argument at the
 * end takes the rest of the line). Quotes group words: `"two words"`, `focus='a b'`. A word
 * whose `name=` is not a declared argument is an ordinary word. A required argument that is
 * missing or empty is an error naming it.
 */
export function mapPromptArguments(text: string, declared: readonly PromptArgument[]): PromptArgumentsResult {
  const names = new Set(declared.map((a) => a.name));
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of splitWords(text)) {
    const eq = word.text.indexOf("=");
    const key = eq > 0 && !word.quotedBeforeEquals ? word.text.slice(0, eq) : undefined;
    if (key !== undefined && names.has(key)) values[key] = word.text.slice(eq + 1);
    else positional.push(word.text);
  }
  const open = declared.filter((a) => !(a.name in values));
  if (positional.length > 0 && open.length === 0) {
    return {
      ok: false,
      error:
        declared.length === 0
          ? "takes no arguments"
          : `got more words than it has arguments (${declared.map((a) => a.name).join(", ")}); quote a value that holds spaces`,
    };
  }
  open.forEach((argument, i) => {
    if (i >= positional.length) return;
    const last = i === open.length - 1;
    values[argument.name] = last ? positional.slice(i).join(" ") : (positional[i] as string);
  });
  const missing = declared.find((a) => a.required && (values[a.name] ?? "") === "");
  if (missing) {
    const about = missing.description ? ` (${missing.description})` : "";
    return { ok: false, error: `needs the argument '${missing.name}'${about}`, missing: missing.name };
  }
  return { ok: true, values };
}

/** `<file> [focus]`: required arguments in angle brackets, optional ones in square brackets. */
export function argumentHint(declared: readonly PromptArgument[]): string {
  return declared.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ");
}

interface Word {
  text: string;
  /** A quote opened before the first `=` (`"a=b"`): the word is a value, never `name=value`. */
  quotedBeforeEquals: boolean;
}

/** Words separated by whitespace; single or double quotes group (and are removed). */
function splitWords(text: string): Word[] {
  const words: Word[] = [];
  let current: Word | undefined;
  let quote: string | undefined;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
      else current!.text += char;
      continue;
    }
    if (/\s/.test(char)) {
      if (current) words.push(current);
      current = undefined;
      continue;
    }
    current ??= { text: "", quotedBeforeEquals: false };
    if (char === '"' || char === "'") {
      quote = char;
      if (!current.text.includes("=")) current.quotedBeforeEquals = true;
      continue;
    }
    current.text += char;
  }
  if (current) words.push(current);
  return words;
}
