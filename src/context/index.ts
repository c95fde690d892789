export {
  breakdownContext,
  type ContextBreakdown,
  type ContextInputs,
  renderContextTable,
} from "./breakdown.js";
export {
  type CompactionRecord,
  type CompactionTrigger,
  type CompactNowOptions,
  type CompactorOptions,
  ContextCompactor,
} from "./compactor.js";
export { type ShortenOptions, type ShortenResult, shortenOldToolResults } from "./shorten.js";
export { findLoadedSkills, keepsWhole, type LoadedSkill, skillTexts } from "./skill-bodies.js";
export { createSkillSizeGuard } from "./skill-size-guard.js";
export {
  createToolOutputSpill,
  DEFAULT_SPILL_LIMIT_CHARS,
  type ReadHint,
  type SpillOptions,
  spillToolOutput,
} from "./spill.js";
export { SUMMARY_SYSTEM_PROMPT, summarizeMessages } from "./summarize.js";
export { isSummaryMessage } from "./summary-message.js";
export {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateRequestTokens,
  estimateTokens,
  estimateToolSchemasTokens,
} from "./tokens.js";
export { pairingProblems, safeCutPoints } from "./turns.js";
export { cacheHitRate, formatUsage } from "./usage-line.js";
export {
  type ContextWindowInputs,
  type ContextWindowSource,
  contextWindowForModel,
  DEFAULT_CONTEXT_WINDOW,
  parseTokenCount,
  type ResolvedContextWindow,
  resolveContextWindow,
} from "./windows.js";
