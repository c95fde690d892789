export { breakdownContext, type ContextBreakdown, renderContextTable } from "./breakdown.js";
export { type CompactionRecord, type CompactionTrigger, ContextCompactor } from "./compactor.js";
export { findLoadedSkills, type LoadedSkill } from "./skill-bodies.js";
export { createSkillSizeGuard, fitSkillToWindow } from "./skill-size-guard.js";
export { createToolOutputSpill, DEFAULT_SPILL_LIMIT_CHARS } from "./spill.js";
export { resolveContextWindow } from "./windows.js";
