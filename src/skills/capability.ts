import path from "node:path";
import type { Capability, PromptFilter, SessionBasics, SlashCommand } from "../agent/capability.js";
import type { LoopExtension } from "../agent/extension.js";
import type { Settings } from "../config/settings.js";
import { findLoadedSkills, fitSkillToWindow } from "../context/index.js";
import { type Diagnostic, formatDiagnostic } from "../core/diagnostic.js";
import { type Message, userMessage } from "../core/messages.js";
import { findProjectRoot } from "../fs/project-root.js";
import type { ScopedPermissionRules } from "../permissions/index.js";
import type { Tool } from "../tools/tool.js";
import { type FolderTrust, howToTrust, projectFileTrusted, trustKey } from "../trust/index.js";
import {
  ActiveSkills,
  announcementText,
  budgetNote,
  buildSkillCatalog,
  createLoadSkillTool,
  type DiscoveryResult,
  discoverSkills,
  expandSkillInvocation,
  LiveSkills,
  LoadedSkills,
  mergeRemoteSkills,
  parseSlashPrompt,
  type RescanResult,
  rereadSkill,
  resolveCatalogBudget,
  type Skill,
  type SkillCatalog,
  SkillWatcher,
  skillRoots,
  substituteArguments,
} from "./index.js";
import {
  runForkedSkill,
  runSkillShellLines,
  type SkillRuntime,
  skillHooksExtension,
  skillModel,
} from "./runtime.js";

export interface SkillsCapability extends Capability {
  /** Every skill as of the last scan. */
  skills: () => readonly Skill[];
  /** The skills the user may invoke now, for completion. */
  invocable: () => InvocableSkill[];
  live: LiveSkills;
  /** The permission rules the active skills hold (allowed-tools, disallowed-tools). */
  scopedRules: () => ScopedPermissionRules;
  loaded: LoadedSkills;
  /** The catalog section of the system prompt ("" when there are no visible skills). */
  catalog: string;
}

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
  settings: Settings;
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

/** What the front ends complete `/name` with: the skills the user may invoke now. */
export interface InvocableSkill {
  name: string;
  description: string;
  argumentHint?: string;
}

/**
 * The session's skills in two layers: the catalog (names and descriptions, in the system
 * prompt, fixed for the session so providers cache the prefix) and `load_skill` (bodies, on
 * demand, read from the file at each load; top-level agent only); `/skill-name args` puts a
 * body in the conversation before the model runs. After the start the skills live on: in the
 * interactive session skill roots are watched (settings `skills.watch`, default on) and
 * `/reload-skills` rescans;
 * conditional skills (`paths:`) wait for a tool to touch a matching file. What changed
 * reaches the model as one appended message before its next request, listing only the
 * changes. Skills whose bodies a resumed history holds count as loaded.
 */
export async function setUpSkills(
  basics: SessionBasics,
  options: {
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
     * Whether the folder is trusted (src/trust). Untrusted: the `allowed-tools` of skills read
     * from inside the project are not honoured (their calls are asked as usual); a skill's
     * `disallowed-tools` always is. Default: untrusted.
     */
    folderTrust?: FolderTrust;
    /** Descriptions to use instead of the files' (`hx skills eval --description`), by skill name. */
    descriptions?: Readonly<Record<string, string>>;
    /** Subagents, other models, the shell tool and folder trust, for Claude Code's runtime fields. */
    runtime?: Partial<SkillRuntime>;
  },
): Promise<SkillsCapability> {
  const { workspace, log } = basics;
  const scan = () =>
    discoverSkillsView({
      cwd: basics.cwd,
      settings: basics.settings,
      contextWindow: options.contextWindow,
      windowKnown: options.windowKnown,
      remote: options.remote?.(),
      descriptions: options.descriptions,
    });
  const first = scan();
  const { discovery } = first;
  let { catalog } = first;
  // The budget of a model whose window nobody knows comes from the server when it reports one:
  // one request, paid only by sessions that have a catalog to size.
  // A budget set in characters does not depend on the window: nothing to ask.
  const setBudget = basics.settings.skills?.catalogBudget;
  const budgetInChars = setBudget !== undefined && Number.isFinite(setBudget) && setBudget > 1;
  if (
    options.windowKnown === false &&
    !budgetInChars &&
    options.reportedContextWindow &&
    catalog.listed.length > 0
  ) {
    const reported = await options.reportedContextWindow();
    if (reported !== undefined) {
      const budget = resolveCatalogBudget(reported, basics.settings.skills?.catalogBudget, true);
      catalog = buildSkillCatalog(discovery.skills, { budget });
    }
  }
  if (basics.verbose) {
    for (const diagnostic of discovery.diagnostics) log(`skills: ${formatDiagnostic(diagnostic)}`);
    if (catalog.shortened.length > 0) {
      log(`skills: catalog over budget, descriptions shortened: ${catalog.shortened.join(", ")}`);
    }
    if (catalog.nameOnly.length > 0) log(`skills: listed by name only: ${catalog.nameOnly.join(", ")}`);
  }
  const live = new LiveSkills(discovery.skills, () => scan().discovery);
  const skills = () => live.all();
  const projectRoot = findProjectRoot(basics.cwd);

  // Loaded = whole in the history. After a replacement (resume, compaction, clear) that is
  // read again from the messages' meta: a body summarised away or cut may be loaded again,
  // and the folders of resumed skills stay readable.
  const loaded = new LoadedSkills();
  const readLoaded = (messages: readonly Message[]) => {
    loaded.clear();
    for (const { name } of findLoadedSkills(messages)) {
      const skill = skills().find((s) => s.name === name);
      if (!skill) continue;
      loaded.add(name);
      if (!skill.remote) workspace.allowRead(skill.dir);
    }
  };
  readLoaded(basics.conversation.messages);
  // Active = loaded since the last prompt the user typed: their allowed-tools and
  // disallowed-tools hold for the permission check until then.
  const active = new ActiveSkills(skills);
  const unfollowActive = basics.conversation.subscribe(active.follow);
  const trust = options.folderTrust ?? { trusted: false, source: "none", key: trustKey(basics.cwd) };
  const runtime: SkillRuntime = {
    log,
    // The user's own skills always; the project's only in a trusted folder.
    fileTrusted: (file) => projectFileTrusted(file, trust),
    howToTrust: howToTrust(trust),
    ...options.runtime,
  };
  const grants = (name: string): boolean => {
    const skill = skills().find((s) => s.name === name);
    return skill !== undefined && !skill.remote && projectFileTrusted(skill.file, trust);
  };
  const scopedRules = (): ScopedPermissionRules => {
    const { allow, deny } = active.rules();
    const held = (r: { rule: string; skill: string }) => ({ rule: r.rule, source: `the skill ${r.skill}` });
    return { allow: allow.filter((r) => grants(r.skill)).map(held), deny: deny.map(held) };
  };
  const ungranted = discovery.skills.filter((s) => s.allowedTools.length > 0 && !s.remote && !grants(s.name));
  if (ungranted.length > 0) {
    log(
      `warning: this folder is not trusted, so the allowed-tools of its skill${ungranted.length > 1 ? "s" : ""} ${ungranted.map((s) => s.name).join(", ")} are ignored (their calls are asked as usual). To honour them, ${howToTrust(trust)}.`,
    );
  }
  const unsubscribe = basics.conversation.subscribe((change) => {
    if (change.type === "replace") readLoaded(change.messages);
  });

  const reload = (why: string): RescanResult => {
    const result = live.rescan();
    if (!result.ok) {
      log(`warning: skills: rescanning failed (${result.error}); keeping the skills found before`);
      return result;
    }
    watcher?.sync(localDirs(live.all()));
    if (basics.verbose && result.changes.length > 0)
      log(`skills: ${why}: ${result.changes.map((c) => `${c.kind} ${c.name}`).join(", ")}`);
    return result;
  };
  const watcher =
    !options.watch || basics.settings.skills?.watch === false
      ? undefined
      : new SkillWatcher({
          roots: skillRoots({ cwd: basics.cwd, extraPaths: basics.settings.skills?.paths }).map((r) => r.dir),
          skillDirs: localDirs(live.all()),
          stopAt: (root) => watchStop(root, projectRoot),
          onChange: () => reload("changed on disk"),
        });

  // The body handed out is the file's current one; later changes are measured from it.
  const deliver = (skill: Skill): Skill => {
    const current = fresh(skill);
    live.noteDelivered(current);
    return current;
  };

  // load_skill goes with the first request that has a skill to load: at once, or (a new
  // folder on disk, a conditional skill's paths touched) as a late tool when one appears.
  const loadSkill = createLoadSkillTool({
    skills,
    loaded,
    read: deliver,
    fork: runtime.fork
      ? (skill, task, ctx) =>
          runForkedSkill(skill, task, runtime, { id: ctx.callId, emit: ctx.emit, signal: ctx.signal })
      : undefined,
  });
  const modelVisible = () => skills().some((s) => !s.disableModelInvocation);
  const offeredAtStart = modelVisible();
  let offerLate: ((tools: Tool[]) => void) | undefined;
  const lateTools = offeredAtStart
    ? undefined
    : new Promise<Tool[]>((resolve) => {
        offerLate = resolve;
      });

  const announcer: LoopExtension = {
    name: "skills-announcer",
    async beforeModelCall(state) {
      if (await options.refreshRemote?.()) reload("an MCP server finished starting");
      if (offerLate && modelVisible()) {
        offerLate([loadSkill]);
        offerLate = undefined;
      }
      const last = state.conversation.messages.at(-1);
      if (last?.role !== "tool" && last?.role !== "user") return; // never between a call and its result
      watcher?.flush();
      const changes = live.takeAnnouncement(loaded);
      if (changes.length > 0)
        state.conversation.append(userMessage(announcementText(changes), { kind: "announcement" }));
    },
    afterToolCall(prepared) {
      const { tool } = prepared;
      if (tool.effect !== "read" && tool.effect !== "write") return undefined;
      if (live.conditional().length === 0) return undefined;
      const subject = tool.ruleSubject?.(prepared.args as never, workspace);
      if (subject === undefined) return undefined;
      const relative = path.relative(projectRoot, path.resolve(workspace.root, subject));
      if (!relative.startsWith("..") && !path.isAbsolute(relative))
        live.touch(relative.split(path.sep).join("/"));
      return undefined;
    },
  };

  const promptFilter: PromptFilter = async (prompt, run) => {
    const slash = parseSlashPrompt(prompt);
    const named = slash && skills().find((s) => s.name === slash.name);
    if (named && !named.userInvocable) {
      return {
        refuse: `/${named.name} is not for the user to invoke (its SKILL.md says user-invocable: false); the model loads it when a task needs it.`,
      };
    }
    if (!named || !slash) return { prompt };
    let current = deliver(named);
    if (current.remote) {
      const fetched = await current.remote.fetchBody();
      if ("error" in fetched) return { refuse: `/${named.name}: ${fetched.error}` };
      current = { ...current, body: fetched.body };
    }
    // The arguments first, then the `!`cmd`` lines (a command may use an argument).
    const withArguments = substituteArguments(current.body, slash.args, current.argumentNames);
    current = { ...current, body: await runSkillShellLines(current, withArguments.text, runtime, run) };
    if (!current.remote) workspace.allowRead(current.dir);
    if (current.fork && runtime.fork) {
      const answer = await runForkedSkill(current, slash.args, runtime, {
        id: `skill_${current.name}_${Date.now().toString(36)}`,
        emit: run.emit,
        signal: run.signal ?? new AbortController().signal,
      });
      const how = answer.isError ? "failed" : "answered";
      return {
        prompt: `The user invoked the skill /${current.name}${slash.args ? ` with: ${slash.args}` : ""}. It ran in a subagent (context: fork), which ${how}:\n\n${answer.content}\n\nTell the user the outcome.`,
      };
    }
    const invocation = expandSkillInvocation(prompt, [current], loaded, {
      substituted: withArguments.substituted,
    });
    if (!invocation) return { prompt };
    const model = await skillModel(current, runtime);
    const onModel = model ? { model } : {};
    // The body typed in as /name obeys the size rule of a load_skill result.
    const { span } = invocation;
    const body = invocation.text.slice(span.start, span.end);
    const fitted = fitSkillToWindow(body, {
      skill: span.name,
      window: options.contextWindow,
      workspaceRoot: workspace.root,
      id: `skill-${span.name}-${new Date().toISOString().replace(/[:.]/g, "-")}`,
    });
    if (!fitted) return { prompt: invocation.text, meta: { skills: [span] }, ...onModel };
    log(`warning: ${fitted.notice}`);
    return {
      prompt: `${fitted.content}${invocation.text.slice(span.end)}`,
      meta: { skills: [{ ...span, end: span.start + fitted.content.length }] },
      ...onModel,
    };
  };
  const listCommand: SlashCommand = {
    name: "skills",
    usage: "/skills",
    description: "the skills the model can load (type /<name> to invoke one)",
    run(_args, io) {
      const all = skills();
      if (all.length === 0) {
        io.print("No skills found. Add one with: hx skills new NAME");
        return;
      }
      for (const skill of all) {
        if (!skill.userInvocable) continue;
        const hint = skill.argumentHint ? ` ${skill.argumentHint}` : "";
        io.print(`  /${skill.name}${hint}  ${firstLine(skill.description)}`);
      }
      const modelOnly = all.filter((s) => !s.userInvocable).map((s) => s.name);
      if (modelOnly.length > 0) io.print(`Loaded by the model only: ${modelOnly.join(", ")}`);
      const waiting = live.conditional().map((s) => `${s.name} (${s.paths.join(", ")})`);
      if (waiting.length > 0) io.print(`Waiting for a matching file: ${waiting.join("; ")}`);
      const budget = budgetNote(catalog);
      if (budget) io.print(budget);
    },
  };
  const reloadCommand: SlashCommand = {
    name: "reload-skills",
    usage: "/reload-skills",
    description: "scan the skill folders again; the model is told what changed",
    run(_args, io) {
      const result = reload("reloaded");
      if (!result.ok) io.print(`Rescanning failed (${result.error}); the skills found before stay.`);
      else if (result.changes.length === 0) io.print("No skill changed.");
      else for (const change of result.changes) io.print(`  ${change.kind}: ${change.name}`);
    },
  };
  return {
    name: "skills",
    // load_skill only while a skill may be loaded: its schema would cost every request.
    tools: offeredAtStart ? [loadSkill] : [],
    lateTools,
    extensions: [
      announcer,
      skillHooksExtension(
        () => active.names().flatMap((name) => skills().filter((s) => s.name === name)),
        runtime,
      ),
    ],
    diagnostics: first.remoteDiagnostics,
    promptFilters: [promptFilter],
    promptSections: [catalog.text],
    commands: [listCommand, reloadCommand],
    close() {
      watcher?.close();
      unfollowActive();
      unsubscribe();
    },
    skills,
    invocable: () =>
      skills()
        .filter((s) => s.userInvocable)
        .map((s) => ({
          name: s.name,
          description: s.description,
          ...(s.argumentHint ? { argumentHint: s.argumentHint } : {}),
        })),
    live,
    scopedRules,
    loaded,
    catalog: catalog.text,
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

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
