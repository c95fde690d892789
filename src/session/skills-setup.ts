import type { Settings } from "../config/settings.js";
import {
  buildSkillCatalog,
  createLoadSkillTool,
  type DiscoveryResult,
  discoverSkills,
  expandSkillInvocation,
  LoadedSkills,
  resolveCatalogBudget,
  type Skill,
  type SkillCatalog,
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

export interface SkillsView {
  discovery: DiscoveryResult;
  catalog: SkillCatalog;
}

/**
 * The skills visible from `cwd` and the catalog built from them, with the settings' extra
 * paths and catalog budget. A session and `hx skills list` both call this, so they agree on
 * which skills exist and which descriptions the catalog shortens.
 */
export function discoverSkillsView(options: {
  cwd: string;
  settings: Settings;
  /** The model's context window in tokens (see resolveContextWindow). */
  contextWindow: number;
  /** Defaults to os.homedir() (tests set HOME). */
  homeDir?: string;
}): SkillsView {
  const discovery = discoverSkills({
    cwd: options.cwd,
    homeDir: options.homeDir,
    extraPaths: options.settings.skills?.paths,
  });
  const catalog = buildSkillCatalog(discovery.skills, {
    budget: resolveCatalogBudget(options.contextWindow, options.settings.skills?.catalogBudget),
  });
  return { discovery, catalog };
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
  const { discovery, catalog } = discoverSkillsView(options);
  const { skills } = discovery;
  if (options.verbose) {
    for (const line of discovery.diagnostics) options.log(`skills: ${line}`);
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
