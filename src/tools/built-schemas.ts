/**
 * The JSON Schemas of the built-in tools' parameters, computed from their zod schemas when hx
 * is built (scripts/build.mjs runs scripts/tool-schemas.ts and defines this constant), so a
 * built hx sends them without loading zod. Undefined when hx runs from source: the registry
 * then derives them from `parameters` itself, with the same function.
 */
declare const __HX_TOOL_SCHEMAS__: Readonly<Record<string, Record<string, unknown>>> | undefined;

/** A built-in tool's JSON Schema as computed at build time, or undefined (running from source). */
export function builtSchema(tool: string): Record<string, unknown> | undefined {
  if (typeof __HX_TOOL_SCHEMAS__ !== "object") return undefined;
  const schema = __HX_TOOL_SCHEMAS__[tool];
  return schema === undefined ? undefined : structuredClone(schema);
}
