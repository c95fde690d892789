/**
 * Hook matchers, as in Claude Code: missing, empty or `*` match every tool; a name or
 * alternatives of names (`write_file|edit_file`) match exactly; anything else with regex
 * characters (`.*_file`, `^mcp__`) is a regular expression that must match the whole name.
 */
export function compileMatcher(matcher: string | undefined): ((tool: string) => boolean) | { error: string } {
  const text = (matcher ?? "").trim();
  if (text === "" || text === "*") return () => true;
  if (/^[\w:-]+(\|[\w:-]+)*$/.test(text)) {
    const names = new Set(text.split("|"));
    return (tool) => names.has(tool);
  }
  try {
    const pattern = new RegExp(`^(?:${text})$`);
    return (tool) => pattern.test(tool);
  } catch (error) {
    return {
      error: `matcher '${text}' is not a tool name, '*', 'a|b' or a valid regular expression (${(error as Error).message})`,
    };
  }
}
