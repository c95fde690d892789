/**
 * The files and folders hx reads that tell the model what to do or grant it tools: skill roots
 * and instruction files. Discovery (src/skills/discover.ts), the instructions
 * (src/session/project-instructions.ts) and the protected paths
 * (src/permissions/protected-paths.ts) all read these lists, so a new root is protected the
 * moment hx reads it.
 */

/** Skill folders in each project folder from the working folder up to the repository root. */
export const PROJECT_SKILL_FOLDERS = [".agents/skills", ".claude/skills"] as const;

/** Skill folders in the user's home folder. */
export const USER_SKILL_FOLDERS = [".agents/skills", ".hx/skills"] as const;

/** Instruction files, in order of preference per folder: the first one found in a folder is used. */
export const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"] as const;
