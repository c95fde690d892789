import { errorMessage } from "../core/error-message.js";
import { canonicalToolName } from "../permissions/tool-aliases.js";

/**
 * Hook matchers, as in Claude Code: missing, empty or `*` match every tool; a name or
 * alternatives of names (`write_file|edit_file`) match exactly, Claude Code's names included
 * (`Write|Edit` is `write_file|edit_file`, see permissions/tool-aliases.ts); anything else with regex
 * characters (`.*_file`, `^mcp__`) is a regular expression that must match the whole name.
 */
export function compileMatcher(matcher: string | undefined): ((tool: string) => boolean) | { error: string } {
  const text = (matcher ?? "").trim();
  if (text === "" || text === "*") return () => true;
  if (/^[\w:-]+(\|[\w:-]+)*$/.test(text)) {
    const names = new Set(text.split("|").map(canonicalToolName));
    return (tool) => names.has(tool);
  }
  try {
    const pattern = new RegExp(`^(?:${text})$`);
    return (tool) => pattern.test(tool);
  } catch (error) {
    return {
      error: `matcher '${text}' is not a tool name, '*', 'a|b' or a valid regular expression (${errorMessage(error)})`,
    };
  }
}
