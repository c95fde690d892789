// The context window: token estimates, the window a model has, compaction, shortening tool
// output (spill files) and keeping a skill's body within the window. What other folders use.
export { breakdownContext, renderContextTable } from "./breakdown.js";
export { type CompactionTrigger, ContextCompactor } from "./compactor.js";
export { contextWindowSettingsSchema } from "./settings.js";
export { findLoadedSkills } from "./skill-bodies.js";
export { createSkillSizeGuard, fitSkillToWindow } from "./skill-size-guard.js";
export { createToolOutputSpill } from "./spill.js";
export { estimateTokens, estimateToolSchemasTokens } from "./tokens.js";
