import type { Settings } from "../config/settings.js";
import {
  buildSkillCatalog,
  createLoadSkillTool,
  discoverSkills,
  expandSkillInvocation,
  LoadedSkills,
  resolveCatalogBudget,
  type Skill,
} from "../skills/index.js";
import type { Tool } from "../tools/tool.js";
import type { Workspace } from "../tools/workspace.js";
import type { PromptFilter } from "./agent-session.js";

export interface SkillsSetup {
  skills: readonly Skill[];
  loaded: LoadedSkills;
  /** The catalog section of the system prompt ("" when there are no visible skills). */
  catalog: string;
  /** `load_skill`, for the top-level agent only. */
  tool: Tool;
  /** `/skill-name args` → the skill's body in the conversation before the model runs. */
  promptFilter: PromptFilter;
}

/**
 * Discovers skills once per session and builds the two layers: the catalog (names and
 * descriptions, in the system prompt) and `load_skill` (bodies, on demand).
 */
export function setUpSkills(options: {
  cwd: string;
  workspace: Workspace;
  settings: Settings;
  contextWindow: number;
  verbose: boolean;
  log: (line: string) => void;
}): SkillsSetup {
  const { skills, diagnostics } = discoverSkills({
    cwd: options.cwd,
    extraPaths: options.settings.skills?.paths,
  });
  const catalog = buildSkillCatalog(skills, {
    budget: resolveCatalogBudget(options.contextWindow, options.settings.skills?.catalogBudget),
  });
  if (options.verbose) {
    for (const line of diagnostics) options.log(`skills: ${line}`);
    if (catalog.shortened.length > 0) {
      options.log(`skills: catalog over budget, descriptions shortened: ${catalog.shortened.join(", ")}`);
    }
    if (catalog.nameOnly.length > 0)
      options.log(`skills: listed by name only: ${catalog.nameOnly.join(", ")}`);
  }
  const loaded = new LoadedSkills();
  const promptFilter: PromptFilter = (prompt) => {
    const invocation = expandSkillInvocation(prompt, skills, loaded);
    if (!invocation) return { prompt };
    options.workspace.allowRead(invocation.skill.dir);
    return { prompt: invocation.text };
  };
  return {
    skills,
    loaded,
    catalog: catalog.text,
    tool: createLoadSkillTool({ skills, loaded }),
    promptFilter,
  };
}
