/**
 * Orders names for an "unknown name" error (skills, settings keys): the closest match to what was asked for
 * first (a prefix, a substring, or a small edit distance), then the rest by name.
 */
export function orderBySimilarity(query: string, names: readonly string[]): string[] {
  const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const best = closestName(query, sorted);
  return best === undefined ? sorted : [best, ...sorted.filter((n) => n !== best)];
}

/** The one name close enough to `query` to be a likely typo or shorthand, if any. */
export function closestName(query: string, names: readonly string[]): string | undefined {
  const wanted = normalize(query);
  if (wanted === "") return undefined;
  let best: { name: string; score: number } | undefined;
  for (const name of names) {
    const candidate = normalize(name);
    const distance = editDistance(wanted, candidate);
    const related =
      Math.min(wanted.length, candidate.length) >= 3 &&
      (candidate.startsWith(wanted) || wanted.startsWith(candidate) || candidate.includes(wanted));
    const threshold = Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 4));
    if (!related && distance > threshold) continue;
    const score = related ? distance / 2 : distance;
    if (!best || score < best.score) best = { name, score };
  }
  return best?.name;
}

function normalize(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, "-");
}

/** Levenshtein distance, two rows. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return previous[b.length];
}
