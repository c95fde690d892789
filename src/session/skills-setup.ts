import type { Settings } from "../config/settings.js";
import { findLoadedSkills } from "../context/index.js";
import { formatDiagnostic } from "../core/diagnostic.js";
import type { Message } from "../core/messages.js";
import {
  buildSkillCatalog,
  createLoadSkillTool,
  type DiscoveryResult,
  discoverSkills,
  expandSkillInvocation,
  LoadedSkills,
  parseSlashPrompt,
  resolveCatalogBudget,
  type Skill,
  type SkillCatalog,
} from "../skills/index.js";
import type { Capability, PromptFilter, SessionBasics, SlashCommand } from "./capability.js";

export interface SkillsCapability extends Capability {
  skills: readonly Skill[];
  loaded: LoadedSkills;
  /** The catalog section of the system prompt ("" when there are no visible skills). */
  catalog: string;
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
 * descriptions, in the system prompt) and `load_skill` (bodies, on demand, top-level agent
 * only); `/skill-name args` puts a body in the conversation before the model runs. Skills
 * whose bodies a resumed history holds count as loaded, and their folders stay readable.
 */
export function setUpSkills(basics: SessionBasics, options: { contextWindow: number }): SkillsCapability {
  const { workspace, log } = basics;
  const { discovery, catalog } = discoverSkillsView({
    cwd: basics.cwd,
    settings: basics.settings,
    contextWindow: options.contextWindow,
  });
  const { skills } = discovery;
  if (basics.verbose) {
    for (const diagnostic of discovery.diagnostics) log(`skills: ${formatDiagnostic(diagnostic)}`);
    if (catalog.shortened.length > 0) {
      log(`skills: catalog over budget, descriptions shortened: ${catalog.shortened.join(", ")}`);
    }
    if (catalog.nameOnly.length > 0) log(`skills: listed by name only: ${catalog.nameOnly.join(", ")}`);
  }
  // Loaded = whole in the history. After a replacement (resume, compaction, clear) that is
  // read again from the messages' meta: a body summarised away or cut may be loaded again,
  // and the folders of resumed skills stay readable.
  const loaded = new LoadedSkills();
  const readLoaded = (messages: readonly Message[]) => {
    loaded.clear();
    for (const { name } of findLoadedSkills(messages)) {
      const skill = skills.find((s) => s.name === name);
      if (!skill) continue;
      loaded.add(name);
      workspace.allowRead(skill.dir);
    }
  };
  readLoaded(basics.conversation.messages);
  const unsubscribe = basics.conversation.subscribe((change) => {
    if (change.type === "replace") readLoaded(change.messages);
  });

  const promptFilter: PromptFilter = (prompt) => {
    const slash = parseSlashPrompt(prompt);
    const named = slash && skills.find((s) => s.name === slash.name);
    if (named && !named.userInvocable) {
      return {
        refuse: `/${named.name} is not for the user to invoke (its SKILL.md says user-invocable: false); the model loads it when a task needs it.`,
      };
    }
    const invocation = expandSkillInvocation(prompt, skills, loaded);
    if (!invocation) return { prompt };
    workspace.allowRead(invocation.skill.dir);
    return { prompt: invocation.text, meta: { skills: [invocation.span] } };
  };
  const listCommand: SlashCommand = {
    name: "skills",
    usage: "/skills",
    description: "the skills the model can load (type /<name> to invoke one)",
    run(_args, io) {
      if (skills.length === 0) {
        io.print("No skills found. Add one with: hx skills new NAME");
        return;
      }
      for (const skill of skills) {
        if (!skill.userInvocable) continue;
        const hint = skill.argumentHint ? ` ${skill.argumentHint}` : "";
        io.print(`  /${skill.name}${hint}  ${firstLine(skill.description)}`);
      }
    },
  };
  return {
    name: "skills",
    tools: [createLoadSkillTool({ skills, loaded })],
    promptFilters: [promptFilter],
    promptSections: [catalog.text],
    commands: [listCommand],
    close: unsubscribe,
    skills,
    loaded,
    catalog: catalog.text,
  };
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
