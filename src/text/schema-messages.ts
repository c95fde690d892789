/**
 * Words for validation messages, shared by every schema that checks a user's file (settings,
 * scripts): `must be a list of rules, got a string ("bash(x)")`.
 */

/** How a JSON value is named in a message: `a string ("abc")`, `a list`, `null`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `a string (${JSON.stringify(shown)})`;
  }
  if (typeof value === "number") return `a number (${value})`;
  if (typeof value === "boolean") return `${value}`;
  return "an object";
}

/** A zod error callback: `must be <what>, got <the value>`. */
export function expected(what: string): (issue: { input?: unknown }) => string {
  return (issue) => `must be ${what}, got ${describeValue(issue.input)}`;
}
