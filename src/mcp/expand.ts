/**
 * `${VAR}` and `${VAR:-default}` in MCP server configurations, as Claude Code expands them in
 * `.mcp.json`: a variable that is set (to anything, even "") replaces the reference; an unset
 * one takes the default when there is one, and is reported missing otherwise. Nothing else is
 * special: a lone `$`, `$VAR` without braces and `${not a name}` stay as written.
 */

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expansion {
  value: string;
  /** Variables referenced without a default that are not set. */
  missing: string[];
}

export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const set = env[name];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    if (!missing.includes(name)) missing.push(name);
    return whole;
  });
  return { value, missing };
}

/** Expands every string of a list or record, collecting what is missing across all of them. */
export function expandAll<T extends string[] | Record<string, string>>(
  values: T,
  env: Readonly<Record<string, string | undefined>>,
  missing: Set<string>,
): T {
  const one = (text: string) => {
    const expansion = expandVariables(text, env);
    for (const name of expansion.missing) missing.add(name);
    return expansion.value;
  };
  if (Array.isArray(values)) return values.map(one) as T;
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, one(value)])) as T;
}
