import path from "node:path";
import type { Capability, SessionBasics } from "../agent/capability.js";
import { findLoadedSkills } from "../context/index.js";
import { formatDiagnostic } from "../core/diagnostic.js";
import type { Message, SkillSpan } from "../core/messages.js";
import { findProjectRoot } from "../fs/project-root.js";
import type { Tool } from "../tools/tool.js";
import { ActiveSkills, type ScopedRule } from "./active-skills.js";
import { skillsAnnouncer } from "./announcer.js";
import type { SkillCatalog } from "./catalog.js";
import { rereadSkill, skillRoots } from "./discover.js";
import { LiveSkills, type RescanResult } from "./live-skills.js";
import { createLoadSkillTool } from "./load-skill-tool.js";
import { LoadedSkills } from "./loaded-skills.js";
import { preloadSkills } from "./preload.js";
import { skillPromptFilter } from "./prompt-filter.js";
import { runForkedSkill, type SkillRuntime, skillHooksExtension } from "./runtime.js";
import type { SkillSettings } from "./settings.js";
import { reloadSkillsCommand, skillsListCommand } from "./skill-commands.js";
import { discoverSkillsView, type SkillsView, sizeCatalogForReportedWindow } from "./skills-view.js";
import type { Skill } from "./types.js";
import { SkillWatcher } from "./watch.js";

/** A permission rule an active skill holds, and who holds it ("the skill deploy"). */
interface HeldRule {
  rule: string;
  source: string;
}

/** Whether a skill file may grant or run anything (folder trust, decided by the session). */
export interface SkillTrust {
  fileTrusted: (file: string) => boolean;
  /** How to trust the folder, for the end of a line. */
  howToTrust: string;
}

export interface SkillsCapability extends Capability {
  /** Every skill as of the last scan. */
  skills: () => readonly Skill[];
  /** The skills the user may invoke now, for completion. */
  invocable: () => InvocableSkill[];
  /** The permission rules the active skills hold (allowed-tools, disallowed-tools). */
  scopedRules: () => { allow: HeldRule[]; deny: HeldRule[] };
  /** The catalog section of the system prompt ("" when there are no visible skills). */
  catalog: string;
  /** `task`'s `skills: [names]`: bodies a subagent starts with; their folders become readable. */
  forSubagents: {
    offered: () => boolean;
    preload: (names: readonly string[]) => { text: string; spans: SkillSpan[] } | { error: string };
  };
}

/** What the front ends complete `/name` with: the skills the user may invoke now. */
export interface InvocableSkill {
  name: string;
  description: string;
  argumentHint?: string;
}

export interface SkillsOptions {
  contextWindow: number;
  windowKnown?: boolean;
  /** Asks the server for the window of a model nobody knows; only called if skills are visible. */
  reportedContextWindow?: () => Promise<number | undefined>;
  /** Skills of MCP servers (source `mcp:<server>`), joining the catalog. */
  remote?: () => readonly Skill[];
  /**
   * Asks for remote skills that appeared since (a server that finished starting late);
   * true when `remote` now returns more, so the skills are rescanned and announced.
   */
  refreshRemote?: () => Promise<boolean>;
  /**
   * Watch the skill roots for changes (the interactive session; settings `skills.watch: false`
   * turns it off there too). Headless runs do not: the watcher's cost would sit before the
   * first request of a run that rarely outlives an edit. Default false.
   */
  watch?: boolean;
  /**
   * Folder trust. Untrusted: the `allowed-tools` of skills read from inside the project are
   * not honoured (their calls are asked as usual); a skill's `disallowed-tools` always is.
   */
  trust: SkillTrust;
  /** Descriptions to use instead of the files' (`hx skills eval --description`), by skill name. */
  descriptions?: Readonly<Record<string, string>>;
  /** Subagents, other models, the shell tool and hooks, for Claude Code's runtime fields. */
  runtime?: Partial<SkillRuntime>;
}

/**
 * The session's skills in two layers: the catalog (names and descriptions, in the system
 * prompt, fixed for the session so providers cache the prefix) and `load_skill` (bodies, on
 * demand, read from the file at each load; top-level agent only); `/skill-name args` puts a
 * body in the conversation before the model runs (prompt-filter.ts). After the start the
 * skills live on: in the interactive session skill roots are watched (settings
 * `skills.watch`, default on) and `/reload-skills` rescans; conditional skills (`paths:`) wait
 * for a tool to touch a matching file. What changed reaches the model as one appended message
 * before its next request (announcer.ts). What is loaded follows the history (followLoaded).
 */
export async function setUpSkills(
  basics: SessionBasics<{ skills?: SkillSettings }>,
  options: SkillsOptions,
): Promise<SkillsCapability> {
  const { workspace, log } = basics;
  const scan = (): SkillsView =>
    discoverSkillsView({
      cwd: basics.cwd,
      settings: basics.settings,
      contextWindow: options.contextWindow,
      windowKnown: options.windowKnown,
      remote: options.remote?.(),
      descriptions: options.descriptions,
    });
  const first = scan();
  const catalog = await sizeCatalogForReportedWindow(first, { settings: basics.settings, ...options });
  if (basics.verbose) logDiscovery(first, catalog, log);
  const live = new LiveSkills(first.discovery.skills, () => scan().discovery);
  const skills = () => live.all();
  const projectRoot = findProjectRoot(basics.cwd);
  const loaded = new LoadedSkills(workspace);
  const unfollowLoaded = followLoaded(basics, loaded, skills);
  // Active = loaded since the last prompt the user typed: their allowed-tools and
  // disallowed-tools hold for the permission check until then.
  const active = new ActiveSkills(skills);
  const unfollowActive = basics.conversation.subscribe(active.follow);
  const runtime: SkillRuntime = { log, ...options.trust, ...options.runtime };
  warnUngranted(first.discovery.skills, options.trust, log);
  const { reload, watcher } = liveReload(basics, live, projectRoot, options.watch === true);
  // The body handed out is the file's current one; later changes are measured from it.
  const deliver = (skill: Skill): Skill => {
    const current = fresh(skill);
    live.noteDelivered(current);
    return current;
  };
  const loadSkill = createLoadSkillTool({
    skills,
    loaded,
    read: deliver,
    fork: runtime.fork
      ? (skill, task, ctx) =>
          runForkedSkill(skill, task, runtime, { id: ctx.callId, emit: ctx.emit, signal: ctx.signal })
      : undefined,
  });
  const offer = offerWhenLoadable(loadSkill, () => skills().some((s) => !s.disableModelInvocation));
  const announcer = skillsAnnouncer({
    live,
    loaded,
    workspace,
    projectRoot,
    watcher,
    refreshRemote: options.refreshRemote
      ? async () => {
          if (await options.refreshRemote?.()) reload("an MCP server finished starting");
        }
      : undefined,
    offerLate: offer.offerLate,
  });
  const activeSkills = () => active.names().flatMap((name) => skills().filter((s) => s.name === name));
  return {
    name: "skills",
    // load_skill only while a skill may be loaded: its schema would cost every request.
    tools: offer.tools,
    lateTools: offer.lateTools,
    extensions: [announcer, skillHooksExtension(activeSkills, runtime)],
    diagnostics: first.remoteDiagnostics,
    promptFilters: [
      skillPromptFilter({
        skills,
        deliver,
        loaded,
        runtime,
        contextWindow: options.contextWindow,
        workspaceRoot: workspace.root,
      }),
    ],
    promptSections: [catalog.text],
    commands: [skillsListCommand(live, catalog), reloadSkillsCommand(reload)],
    close() {
      watcher?.close();
      unfollowActive();
      unfollowLoaded();
    },
    skills,
    invocable: () =>
      skills()
        .filter((s) => s.userInvocable)
        .map(invocable),
    scopedRules: () => scopedRules(active.rules(), skills(), options.trust),
    catalog: catalog.text,
    forSubagents: {
      offered: () => skills().some((skill) => !skill.disableModelInvocation),
      preload: (names) => {
        const preload = preloadSkills(skills(), names);
        if ("error" in preload) return preload;
        for (const skill of preload.skills) loaded.grantRead(skill.dir);
        return preload;
      },
    },
  };
}

/**
 * Loaded = whole in the history. After a replacement (resume, compaction, clear) that is read
 * again from the messages' meta: a body summarised away or cleared may be loaded again, and
 * only the folders of the skills the history still carries stay readable.
 */
function followLoaded(
  basics: SessionBasics<{ skills?: SkillSettings }>,
  loaded: LoadedSkills,
  skills: () => readonly Skill[],
): () => void {
  const read = (messages: readonly Message[]) =>
    loaded.reset(
      findLoadedSkills(messages).flatMap(({ name }) => {
        const skill = skills().find((s) => s.name === name);
        if (!skill) return [];
        return [{ name, ...(skill.remote ? {} : { dir: skill.dir }) }];
      }),
    );
  read(basics.conversation.messages);
  return basics.conversation.subscribe((change) => {
    if (change.type === "replace") read(change.messages);
  });
}

/** The active skills' rules; a skill's allow rules only when its file may grant (folder trust). */
function scopedRules(
  rules: { allow: ScopedRule[]; deny: ScopedRule[] },
  skills: readonly Skill[],
  trust: SkillTrust,
): { allow: HeldRule[]; deny: HeldRule[] } {
  const held = (r: ScopedRule) => ({ rule: r.rule, source: `the skill ${r.skill}` });
  const grants = (name: string) => {
    const skill = skills.find((s) => s.name === name);
    return skill !== undefined && grantsAllowedTools(skill, trust);
  };
  return { allow: rules.allow.filter((r) => grants(r.skill)).map(held), deny: rules.deny.map(held) };
}

function grantsAllowedTools(skill: Skill, trust: SkillTrust): boolean {
  return !skill.remote && trust.fileTrusted(skill.file);
}

function warnUngranted(skills: readonly Skill[], trust: SkillTrust, log: (line: string) => void): void {
  const ungranted = skills.filter(
    (s) => s.allowedTools.length > 0 && !s.remote && !grantsAllowedTools(s, trust),
  );
  if (ungranted.length === 0) return;
  log(
    `warning: this folder is not trusted, so the allowed-tools of its skill${ungranted.length > 1 ? "s" : ""} ${ungranted.map((s) => s.name).join(", ")} are ignored (their calls are asked as usual). To honour them, ${trust.howToTrust}.`,
  );
}

function logDiscovery(view: SkillsView, catalog: SkillCatalog, log: (line: string) => void): void {
  for (const diagnostic of view.discovery.diagnostics) log(`skills: ${formatDiagnostic(diagnostic)}`);
  if (catalog.shortened.length > 0)
    log(`skills: catalog over budget, descriptions shortened: ${catalog.shortened.join(", ")}`);
  if (catalog.nameOnly.length > 0) log(`skills: listed by name only: ${catalog.nameOnly.join(", ")}`);
}

/** Rescanning (`reload`) and, when asked for, the watcher of the skill roots that triggers it. */
function liveReload(
  basics: SessionBasics<{ skills?: SkillSettings }>,
  live: LiveSkills,
  projectRoot: string,
  watch: boolean,
): { reload: (why: string) => RescanResult; watcher?: SkillWatcher } {
  const parts: { watcher?: SkillWatcher } = {};
  const reload = (why: string): RescanResult => {
    const result = live.rescan();
    if (!result.ok) {
      basics.log(`warning: skills: rescanning failed (${result.error}); keeping the skills found before`);
      return result;
    }
    parts.watcher?.sync(localDirs(live.all()));
    if (basics.verbose && result.changes.length > 0)
      basics.log(`skills: ${why}: ${result.changes.map((c) => `${c.kind} ${c.name}`).join(", ")}`);
    return result;
  };
  if (watch && basics.settings.skills?.watch !== false) {
    parts.watcher = new SkillWatcher({
      roots: skillRoots({ cwd: basics.cwd, extraPaths: basics.settings.skills?.paths }).map((r) => r.dir),
      skillDirs: localDirs(live.all()),
      stopAt: (root) => watchStop(root, projectRoot),
      onChange: () => reload("changed on disk"),
    });
  }
  return { reload, watcher: parts.watcher };
}

/**
 * load_skill goes with the first request that has a skill to load: at once, or (a new folder
 * on disk, a conditional skill's paths touched) as a late tool when one appears.
 */
function offerWhenLoadable(
  loadSkill: Tool,
  loadable: () => boolean,
): { tools: Tool[]; lateTools?: Promise<Tool[]>; offerLate?: () => void } {
  if (loadable()) return { tools: [loadSkill] };
  let resolve: ((tools: Tool[]) => void) | undefined;
  const lateTools = new Promise<Tool[]>((done) => {
    resolve = done;
  });
  return {
    tools: [],
    lateTools,
    offerLate: () => {
      if (!resolve || !loadable()) return;
      resolve([loadSkill]);
      resolve = undefined;
    },
  };
}

function invocable(skill: Skill): InvocableSkill {
  return {
    name: skill.name,
    description: skill.description,
    ...(skill.argumentHint ? { argumentHint: skill.argumentHint } : {}),
  };
}

/** The skill as its SKILL.md says now (a body edited since the last scan), or as scanned. */
function fresh(skill: Skill): Skill {
  if (skill.remote) return skill; // fetched when it is loaded
  return rereadSkill(skill) ?? skill;
}

/** The folders of the skills on this machine (remote skills have none to watch). */
function localDirs(skills: readonly Skill[]): string[] {
  return skills.filter((s) => !s.remote).map((s) => s.dir);
}

/** Above this folder a missing root is not watched for: the project root, or its own parent. */
function watchStop(root: string, projectRoot: string): string {
  const relative = path.relative(projectRoot, root);
  return !relative.startsWith("..") && !path.isAbsolute(relative)
    ? projectRoot
    : path.dirname(path.dirname(root));
}
