import { createHash } from "node:crypto";
import path from "node:path";
import { readSmallFileSync } from "../../fs/regular-file.js";

/** Where a skill keeps its trigger queries, relative to its folder. */
export const TRIGGERS_FILE = path.join("evals", "triggers.json");
const MAX_BYTES = 1024 * 1024;

export type EvalSplit = "train" | "validation";

/** One labelled query: should a fresh session load the skill for it? */
export interface TriggerQuery {
  query: string;
  shouldTrigger: boolean;
  split: EvalSplit;
  /** The skill the query is for, when a shared file names it. */
  skill?: string;
}

export type TriggerFile = { ok: true; queries: TriggerQuery[] } | { ok: false; error: string };

/** Share of each label that goes to the train split when the file does not say (the guide's 60/40). */
const TRAIN_SHARE = 0.6;

/**
 * Reads `[{"query": "...", "should_trigger": true, "split"?: "train"|"validation",
 * "skill"?: "name"}]` (or `{"queries": [...]}`). Queries without a split are assigned one:
 * per label, ordered by a hash of the text, the first 60% train and the rest validation, so
 * the same file always gives the same split and both halves hold both labels.
 */
export function readTriggerFile(file: string): TriggerFile {
  const read = readSmallFileSync(file, MAX_BYTES);
  if (!read.ok) return { ok: false, error: `${file} ${read.message}` };
  let data: unknown;
  try {
    data = JSON.parse(read.text);
  } catch (error) {
    return { ok: false, error: `${file} is not valid JSON (${(error as Error).message})` };
  }
  return parseTriggerQueries(data, file);
}

export function parseTriggerQueries(data: unknown, where: string): TriggerFile {
  const list =
    data !== null && typeof data === "object" && !Array.isArray(data)
      ? (data as { queries?: unknown }).queries
      : data;
  if (!Array.isArray(list)) {
    return {
      ok: false,
      error: `${where}: expected a list of {"query": "...", "should_trigger": true|false}`,
    };
  }
  const queries: Array<Omit<TriggerQuery, "split"> & { split?: EvalSplit }> = [];
  for (const [index, item] of list.entries()) {
    const entry = item as Record<string, unknown>;
    const at = `${where}: entry ${index + 1}`;
    if (entry === null || typeof entry !== "object") return { ok: false, error: `${at} is not an object` };
    if (typeof entry.query !== "string" || entry.query.trim() === "")
      return { ok: false, error: `${at}: "query" must be a non-empty string` };
    if (typeof entry.should_trigger !== "boolean")
      return { ok: false, error: `${at}: "should_trigger" must be true or false` };
    if (entry.split !== undefined && entry.split !== "train" && entry.split !== "validation")
      return { ok: false, error: `${at}: "split" must be "train" or "validation"` };
    if (entry.skill !== undefined && typeof entry.skill !== "string")
      return { ok: false, error: `${at}: "skill" must be a skill name` };
    queries.push({
      query: entry.query,
      shouldTrigger: entry.should_trigger,
      ...(entry.split ? { split: entry.split as EvalSplit } : {}),
      ...(entry.skill ? { skill: entry.skill as string } : {}),
    });
  }
  if (queries.length === 0) return { ok: false, error: `${where}: no queries` };
  return { ok: true, queries: assignSplits(queries) };
}

function assignSplits(queries: Array<Omit<TriggerQuery, "split"> & { split?: EvalSplit }>): TriggerQuery[] {
  const assigned = new Map<number, EvalSplit>();
  for (const label of [true, false]) {
    const open = queries
      .map((q, index) => ({ q, index, hash: hashOf(q.query) }))
      .filter(({ q }) => q.shouldTrigger === label && q.split === undefined)
      .sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : a.index - b.index));
    const train = Math.round(open.length * TRAIN_SHARE);
    for (const [position, { index }] of open.entries()) {
      assigned.set(index, position < train ? "train" : "validation");
    }
  }
  return queries.map((q, index) => ({ ...q, split: q.split ?? assigned.get(index) ?? "train" }));
}

function hashOf(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** What `hx skills new` writes: a few of each label to replace with real ones. */
export function starterTriggers(name: string): string {
  const queries = [
    { query: `TODO a request that needs ${name}, in the words a user would type`, should_trigger: true },
    { query: `TODO another way of asking for what ${name} does`, should_trigger: true },
    {
      query: `TODO a request that mentions ${name}'s topic but needs a different skill`,
      should_trigger: false,
    },
    { query: "TODO an unrelated coding request", should_trigger: false },
  ];
  return `${JSON.stringify(queries, null, 2)}\n`;
}
