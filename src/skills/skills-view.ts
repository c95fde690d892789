import type { Diagnostic } from "../core/diagnostic.js";
import { buildSkillCatalog, resolveCatalogBudget, type SkillCatalog } from "./catalog.js";
import { type DiscoveryResult, discoverSkills } from "./discover.js";
import { mergeRemoteSkills } from "./remote-skills.js";
import type { SkillSettings } from "./settings.js";
import type { Skill } from "./types.js";

export interface SkillsView {
  discovery: DiscoveryResult;
  catalog: SkillCatalog;
  /** Remote skills left out (a skill of the same name won), for the user. */
  remoteDiagnostics: Diagnostic[];
}

/**
 * The skills visible from `cwd` and the catalog built from them, with the settings' extra
 * paths and catalog budget. A session and `hx skills list` both call this, so they agree on
 * which skills exist and which descriptions the catalog shortens.
 */
export function discoverSkillsView(options: {
  cwd: string;
  settings: { skills?: SkillSettings };
  /** The model's context window in tokens (see resolveContextWindow). */
  contextWindow: number;
  /** False when the window is hx's guess for an unknown model (see resolveCatalogBudget). */
  windowKnown?: boolean;
  /** Defaults to os.homedir() (tests set HOME). */
  homeDir?: string;
  /** Skills offered from elsewhere (MCP servers); one on this machine of the same name wins. */
  remote?: readonly Skill[];
  /** Descriptions to use instead of the files' (`hx skills eval --description`), by skill name. */
  descriptions?: Readonly<Record<string, string>>;
}): SkillsView {
  const found = discoverSkills({
    cwd: options.cwd,
    homeDir: options.homeDir,
    extraPaths: options.settings.skills?.paths,
  });
  const replaced = options.descriptions ?? {};
  const local = {
    ...found,
    skills: found.skills.map((skill) =>
      Object.hasOwn(replaced, skill.name) ? { ...skill, description: replaced[skill.name]! } : skill,
    ),
  };
  const merged = mergeRemoteSkills(local.skills, options.remote ?? []);
  const discovery = { skills: merged.skills, diagnostics: [...local.diagnostics, ...merged.diagnostics] };
  const catalog = buildSkillCatalog(discovery.skills, {
    budget: resolveCatalogBudget(
      options.contextWindow,
      options.settings.skills?.catalogBudget,
      options.windowKnown ?? true,
    ),
  });
  return { discovery, catalog, remoteDiagnostics: merged.diagnostics };
}

/**
 * The catalog again, sized for the window the server reports, when hx only guessed the window
 * and the budget depends on it: one request, paid only by sessions that have a catalog to size.
 * A budget set in characters does not depend on the window: nothing to ask.
 */
export async function sizeCatalogForReportedWindow(
  view: SkillsView,
  options: {
    settings: { skills?: SkillSettings };
    windowKnown?: boolean;
    reportedContextWindow?: () => Promise<number | undefined>;
  },
): Promise<SkillCatalog> {
  const setBudget = options.settings.skills?.catalogBudget;
  const budgetInChars = setBudget !== undefined && Number.isFinite(setBudget) && setBudget > 1;
  const ask = options.reportedContextWindow;
  if (options.windowKnown !== false || budgetInChars || !ask || view.catalog.listed.length === 0)
    return view.catalog;
  const reported = await ask();
  if (reported === undefined) return view.catalog;
  return buildSkillCatalog(view.discovery.skills, {
    budget: resolveCatalogBudget(reported, setBudget, true),
  });
}
