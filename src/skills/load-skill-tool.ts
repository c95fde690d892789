import { type ToolOutput, toolError, toolErrorText } from "../core/tool.js";
import { orderBySimilarity } from "../text/suggest.js";
import { builtSchema } from "../tools/built-schemas.js";
import { type ClaudeShape, defineTool, type Tool, type ToolContext, type Zod } from "../tools/tool.js";
import type { LoadedSkills } from "./loaded-skills.js";
import { formatSkillContent } from "./skill-content.js";
import type { Skill } from "./types.js";

export interface LoadSkillToolDeps {
  /** Every discovered skill (a function if the session re-discovers during a run). */
  skills: readonly Skill[] | (() => readonly Skill[]);
  loaded: LoadedSkills;
  /** The skill as it is now (re-reads SKILL.md); default: as discovered. */
  read?: (skill: Skill) => Skill;
  /** How many of a skill's other files to list (default 40). */
  maxListedFiles?: number;
  /**
   * Runs a `context: fork` skill in a subagent and gives its answer; without it such a skill
   * loads inline.
   */
  fork?: (skill: Skill, task: string, ctx: ToolContext) => Promise<ToolOutput>;
}

export const LOAD_SKILL_TOOL_NAME = "load_skill";
/** Most names an "Unknown skill" error lists. */
const MAX_SUGGESTED_NAMES = 100;

export const loadSkillParameters = (z: Zod) =>
  z.object({
    name: z.string().describe("As listed"),
    args: z.string().optional().describe("Task for a skill run as a subagent (context: fork)"),
  });

/** load_skill as Claude Code's Skill tool: `{ skill: name, args? }`. */
export const LOAD_SKILL_CLAUDE: ClaudeShape<{ name: string; args?: string }> = {
  name: "Skill",
  input: (args) => ({ skill: args.name, ...(args.args !== undefined ? { args: args.args } : {}) }),
  args: (input) => ({
    name: input.skill,
    ...(typeof input.args === "string" ? { args: input.args } : {}),
  }),
};

/**
 * `load_skill {name}`: returns a skill's instructions as a tool result, by name only (never
 * a path), and lets the model read the skill's folder (granted through `loaded`). For the top-level agent only.
 */
export function createLoadSkillTool(deps: LoadSkillToolDeps): Tool<ReturnType<typeof loadSkillParameters>> {
  const allSkills = () => (typeof deps.skills === "function" ? deps.skills() : deps.skills);
  return defineTool({
    name: LOAD_SKILL_TOOL_NAME,
    description:
      "Loads a skill from # Skills (instructions and folder); runs nothing. " +
      "If the user names a skill or the task matches one, load it first, then follow it. " +
      "Which skills exist: see that list.",
    parameters: loadSkillParameters,
    jsonSchema: builtSchema("load_skill"),
    effect: "read",
    claude: LOAD_SKILL_CLAUDE,
    // Rules judge the skill that would load, however the name was spelled (`DEPLOY`, " deploy ").
    ruleSubject: (args) => {
      const name = typeof args.name === "string" ? args.name.trim() : "";
      return findSkillByName(allSkills(), name)?.name ?? name;
    },
    async execute(args, ctx) {
      const name = typeof args.name === "string" ? args.name.trim() : "";
      if (name === "") return toolError("load_skill.name must be a non-empty string");
      const skills = allSkills();
      const found = findSkillByName(skills, name);
      const skill = found && deps.read ? deps.read(found) : found;
      if (!skill) return toolError(unknownSkillMessage(name, skills));
      if (skill.disableModelInvocation) {
        return {
          content: toolErrorText(
            `Skill '${skill.name}' can only be invoked by the user (/${skill.name}); it is not loadable with load_skill.`,
          ),
          isError: true,
        };
      }
      if (deps.loaded.has(skill.name)) {
        return `Skill '${skill.name}' is already loaded in this conversation; follow the instructions from the earlier load_skill result.`;
      }
      let delivered = skill;
      if (skill.remote) {
        // Fetched and checked now, never ahead of need; its folder is not on this machine.
        const fetched = await skill.remote.fetchBody(ctx.signal);
        if ("error" in fetched) return toolError(fetched.error);
        delivered = { ...skill, body: fetched.body };
      }
      // A forked skill's body goes to the subagent, never into this conversation.
      if (delivered.fork && deps.fork) {
        if (!skill.remote) deps.loaded.grantRead(skill.dir);
        return deps.fork(delivered, typeof args.args === "string" ? args.args : "", ctx);
      }
      deps.loaded.add({ name: skill.name, ...(skill.remote ? {} : { dir: skill.dir }) });
      return { content: formatSkillContent(delivered, deps.maxListedFiles), meta: { skill: skill.name } };
    },
  });
}

/**
 * The skill called `name`: an exact match, else the only case-insensitive one. Path-like
 * names (`/`, `\`, leading `.`, `SKILL.md`) never match.
 */
export function findSkillByName(skills: readonly Skill[], name: string): Skill | undefined {
  if (isPathLike(name)) return undefined;
  const exact = skills.find((s) => s.name === name);
  if (exact) return exact;
  const folded = skills.filter((s) => s.name.toLowerCase() === name.toLowerCase());
  return folded.length === 1 ? folded[0] : undefined;
}

function isPathLike(name: string): boolean {
  return /[/\\]/.test(name) || name.startsWith(".") || name.startsWith("~") || /\.md$/i.test(name);
}

/** `Unknown skill 'x'. Available: a, b, c`, the closest match first (the tool makes it an error with `toolError`). */
export function unknownSkillMessage(name: string, skills: readonly Skill[]): string {
  const loadable = skills.filter((s) => !s.disableModelInvocation).map((s) => s.name);
  if (loadable.length === 0) return `Unknown skill '${name}'. Available: none`;
  const ordered = orderBySimilarity(name, loadable);
  const shown = ordered.slice(0, MAX_SUGGESTED_NAMES);
  const rest = ordered.length - shown.length;
  return `Unknown skill '${name}'. Available: ${shown.join(", ")}${rest > 0 ? ` (and ${rest} more)` : ""}`;
}
