// The work behind `hx skills ...`, loaded only when such a command runs.
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { formatDiagnostic } from "../core/diagnostic.js";
import { starterTriggers, TRIGGERS_FILE } from "../skills/eval/index.js";
import {
  budgetNote,
  type DiscoveryResult,
  discoverSkillsView,
  findProjectRoot,
  loadSkillsFromRoots,
  type SkillCatalog,
  type SkillsView,
} from "../skills/index.js";
import { installTarget, lockedCopies } from "../skills/install/index.js";

export { findProjectRoot };

import type { Skill } from "../skills/index.js";
import {
  findSkillByName,
  findSkillFile,
  listSkillFiles,
  type SkillValidation,
  unknownSkillMessage,
  unusableNameReason,
  validateName,
  validateSkillPath,
} from "../skills/index.js";
import { resolveRun } from "./prepare-run.js";
import type { RunFlags } from "./run-config.js";
import { VERSION } from "./version.js";

export interface SkillsCommandDeps {
  /** The working directory when no -C/--cwd is given (default process.cwd()). */
  getCwd?: () => string;
  /** Defaults to os.homedir() (tests set HOME). */
  homeDir?: string;
  out?: (text: string) => void;
  err?: (text: string) => void;
  /** Receives 0 ok, 1 failure, 2 usage error (default: sets process.exitCode). */
  setExitCode?: (code: number) => void;
}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  exit: (code: number) => void;
}

/**
 * Discovery and catalog exactly as a session started in `cwd` would build them: the same
 * settings (see resolveRun), and the catalog budget from the same context window (flag >
 * HX_CONTEXT_WINDOW > settings > the configured model, or its provider's default model).
 */
export async function discoverAll(
  cwd: string,
  options: Pick<RunFlags, "provider" | "model" | "contextWindow"> & {
    homeDir?: string;
    /** Also the skills the configured MCP servers offer (`hx skills list --mcp`): they are started. */
    mcp?: boolean;
  } = {},
): Promise<SkillsView> {
  const { homeDir, mcp, ...flags } = options;
  const resolved = await resolveRun({ ...flags, cwd });
  const { settings, contextWindow, contextWindowKnown } = resolved;
  return discoverSkillsView({
    cwd,
    settings: settings.merged,
    contextWindow,
    windowKnown: contextWindowKnown,
    homeDir,
    remote: mcp ? await mcpServerSkills(resolved) : undefined,
  });
}

/**
 * The skills the configured MCP servers offer, as a session lists them: the servers that may
 * start (the user's own, approved project ones) are started, asked for `skills/list` and
 * stopped again.
 */
async function mcpServerSkills(resolved: Awaited<ReturnType<typeof resolveRun>>): Promise<Skill[]> {
  const { startMcp } = await import("../mcp/start.js");
  const { MCP_DEFAULTS } = await import("../mcp/launch.js");
  const warn = (line: string) => process.stderr.write(`${line}\n`);
  const setup = await startMcp({
    cwd: resolved.cwd,
    settings: resolved.settings,
    contextWindow: resolved.contextWindow,
    clientVersion: VERSION,
    log: warn,
    verbose: false,
    sandboxMode: resolved.config.sandboxMode,
  });
  if (!setup) return [];
  try {
    // A listing waits for the servers (as hx mcp list does), not only the first request's while.
    await setup.manager.waitForStart(MCP_DEFAULTS.startupTimeoutMs);
    const { listMcpSkills } = await import("../mcp/skills.js");
    const listed = await listMcpSkills(setup.manager.connections(), MCP_DEFAULTS.skillsListMs);
    for (const diagnostic of listed.diagnostics) warn(`warning: ${formatDiagnostic(diagnostic)}`);
    return listed.skills;
  } finally {
    await setup.close();
  }
}

/** Skills a lock lists (project and user locks, either tool's entries), by the folder of their copy. */
export interface InstalledInfo {
  source: string;
  ref?: string;
  /** The files no longer match the hash recorded at install. */
  modified: boolean;
}

/** The locked skills by copy; `warn` gets one line per lock entry that cannot be read. */
export function installedSkills(
  cwd: string,
  homeDir?: string,
  warn: (line: string) => void = () => {},
): Map<string, InstalledInfo> {
  const found = new Map<string, InstalledInfo>();
  for (const global of [false, true]) {
    const target = installTarget({ projectRoot: findProjectRoot(cwd), global, homeDir });
    const { copies, warnings } = lockedCopies(target);
    for (const line of warnings) warn(line);
    for (const copy of copies) {
      if (!copy.dir) continue;
      found.set(copy.dir, {
        source: copy.source ?? "unknown",
        ...(copy.commit ? { ref: copy.commit } : {}),
        modified: copy.modified,
      });
    }
  }
  return found;
}

export function listSkills(
  discovery: DiscoveryResult,
  catalog: SkillCatalog,
  json: boolean,
  io: Io,
  installed: ReadonlyMap<string, InstalledInfo> = new Map(),
): number {
  const shortened = new Set(catalog.shortened);
  const nameOnly = new Set(catalog.nameOnly);
  const rows = discovery.skills.map((skill) => ({
    name: skill.name,
    description: skill.description,
    path: skill.file,
    source: skill.source,
    warnings: skill.warnings,
    inCatalog: !skill.disableModelInvocation && skill.paths.length === 0,
    userInvocable: skill.userInvocable,
    ...(skill.argumentHint ? { argumentHint: skill.argumentHint } : {}),
    ...(skill.paths.length > 0 ? { paths: skill.paths } : {}),
    catalog: nameOnly.has(skill.name) ? "name-only" : shortened.has(skill.name) ? "shortened" : "full",
    ...(installed.has(skill.dir) ? { installed: installed.get(skill.dir) } : {}),
  }));
  if (json) {
    io.out(`${JSON.stringify({ skills: rows, diagnostics: discovery.diagnostics }, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    io.out("No skills found. Add one with `hx skills new NAME` (it goes to .agents/skills/NAME/SKILL.md).\n");
  }
  for (const row of rows) {
    const notes: string[] = [row.source];
    if (row.paths) notes.push(`conditional: ${row.paths.join(", ")}`);
    else if (!row.inCatalog) notes.push("user-invocable only");
    if (!row.userInvocable) notes.push("model-invocable only");
    if (row.catalog !== "full") notes.push(`${row.catalog} in catalog`);
    if (row.installed?.modified) notes.push("modified since installed");
    io.out(`${row.name}  (${notes.join(", ")})\n  ${oneLine(row.description)}\n  ${row.path}\n`);
    for (const warning of row.warnings) io.out(`  warning: ${warning}\n`);
  }
  const budget = budgetNote(catalog);
  if (budget) io.out(`\n${budget}\n`);
  const shadowed = discovery.diagnostics.filter((d) => d.code === "skill.shadowed");
  for (const diagnostic of shadowed) io.out(`note: ${formatDiagnostic(diagnostic)}\n`);
  // Skipped files and limits hit (frontmatter warnings are shown under their skill above).
  const other = discovery.diagnostics.filter(
    (d) => d.code !== "skill.shadowed" && d.code !== "skill.frontmatter",
  );
  for (const diagnostic of other) {
    const file =
      diagnostic.file && /\p{Cc}/u.test(diagnostic.file) ? JSON.stringify(diagnostic.file) : diagnostic.file;
    io.out(`${diagnostic.level}: ${formatDiagnostic({ ...diagnostic, file })}\n`);
  }
  return 0;
}

export function showSkill(skills: readonly Skill[], name: string, io: Io): number {
  const skill = findSkillByName(skills, name.trim());
  if (!skill) {
    io.err(`hx: ${unknownSkillMessage(name, skills)}\n`);
    return 1;
  }
  io.out(`# ${skill.name} (${skill.source})\n${skill.file}\n\n${skill.body}\n`);
  const { files, more } = listSkillFiles(skill, 200);
  if (files.length > 0) {
    io.out(`\nFiles in ${skill.dir}:\n${files.map((f) => `  ${f}\n`).join("")}`);
    if (more > 0) io.out(`  … and ${more} more\n`);
  }
  return 0;
}

/** A SKILL.md, a skill folder, or a folder of skills (searched like a skill root). */
export function expandValidationTargets(paths: string[]): string[] {
  const targets: string[] = [];
  for (const target of paths) {
    let isDir = false;
    try {
      isDir = statSync(target).isDirectory();
    } catch {
      targets.push(target); // reported as "Path does not exist"
      continue;
    }
    if (!isDir || findSkillFile(target)) {
      targets.push(target);
      continue;
    }
    const found = loadSkillsFromRoots([{ dir: target, source: "settings" }]);
    const files = found.skills.map((s) => s.file);
    // Skills shadowed by a same-named one still deserve a verdict.
    for (const diagnostic of found.diagnostics)
      if (diagnostic.code === "skill.shadowed" && diagnostic.file) files.push(diagnostic.file);
    targets.push(...(files.length > 0 ? files.sort() : [target]));
  }
  return targets;
}

export function validateSkills(
  targets: string[],
  options: { json?: boolean; strict?: boolean },
  io: Io,
): number {
  const json = options.json === true;
  const results: SkillValidation[] = targets.map((t) => validateSkillPath(t, { strict: options.strict }));
  if (json) {
    io.out(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    if (results.length === 0) io.out("No skills to validate.\n");
    for (const result of results) {
      // A name that could break the line (a newline, an escape) is shown escaped, here and
      // where the reference's messages quote it.
      const shown = unusableNameReason(result.name) ? JSON.stringify(result.name).slice(1, -1) : result.name;
      const escapeName = (text: string) =>
        shown === result.name ? text : text.split(result.name).join(shown);
      io.out(`${result.valid ? "ok     " : "INVALID"} ${shown}  ${result.path}\n`);
      for (const diagnostic of result.diagnostics)
        io.out(`  ${diagnostic.level}: ${indent(escapeName(diagnostic.message))}\n`);
    }
    const invalid = results.filter((r) => !r.valid).length;
    if (results.length > 0) io.out(`\n${results.length - invalid} valid, ${invalid} invalid\n`);
  }
  return results.every((r) => r.valid) ? 0 : 1;
}

export function newSkill(projectRoot: string, name: string, io: Io): number {
  const problems = validateName(name, undefined);
  if (problems.length > 0 || name !== name.trim() || /[^a-z0-9-]/.test(name)) {
    const rule =
      "a skill name is 1-64 lowercase letters, digits and single hyphens, not starting or ending with '-'";
    io.err(
      `hx: invalid skill name '${name}': ${problems.length > 0 ? problems.map((p) => p.replace(/\.$/, "")).join("; ") : "use ASCII"}. Rule: ${rule}.\n`,
    );
    return 2;
  }
  const dir = path.join(projectRoot, ".agents", "skills", name);
  const file = path.join(dir, "SKILL.md");
  if (existsSync(file)) {
    io.err(`hx: ${file} already exists; edit it or pick another name.\n`);
    return 1;
  }
  mkdirSync(path.join(dir, "evals"), { recursive: true });
  writeFileSync(file, scaffold(name));
  const triggers = path.join(dir, TRIGGERS_FILE);
  writeFileSync(triggers, starterTriggers(name));
  io.out(
    `Created ${file}\nCreated ${triggers} (queries that should and should not load it)\nEdit the description (what it does AND when to use it), then run: hx skills validate ${dir}\nReplace the TODO queries, then measure the description: hx skills eval ${name}\n`,
  );
  return 0;
}

export function scaffold(name: string): string {
  return `---
name: ${name}
description: TODO say what this skill does and when to use it, e.g. "Drafts release notes from merged PRs. Use when the user asks for release notes or a changelog entry."
---

# ${name}

## When to use
- TODO the tasks or phrases that should make the agent load this skill.

## Steps
1. TODO the first thing to do.
2. TODO how to check the result.

## References
Put long material in references/ next to this file and say here when to read it.
`;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

function indent(text: string): string {
  return text.replace(/\n/g, "\n    ");
}
