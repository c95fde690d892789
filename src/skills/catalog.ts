import { compareNames } from "./discover.js";
import { cleanControlCharacters, codePointSlice, codePointLength as length } from "./skill-fields.js";
import type { Skill } from "./types.js";

/**
 * The catalog: the system-prompt section that tells the model which skills exist (name and
 * description, never a body). When to load one is said by load_skill's description, which is
 * sent exactly when a catalog is. Pure: the same skills and budget always give byte-identical
 * text, so providers can cache the prompt prefix.
 */

export const CATALOG_HEADER = "# Skills (load_skill before using one)";

/** Heading of the line listing skills whose descriptions did not fit the budget. */
export const NAME_ONLY_PREFIX = "- More skills (load_skill shows what they do): ";

/** Shortened descriptions never go below this many characters (then skills go name-only). */
const MIN_DESCRIPTION_CHARS = 24;
const ELLIPSIS = "…";

export interface CatalogOptions {
  /** Most characters (code points) the whole section may take; undefined = no limit. */
  budget?: number;
}

export interface SkillCatalog {
  /** The section for the system prompt; "" when no skill is visible to the model. */
  text: string;
  /** Skills listed, in order (disable-model-invocation ones are left out). */
  listed: string[];
  /** Skills whose descriptions were cut to fit the budget. */
  shortened: string[];
  /** Skills listed by name only because even cut descriptions did not fit. */
  nameOnly: string[];
  /** True when even the name-only catalog is longer than the budget (nothing is dropped). */
  overBudget: boolean;
}

/**
 * The budget when the model's window is unknown (not in hx's table, not set, not reported by
 * the server): 12,000 characters, which lists 100 skills with ~100-character descriptions
 * whole. 2% of the 32K window hx assumes for such models would cut most of them.
 */
export const UNKNOWN_WINDOW_CATALOG_BUDGET = 12_000;

/**
 * Catalog budget in characters: the `skills.catalogBudget` setting (a share of the window, or
 * characters), else 2% of the context window (×4 chars/token), else — for a window nobody
 * knows — UNKNOWN_WINDOW_CATALOG_BUDGET.
 */
export function resolveCatalogBudget(
  contextWindowTokens: number,
  setting?: number,
  windowKnown = true,
): number {
  if (setting !== undefined && Number.isFinite(setting) && setting > 0) {
    return setting <= 1 ? Math.floor(contextWindowTokens * setting * 4) : Math.floor(setting);
  }
  if (!windowKnown) return UNKNOWN_WINDOW_CATALOG_BUDGET;
  return Math.floor(contextWindowTokens * 0.02 * 4);
}

/** What the catalog budget cut, naming the skills (`hx skills list` and `/skills`). */
export function budgetNote(catalog: Pick<SkillCatalog, "shortened" | "nameOnly">): string | undefined {
  if (catalog.shortened.length === 0 && catalog.nameOnly.length === 0) return undefined;
  const parts: string[] = [];
  if (catalog.shortened.length > 0) parts.push(`descriptions shortened: ${catalog.shortened.join(", ")}`);
  if (catalog.nameOnly.length > 0) parts.push(`listed by name only: ${catalog.nameOnly.join(", ")}`);
  return `The catalog is over its budget (${parts.join("; ")}). Raise skills.catalogBudget or shorten descriptions.`;
}

/**
 * The catalog for these skills: those the model may load now (not `disable-model-invocation`,
 * and not conditional: a skill with `paths:` is announced when a matching file is touched).
 */
export function buildSkillCatalog(skills: readonly Skill[], options: CatalogOptions = {}): SkillCatalog {
  const visible = skills
    .filter((s) => !s.disableModelInvocation && s.paths.length === 0)
    .map((s) => ({ name: cleanControlCharacters(s.name), description: catalogDescription(s) }))
    .sort((a, b) => compareNames(a.name, b.name));
  const listed = visible.map((s) => s.name);
  const empty = { listed, shortened: [], nameOnly: [], overBudget: false };
  if (visible.length === 0) return { text: "", ...empty };

  const full = render(
    visible.map((s) => ({ ...s, cap: Number.POSITIVE_INFINITY })),
    [],
  );
  const budget = options.budget;
  if (budget === undefined || length(full) <= budget) return { text: full, ...empty };

  // Shorten evenly: one cap for every description, the largest that fits.
  const measure = new CatalogMeasure(visible);
  const longest = Math.max(...visible.map((s) => length(s.description)));
  const cap = largestCapThatFits(measure, longest, budget);
  if (cap !== undefined) {
    const text = render(
      visible.map((s) => ({ ...s, cap })),
      [],
    );
    const shortened = visible.filter((s) => length(s.description) > cap).map((s) => s.name);
    return { text, listed, shortened, nameOnly: [], overBudget: false };
  }

  // Still too long at the minimum cap: keep cut descriptions for the first skills (by name),
  // list the rest by name only on one line. Every skill stays visible.
  const minimum = visible.map((s) => ({ ...s, cap: MIN_DESCRIPTION_CHARS }));
  let low = 0;
  let high = visible.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (measure.rendered(MIN_DESCRIPTION_CHARS, mid) <= budget) low = mid;
    else high = mid - 1;
  }
  const keep = low;
  const text = render(minimum.slice(0, keep), listedNames(visible.slice(keep)));
  return {
    text,
    listed,
    shortened: visible
      .slice(0, keep)
      .filter((s) => length(s.description) > MIN_DESCRIPTION_CHARS)
      .map((s) => s.name),
    nameOnly: listedNames(visible.slice(keep)),
    overBudget: length(text) > budget,
  };
}

interface Entry {
  name: string;
  description: string;
  cap: number;
}

function render(described: Entry[], nameOnly: string[]): string {
  const lines = [CATALOG_HEADER];
  for (const entry of described) lines.push(`- ${entry.name}: ${truncate(entry.description, entry.cap)}`);
  if (nameOnly.length > 0) lines.push(`${NAME_ONLY_PREFIX}${nameOnly.join(", ")}`);
  return lines.join("\n");
}

/**
 * The length in code points `render` would give, counted without building the text: the
 * budget's two searches try some twenty caps and cut-offs, and at 1,000 skills building
 * each candidate text cost more than reading the skills.
 */
class CatalogMeasure {
  private readonly names: number[];
  private readonly descriptions: number[];
  private readonly cut = new Map<string, number>();

  constructor(private readonly entries: ReadonlyArray<Omit<Entry, "cap">>) {
    this.names = entries.map((e) => length(e.name));
    this.descriptions = entries.map((e) => length(e.description));
  }

  /** `render(entries[0..keep) at cap, names of the rest)`. */
  rendered(cap: number, keep = this.entries.length): number {
    let total = length(CATALOG_HEADER);
    for (let i = 0; i < keep; i++) total += 1 + 4 + this.names[i] + this.truncated(i, cap);
    if (keep < this.entries.length) {
      total += 1 + length(NAME_ONLY_PREFIX);
      for (let i = keep; i < this.entries.length; i++) total += this.names[i] + (i > keep ? 2 : 0);
    }
    return total;
  }

  private truncated(i: number, cap: number): number {
    if (this.descriptions[i] <= cap) return this.descriptions[i];
    const key = `${i}:${cap}`;
    let value = this.cut.get(key);
    if (value === undefined) {
      value = length(truncate(this.entries[i].description, cap));
      this.cut.set(key, value);
    }
    return value;
  }
}

function largestCapThatFits(measure: CatalogMeasure, longest: number, budget: number): number | undefined {
  const fits = (cap: number) => measure.rendered(cap) <= budget;
  if (!fits(MIN_DESCRIPTION_CHARS)) return undefined;
  let low = MIN_DESCRIPTION_CHARS;
  let high = longest;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

function truncate(text: string, cap: number): string {
  if (length(text) <= cap) return text;
  return `${codePointSlice(text, cap - 1).trimEnd()}${ELLIPSIS}`;
}

/**
 * What the catalog line says of a skill: its description, then Claude Code's `when_to_use`
 * after it (both shortened together when the budget is tight).
 */
function catalogDescription(skill: Pick<Skill, "description" | "whenToUse">): string {
  const description = oneLine(skill.description);
  return skill.whenToUse ? `${description} ${oneLine(skill.whenToUse)}` : description;
}

/** Multi-line descriptions (block scalars) become one line, without control characters. */
export function oneLine(text: string): string {
  return cleanControlCharacters(text.replace(/\s+/g, " ")).trim();
}

function listedNames(entries: Array<{ name: string }>): string[] {
  return entries.map((e) => e.name);
}
