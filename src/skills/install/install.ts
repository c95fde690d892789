import { cpSync, existsSync, lstatSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Diagnostic } from "../../core/diagnostic.js";
import { loadSkillsFromRoots } from "../discover.js";
import type { Skill } from "../types.js";
import { validateSkillPath } from "../validate.js";
import { fetchSource, resolveSource, type SkillSourceSpec } from "./fetch.js";
import {
  digestSkillFolder,
  LOCK_FILE,
  type LockedSkill,
  listFiles,
  readLock,
  type SkillsLock,
  writeLock,
} from "./lock.js";

/** Where installed skills go: the project's `.agents/skills` or the user's `~/.agents/skills`. */
export interface InstallTarget {
  /** The folder skills are copied into. */
  skillsDir: string;
  /** Its lock file. */
  lockFile: string;
}

export function installTarget(options: {
  projectRoot: string;
  global?: boolean;
  homeDir?: string;
}): InstallTarget {
  if (options.global) {
    const agents = path.join(options.homeDir ?? os.homedir(), ".agents");
    return { skillsDir: path.join(agents, "skills"), lockFile: path.join(agents, LOCK_FILE) };
  }
  return {
    skillsDir: path.join(options.projectRoot, ".agents", "skills"),
    lockFile: path.join(options.projectRoot, LOCK_FILE),
  };
}

export interface InstalledSkill {
  name: string;
  dir: string;
  entry: LockedSkill;
  /** Files that could run (scripts/, executables, script extensions): worth a review. */
  scripts: string[];
  /** Symlinks in the source, not copied (a link could point anywhere on this machine). */
  skippedLinks: string[];
  /** The commit replaced (update). */
  previousRef?: string;
}

/** A problem the user can fix: the CLI prints it and exits 1 (2 for bad input). */
export class InstallError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
    this.name = "InstallError";
  }
}

const SCRIPT_EXTENSIONS = /\.(sh|bash|zsh|fish|py|js|mjs|cjs|ts|rb|pl|php|ps1|bat|cmd|exe|bin)$/i;

/**
 * `hx skills add`: fetches the source, finds its skills (all, or those named), validates each,
 * copies it into the target's skills folder and records source, commit and digest in the lock.
 * Nothing is copied when any chosen skill is invalid or would overwrite a skill already there.
 */
export async function addSkills(options: {
  source: string;
  cwd: string;
  target: InstallTarget;
  names?: string[];
  ref?: string;
}): Promise<InstalledSkill[]> {
  const spec = resolveSource(options.source, options.cwd);
  if (!spec) {
    throw new InstallError(
      `'${options.source}' is not a folder, a git URL or owner/repo (e.g. ./my-skills, https://host/repo.git, anthropics/skills)`,
      true,
    );
  }
  const lock = lockOf(options.target);
  const fetched = await fetchSource(spec, options.ref);
  try {
    const chosen = chooseSkills(fetched.dir, options.names ?? [], options.source);
    for (const skill of chosen) {
      const destination = path.join(options.target.skillsDir, skill.name);
      if (existsSync(destination)) {
        const how = lock.skills[skill.name]
          ? `it is installed; run hx skills update ${skill.name}`
          : "a skill you did not install with hx is there; remove or rename it first";
        throw new InstallError(`${destination} already exists: ${how}.`);
      }
    }
    const installed = chosen.map((skill) => copyIn(skill, spec, fetched, options, undefined));
    for (const skill of installed) lock.skills[skill.name] = skill.entry;
    await writeLock(options.target.lockFile, lock);
    return installed;
  } finally {
    fetched.dispose();
  }
}

export interface UpdateResult {
  updated: InstalledSkill[];
  unchanged: string[];
}

/**
 * `hx skills update [NAME...]`: fetches each locked skill's source again (the branch or tag it
 * was added from) and replaces the copy when the content changed. A copy edited since it was
 * installed is left alone unless `force`.
 */
export async function updateSkills(options: {
  target: InstallTarget;
  names?: string[];
  force?: boolean;
}): Promise<UpdateResult> {
  const lock = lockOf(options.target);
  const names = options.names && options.names.length > 0 ? options.names : Object.keys(lock.skills).sort();
  if (names.length === 0)
    throw new InstallError(`no skills installed here (${options.target.lockFile} lists none)`);
  const result: UpdateResult = { updated: [], unchanged: [] };
  for (const name of names) {
    const entry = lock.skills[name];
    if (!entry)
      throw new InstallError(`${name} is not in ${options.target.lockFile}; install it with hx skills add`);
    const destination = path.join(options.target.skillsDir, name);
    if (existsSync(destination) && digestSkillFolder(destination) !== entry.digest && !options.force) {
      throw new InstallError(
        `${name} was changed since it was installed (its files no longer match the digest in ${options.target.lockFile}); update --force replaces your changes`,
      );
    }
    const spec: SkillSourceSpec =
      entry.sourceType === "git" ? { type: "git", url: entry.source } : { type: "local", dir: entry.source };
    const fetched = await fetchSource(spec, entry.requestedRef);
    try {
      const root = path.join(fetched.dir, entry.path);
      const [skill] = chooseSkills(root, [name], entry.source);
      const digest = digestSkillFolder(skill.dir);
      if (digest === entry.digest && existsSync(destination)) {
        result.unchanged.push(name);
        continue;
      }
      const installed = copyIn(
        skill,
        spec,
        fetched,
        { target: options.target, ref: entry.requestedRef, relativeTo: fetched.dir },
        destination,
      );
      installed.previousRef = entry.ref;
      lock.skills[name] = installed.entry;
      result.updated.push(installed);
    } finally {
      fetched.dispose();
    }
  }
  await writeLock(options.target.lockFile, lock);
  return result;
}

/** `hx skills remove NAME`: deletes an installed skill's folder and its lock entry. */
export async function removeSkill(options: { target: InstallTarget; name: string }): Promise<string> {
  const lock = lockOf(options.target);
  const destination = path.join(options.target.skillsDir, options.name);
  if (!lock.skills[options.name]) {
    const there = existsSync(destination)
      ? ` (${destination} was not installed with hx skills add; delete it yourself)`
      : "";
    throw new InstallError(`${options.name} is not in ${options.target.lockFile}${there}`);
  }
  rmSync(destination, { recursive: true, force: true });
  delete lock.skills[options.name];
  await writeLock(options.target.lockFile, lock);
  return destination;
}

/** Installed skills whose files differ from their recorded digest (for `hx skills list`). */
export function modifiedSkills(target: InstallTarget): Set<string> {
  const read = readLock(target.lockFile);
  const modified = new Set<string>();
  if (!read.ok) return modified;
  for (const [name, entry] of Object.entries(read.lock.skills)) {
    const dir = path.join(target.skillsDir, name);
    if (existsSync(dir) && digestSkillFolder(dir) !== entry.digest) modified.add(name);
  }
  return modified;
}

export function lockOf(target: InstallTarget): SkillsLock {
  const read = readLock(target.lockFile);
  if (!read.ok) throw new InstallError(read.error);
  return read.lock;
}

function chooseSkills(root: string, names: readonly string[], source: string): Skill[] {
  const found = loadSkillsFromRoots([{ dir: root, source: "settings" }]).skills;
  if (found.length === 0) throw new InstallError(`${source} holds no skill (no folder with a SKILL.md)`);
  if (names.length === 0) return validated(found);
  return validated(
    names.map((name) => {
      const skill = found.find((s) => s.name === name);
      if (!skill)
        throw new InstallError(
          `${source} has no skill '${name}'. It has: ${found.map((s) => s.name).join(", ")}`,
        );
      return skill;
    }),
  );
}

function validated(skills: Skill[]): Skill[] {
  for (const skill of skills) {
    const verdict = validateSkillPath(skill.dir);
    if (!verdict.valid) {
      const errors = verdict.diagnostics.filter((d: Diagnostic) => d.level === "error").map((d) => d.message);
      throw new InstallError(`${skill.name} is not a valid skill, not installed:\n  ${errors.join("\n  ")}`);
    }
  }
  return skills;
}

function copyIn(
  skill: Skill,
  spec: SkillSourceSpec,
  fetched: { dir: string; ref?: string },
  options: { target: InstallTarget; ref?: string; relativeTo?: string },
  replacing: string | undefined,
): InstalledSkill {
  const destination = replacing ?? path.join(options.target.skillsDir, skill.name);
  mkdirSync(options.target.skillsDir, { recursive: true });
  const skippedLinks: string[] = [];
  const staging = `${destination}.hx-new-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(skill.dir, staging, {
    recursive: true,
    filter: (from) => {
      if (path.basename(from) === ".git") return false;
      if (lstatSync(from).isSymbolicLink()) {
        skippedLinks.push(path.relative(skill.dir, from));
        return false;
      }
      return true;
    },
  });
  if (replacing) rmSync(replacing, { recursive: true, force: true });
  renameSync(staging, destination);
  const entry: LockedSkill = {
    source: spec.type === "git" ? spec.url : spec.dir,
    sourceType: spec.type,
    path: path
      .relative(options.relativeTo ?? fetched.dir, skill.dir)
      .split(path.sep)
      .join("/"),
    ...(fetched.ref ? { ref: fetched.ref } : {}),
    ...(options.ref ? { requestedRef: options.ref } : {}),
    digest: digestSkillFolder(destination),
    installedAt: new Date().toISOString(),
  };
  return { name: skill.name, dir: destination, entry, scripts: scriptsIn(destination), skippedLinks };
}

function scriptsIn(dir: string): string[] {
  return listFiles(dir).filter((relative) => {
    if (relative === "SKILL.md") return false;
    if (relative.startsWith("scripts/") || SCRIPT_EXTENSIONS.test(relative)) return true;
    return (statSync(path.join(dir, relative)).mode & 0o111) !== 0;
  });
}
