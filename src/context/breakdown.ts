import { formatCount } from "../core/format-count.js";
import type { Message } from "../core/messages.js";
import type { ToolSchema } from "../core/tool.js";
import { findLoadedSkills } from "./skill-bodies.js";
import { estimateMessageTokens, estimateTokens, estimateToolSchemasTokens } from "./tokens.js";

export interface ContextInputs {
  /** The whole system prompt (catalog included, if it is in there). */
  system: string;
  /** The skill catalog section as it appears in the system prompt ("" when none). */
  catalog: string;
  toolSchemas: readonly ToolSchema[];
  messages: readonly Message[];
  /** The context window in tokens. */
  window: number;
}

/** The next request in estimated tokens, by part. */
export interface ContextBreakdown {
  window: number;
  systemPrompt: number;
  skillCatalog: number;
  toolSchemas: number;
  loadedSkills: number;
  loadedSkillNames: string[];
  history: number;
  used: number;
  /** window - used; negative when the request would not fit. */
  free: number;
}

export function breakdownContext(inputs: ContextInputs): ContextBreakdown {
  const catalogInSystem = inputs.catalog !== "" && inputs.system.includes(inputs.catalog);
  const skillCatalog = inputs.catalog === "" ? 0 : estimateTokens(inputs.catalog);
  const systemPrompt = catalogInSystem
    ? estimateTokens(inputs.system.replace(inputs.catalog, ""))
    : estimateTokens(inputs.system);
  const toolSchemas = estimateToolSchemasTokens(inputs.toolSchemas);

  const skills = findLoadedSkills(inputs.messages);
  const loadedSkills = skills.reduce((sum, s) => sum + estimateTokens(s.text), 0);
  const messages = inputs.messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0);
  const history = Math.max(0, messages - loadedSkills);

  const used = systemPrompt + skillCatalog + toolSchemas + loadedSkills + history;
  return {
    window: inputs.window,
    systemPrompt,
    skillCatalog,
    toolSchemas,
    loadedSkills,
    loadedSkillNames: skills.map((s) => s.name),
    history,
    used,
    free: inputs.window - used,
  };
}

/**
 * The `/context` and `hx context` table:
 *
 *     Context: 10,190 of 32,000 tokens used (32%), estimated
 *       system prompt      1,234    3.9%
 *       ...
 */
export function renderContextTable(breakdown: ContextBreakdown, label?: string): string {
  const { window } = breakdown;
  const pct = (n: number) => (window > 0 ? `${((n / window) * 100).toFixed(1)}%` : "-");
  const skillsNote = breakdown.loadedSkillNames.length ? `  (${breakdown.loadedSkillNames.join(", ")})` : "";
  const rows: Array<[string, number, string]> = [
    ["system prompt", breakdown.systemPrompt, ""],
    ["skill catalog", breakdown.skillCatalog, ""],
    ["tool schemas", breakdown.toolSchemas, ""],
    ["loaded skills", breakdown.loadedSkills, skillsNote],
    ["history", breakdown.history, ""],
    ["free space", breakdown.free, ""],
  ];
  const numbers = rows.map(([, n]) => formatCount(n));
  const width = Math.max(...numbers.map((n) => n.length));
  const head =
    `Context${label ? ` (${label})` : ""}: ${formatCount(breakdown.used)} of ` +
    `${formatCount(window)} tokens used (${pct(breakdown.used)}), estimated at ~4 chars per token`;
  const lines = rows.map(
    ([name, n, note], i) => `  ${name.padEnd(14)}${numbers[i].padStart(width)}  ${pct(n).padStart(6)}${note}`,
  );
  return [head, ...lines].join("\n");
}
