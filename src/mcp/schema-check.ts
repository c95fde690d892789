/**
 * A structural check of a tool's input schema before it is sent to a model: providers refuse
 * a whole request over one malformed schema, so a tool whose schema is not a JSON Schema
 * object is left out (and reported) instead of breaking every request. Cheap enough for
 * hundreds of tools; it checks shape, not every keyword.
 */
const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
const MAX_DEPTH = 64;

/** Undefined when the schema is usable; otherwise what is wrong, for the user. */
export function checkInputSchema(schema: unknown): string | undefined {
  if (!isObject(schema)) return "it is not an object";
  if (schema.type !== "object") return `its type is ${JSON.stringify(schema.type ?? null)}, not "object"`;
  return checkSubschema(schema, "", 0);
}

function checkSubschema(schema: unknown, at: string, depth: number): string | undefined {
  if (typeof schema === "boolean") return undefined;
  if (!isObject(schema)) return `${at || "the schema"} is not a schema`;
  if (depth > MAX_DEPTH) return `${at} nests too deeply`;
  const where = (key: string) => (at ? `${at}.${key}` : key);
  const { type } = schema;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (types.length === 0 || !types.every((t) => typeof t === "string" && TYPES.has(t)))
      return `${where("type")} is ${JSON.stringify(type)}`;
  }
  if (schema.properties !== undefined) {
    if (!isObject(schema.properties)) return `${where("properties")} is not an object`;
    for (const [key, value] of Object.entries(schema.properties)) {
      const problem = checkSubschema(value, `${where("properties")}.${key}`, depth + 1);
      if (problem) return problem;
    }
  }
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required) || !schema.required.every((r) => typeof r === "string"))
      return `${where("required")} is not a list of names`;
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) return `${where("enum")} is not a list`;
  for (const key of ["items", "additionalProperties", "not"]) {
    const value = schema[key];
    if (value === undefined) continue;
    const list = key === "items" && Array.isArray(value) ? value : [value];
    for (const item of list) {
      const problem = checkSubschema(item, where(key), depth + 1);
      if (problem) return problem;
    }
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const value = schema[key];
    if (value === undefined) continue;
    if (!Array.isArray(value)) return `${where(key)} is not a list`;
    for (const [i, item] of value.entries()) {
      const problem = checkSubschema(item, `${where(key)}.${i}`, depth + 1);
      if (problem) return problem;
    }
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
