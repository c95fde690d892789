import * as z from "zod";
import type { Diagnostic } from "../core/diagnostic.js";
import { describeValue } from "../text/schema-messages.js";
import { closestName, editDistance } from "../text/suggest.js";
import type { ValidatedSettings } from "./settings.js";

/** How unknown keys are judged, beyond "a warning with the closest known key". */
export interface KeyPolicy {
  /**
   * Top-level keys where an unknown key inside (or a top-level key that looks like a
   * misspelling of one) is an error: it would run hx with less protection than the user wrote.
   */
  protective: ReadonlySet<string>;
  /**
   * Top-level keys whose own keys are names another program may add (Claude Code's hook
   * events): an unknown one close to no known name is a warning with this message, not an error.
   */
  newerNames?: Readonly<Record<string, (known: readonly string[]) => string>>;
}

/**
 * Checks one settings file's parsed JSON against `schema`. Wrong types are errors naming the
 * key path and what was expected; unknown keys are warnings with the closest known key, or
 * errors where a misspelling would drop protection (see KeyPolicy). Never throws.
 */
export function validateAgainst<S>(
  schema: z.ZodType<S>,
  policy: KeyPolicy,
  raw: unknown,
  file: string,
): ValidatedSettings<S> {
  const protectiveKeys = policy.protective;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return {
      diagnostics: [
        {
          level: "error",
          code: "settings.type",
          file,
          message: `must hold a JSON object such as {"permissions": {...}}, got ${describeValue(raw)}`,
        },
      ],
    };
  }
  const diagnostics = unknownKeys(schema, protectiveKeys, raw, [], false).map(
    ({ path, known, protective }): Diagnostic => {
      const key = path[path.length - 1];
      const suggestion = suggestKey(String(key), known);
      // An event name from a newer Claude Code is a warning; a misspelled one (`PreTooluse`) an error.
      const newer = path.length === 2 && suggestion === undefined ? policy.newerNames?.[path[0]] : undefined;
      const error =
        newer === undefined &&
        (protective || (path.length === 1 && suggestion !== undefined && protectiveKeys.has(suggestion)));
      const hint =
        suggestion === undefined ? `known keys: ${known.join(", ")}` : `did you mean ${suggestion}?`;
      return {
        level: error ? "error" : "warning",
        code: "settings.unknown-key",
        file,
        keyPath: path.join("."),
        message: newer ? newer(known) : `unknown key, ${hint}`,
      };
    },
  );
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      diagnostics.push({
        level: "error",
        code: "settings.type",
        file,
        keyPath: issue.path.map(String).join("."),
        message: issue.message,
      });
    }
  }
  const failed = diagnostics.some((d) => d.level === "error");
  return { settings: parsed.success && !failed ? parsed.data : undefined, diagnostics };
}

interface UnknownKey {
  path: Array<string | number>;
  /** The keys allowed where it was found. */
  known: string[];
  /** Found inside a protective key. */
  protective: boolean;
}

/** Keys of `value` the schema does not name, at any depth the schema describes. */
function unknownKeys(
  schema: z.ZodType,
  protectiveKeys: ReadonlySet<string>,
  value: unknown,
  path: Array<string | number>,
  protective: boolean,
): UnknownKey[] {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    return value.flatMap((item, index) =>
      unknownKeys(inner.element as z.ZodType, protectiveKeys, item, [...path, index], protective),
    );
  }
  if (
    !(inner instanceof z.ZodObject) ||
    value === null ||
    typeof value !== "object" ||
    Array.isArray(value)
  ) {
    return [];
  }
  const shape = inner.shape as Record<string, z.ZodType>;
  const known = Object.keys(shape);
  const found: UnknownKey[] = [];
  for (const [key, child] of Object.entries(value)) {
    const childProtective = protective || (path.length === 0 && protectiveKeys.has(key));
    if (Object.hasOwn(shape, key))
      found.push(...unknownKeys(shape[key], protectiveKeys, child, [...path, key], childProtective));
    else found.push({ path: [...path, key], known, protective });
  }
  return found;
}

/** The known key a typo most likely meant: a close name, or one two edits away (`dney`, `modle`). */
function suggestKey(key: string, known: string[]): string | undefined {
  const close = closestName(key, known);
  if (close !== undefined || key.length < 4) return close;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(key.toLowerCase(), name.toLowerCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
