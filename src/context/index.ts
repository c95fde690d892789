export { breakdownContext, renderContextTable } from "./breakdown.js";
export { type CompactionTrigger, ContextCompactor } from "./compactor.js";
export { findLoadedSkills } from "./skill-bodies.js";
export { createSkillSizeGuard, fitSkillToWindow } from "./skill-size-guard.js";
export { createToolOutputSpill } from "./spill.js";
