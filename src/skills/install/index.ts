// Installing skills from a folder or a git source into .agents/skills, with skills-lock.json.
export { fetchSource, resolveSource, type SkillSourceSpec } from "./fetch.js";
export {
  addSkills,
  copyFolderInto,
  InstallError,
  type InstalledSkill,
  installTarget,
  lockedCopies,
  removeSkill,
  scriptsIn,
  updateSkills,
} from "./install.js";
export { computeSkillFolderHash } from "./lock.js";
