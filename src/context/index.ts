// The context window: token estimates, the window a model has, compaction, shortening tool
// output (spill files) and keeping a skill's body within the window. What other folders use.

export { contextWindowSettingsSchema } from "./settings.js";
export { findLoadedSkills } from "./skill-bodies.js";
export { fitSkillToWindow } from "./skill-size-guard.js";

export { estimateTokens, estimateToolSchemasTokens } from "./tokens.js";
