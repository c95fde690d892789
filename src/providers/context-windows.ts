/**
 * Context windows (input tokens a request may hold) of the models hx knows, matched by the
 * longest prefix of the model name. Values are conservative: where a vendor sells a larger
 * window on some plans, the smaller one is listed; `--context-window` raises it.
 */
const KNOWN_WINDOWS: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  // DeepSeek: 128K for chat/reasoner; V4 and flash listed at the same until confirmed larger.
  ["deepseek-", 128_000],
  ["gpt-4o", 128_000],
  ["gpt-4.1", 1_047_576],
  // GPT-5: 400K in total, of which at most 272K input.
  ["gpt-5", 272_000],
  ["o3", 200_000],
  ["o4-mini", 200_000],
  ["claude-", 200_000],
];

/** For a model not in the table (local servers often run small windows). */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

/** The table's window for `model`, or the default when no prefix matches. */
export function contextWindowForModel(model: string): number {
  const name = model.trim().toLowerCase();
  let best: readonly [string, number] | undefined;
  for (const entry of KNOWN_WINDOWS) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best ? best[1] : DEFAULT_CONTEXT_WINDOW;
}

type ContextWindowSource = "flag" | "env" | "settings" | "model" | "default";

export interface ResolvedContextWindow {
  tokens: number;
  source: ContextWindowSource;
  /**
   * Values given but unusable: not a token count, or below MIN_CONTEXT_WINDOW. The CLI stops
   * with a usage error (exit 2) rather than guess.
   */
  errors: string[];
}

/** Below this no system prompt, tool list and turn fit: compaction would run on every turn. */
export const MIN_CONTEXT_WINDOW = 4_096;

export interface ContextWindowInputs {
  model: string;
  /** `--context-window` as typed. */
  flag?: string | number;
  /** `HX_CONTEXT_WINDOW`. */
  env?: string;
  /** `contextWindow` from the merged settings. */
  settings?: number;
}

/**
 * Flag > environment > settings > model table > default. Accepts plain numbers and `32k` /
 * `1m` suffixes, at least MIN_CONTEXT_WINDOW; anything else is reported in `errors`.
 */
export function resolveContextWindow(inputs: ContextWindowInputs): ResolvedContextWindow {
  const errors: string[] = [];
  const candidates: Array<[ContextWindowSource, string, string | number | undefined]> = [
    ["flag", "--context-window", inputs.flag],
    ["env", "HX_CONTEXT_WINDOW", inputs.env],
    ["settings", "contextWindow in settings", inputs.settings],
  ];
  for (const [source, label, raw] of candidates) {
    if (raw === undefined || raw === "") continue;
    const tokens = parseTokenCount(raw);
    if (tokens === undefined) {
      errors.push(`${label} must be a token count such as 32000 or 32k (got '${raw}').`);
    } else if (tokens < MIN_CONTEXT_WINDOW) {
      errors.push(
        `${label} is ${tokens} tokens; hx needs at least ${MIN_CONTEXT_WINDOW} (the system prompt and tools alone take a few thousand).`,
      );
    } else {
      return { tokens, source, errors };
    }
  }
  const tokens = contextWindowForModel(inputs.model);
  return { tokens, source: tokens === DEFAULT_CONTEXT_WINDOW ? "default" : "model", errors };
}

/** "32000", "32k", "1m", 32000 → tokens; undefined when not a positive count. */
export function parseTokenCount(raw: string | number): number | undefined {
  if (typeof raw === "number") return Number.isInteger(raw) && raw > 0 ? raw : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([km]?)\s*$/i.exec(raw);
  if (!match) return undefined;
  const scale = match[2].toLowerCase() === "k" ? 1_000 : match[2].toLowerCase() === "m" ? 1_000_000 : 1;
  const tokens = Math.round(Number(match[1]) * scale);
  return tokens > 0 ? tokens : undefined;
}
