/**
 * Layering settings files (user, then project folders from the root down, then local): a
 * key's later value replaces an earlier one, unless the key has a merge rule (permission
 * lists and hooks add up, for one). Each feature writes the rule for its keys beside its
 * schema; the full list is composed in src/settings/.
 */

/** How a key's value in a later file combines with what the earlier files gave. */
export type MergeRule<T> = (current: T | undefined, next: T) => T | undefined;

export type MergeRules<S> = { [K in keyof S]?: MergeRule<NonNullable<S[K]>> };

/** Merges layers, earliest first; keys without a rule take the later value. */
export function mergeLayers<S extends object>(layers: readonly S[], rules: MergeRules<S>): S {
  const merged: Record<string, unknown> = {};
  const byKey = rules as Record<string, MergeRule<unknown> | undefined>;
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      const rule = byKey[key];
      if (rule === undefined) merged[key] = value;
      else if (value) {
        const combined = rule(merged[key], value);
        if (combined !== undefined) merged[key] = combined;
      }
    }
  }
  return merged as S;
}

/** An object of names: entries add up, a later file's value for the same name wins. */
export function mergeRecords<T extends object>(current: T | undefined, next: T): T {
  return { ...current, ...next } as T;
}

/** Two lists, the earlier files' first. */
export function concatLists<T>(current: readonly T[] | undefined, next: readonly T[] | undefined): T[] {
  return [...(current ?? []), ...(next ?? [])];
}
