// Agent Skills: discovery, parsing and validation, the catalog, load_skill, `/skill` prompts,
// the skills capability and the `skills` settings fragment. Installing (./install/) and
// evaluating (./eval/) have their own index.ts.

export { splitArguments } from "./arguments.js";
export { shellCommandsIn } from "./body-expansion.js";
export { type InvocableSkill, type SkillTrust, setUpSkills } from "./capability.js";
export { budgetNote, type SkillCatalog } from "./catalog.js";
export { type DiscoveryResult, discoverSkills, findProjectRoot, loadSkillsFromRoots } from "./discover.js";
export { parseSlashPrompt } from "./invoke.js";
export {
  createLoadSkillTool,
  findSkillByName,
  LOAD_SKILL_CLAUDE,
  LOAD_SKILL_TOOL_NAME,
  unknownSkillMessage,
} from "./load-skill-tool.js";
export { LoadedSkills } from "./loaded-skills.js";
export { isPlainObject, parseYaml, splitFrontmatter } from "./parse.js";
export { mergeSkillSettings, skillSettingsSchema } from "./settings.js";
export { listSkillFiles } from "./skill-content.js";
export { cleanControlCharacters, readBoolean, readSkillFields, unusableNameReason } from "./skill-fields.js";
export { discoverSkillsView, type SkillsView } from "./skills-view.js";
export type { RemoteSkillFiles, Skill } from "./types.js";
export { type SessionEvents, type SkillUsageReport, skillUsage } from "./usage-stats.js";
export {
  findSkillFile,
  type SkillValidation,
  validateDescription,
  validateName,
  validateSkillPath,
} from "./validate.js";
