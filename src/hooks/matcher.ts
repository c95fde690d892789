import { errorMessage } from "../core/error-message.js";

/**
 * Hook matchers, as in Claude Code: missing, empty or `*` match everything; a name or
 * alternatives of names (`Write|Edit`, `write_file|edit_file`) match exactly; a name ending in
 * `*` (`mcp__*`) is a prefix; anything else (`.*_file`, `^mcp__`, `Notebook.*`) is a regular
 * expression that must match the whole name. A tool is matched by each of its names: hx's
 * (`write_file`) and Claude Code's (`Write`, see Tool.claude), so both spellings work.
 */
export function compileMatcher(
  matcher: string | undefined,
): ((names: readonly string[]) => boolean) | { error: string } {
  const text = (matcher ?? "").trim();
  if (text === "" || text === "*") return () => true;
  if (/^[\w:-]+(\|[\w:-]+)*$/.test(text)) {
    const wanted = new Set(text.split("|"));
    return (names) => names.some((name) => wanted.has(name));
  }
  if (/^[\w:-]+\*$/.test(text)) {
    const prefix = text.slice(0, -1);
    return (names) => names.some((name) => name.startsWith(prefix));
  }
  try {
    const pattern = new RegExp(`^(?:${text})$`);
    return (names) => names.some((name) => pattern.test(name));
  } catch (error) {
    return {
      error: `matcher '${text}' is not a tool name, '*', 'a|b' or a valid regular expression (${errorMessage(error)})`,
    };
  }
}
