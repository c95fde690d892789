import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadSkillsFromRoots } from "../discover.js";
import type { Skill } from "../types.js";
import { findSkillFile, validateSkillContent } from "../validate.js";
import { fetchSource, type SkillSourceSpec } from "./fetch.js";
import {
  computeSkillFolderHash,
  LOCK_FILE,
  type LockedSkill,
  type LockView,
  listFiles,
  matchesHash,
  readLock,
  type SkillsLock,
  viewEntry,
  writeLock,
} from "./lock.js";
import { specialFileIn } from "./special-files.js";

/** Where installed skills go: the project's `.agents/skills` or the user's `~/.agents/skills`. */
export interface InstallTarget {
  /** The folder skills are copied into. */
  skillsDir: string;
  /** Its lock file. */
  lockFile: string;
  /**
   * Where a skill the lock names may sit when its entry does not say (the `skills` CLI records
   * no folder): `skillsDir` first, then the other folders agents load from.
   */
  searchDirs: string[];
}

export function installTarget(options: {
  projectRoot: string;
  global?: boolean;
  homeDir?: string;
}): InstallTarget {
  if (options.global) {
    const agents = path.join(options.homeDir ?? os.homedir(), ".agents");
    const skillsDir = path.join(agents, "skills");
    return { skillsDir, lockFile: path.join(agents, LOCK_FILE), searchDirs: [skillsDir] };
  }
  const skillsDir = path.join(options.projectRoot, ".agents", "skills");
  return {
    skillsDir,
    lockFile: path.join(options.projectRoot, LOCK_FILE),
    searchDirs: [skillsDir, path.join(options.projectRoot, ".claude", "skills")],
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

/** A skill of the source that was not installed, and why. */
interface RefusedSkill {
  name: string;
  dir: string;
  reasons: string[];
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

export interface AddResult {
  installed: InstalledSkill[];
  refused: RefusedSkill[];
}

/**
 * `hx skills add`: fetches the source, finds its skills (all, or those named), and installs each
 * valid one: copied into the target's skills folder through a staging folder (removed on any
 * failure), recorded in the lock. Each invalid skill is reported with its reasons; the others
 * are installed anyway. `useName` installs a skill whose folder name differs from its
 * frontmatter name under the frontmatter name.
 */
export async function addSkills(options: {
  spec: SkillSourceSpec;
  source: string;
  target: InstallTarget;
  names?: string[];
  ref?: string;
  useName?: boolean;
}): Promise<AddResult> {
  const lock = lockOf(options.target);
  const fetched = await fetchSource(options.spec, options.ref);
  try {
    const found = skillsIn(fetched.dir, options.names ?? [], options.source);
    const result: AddResult = { installed: [], refused: [] };
    for (const skill of found) {
      const reasons = problemsOf(skill, options.useName === true);
      const destination = path.join(options.target.skillsDir, skill.name);
      if (reasons.length === 0 && existsSync(destination)) {
        reasons.push(
          `${destination} already exists: ${
            lock.skills[skill.name]
              ? `it is installed; run hx skills update ${skill.name}`
              : "a skill you did not install with hx is there; remove or rename it first"
          }`,
        );
      }
      if (reasons.length > 0) {
        result.refused.push({ name: skill.name, dir: skill.dir, reasons });
        continue;
      }
      try {
        const installed = copyIn(skill, options.spec, fetched, {
          target: options.target,
          ref: options.ref,
          destination,
        });
        lock.skills[skill.name] = installed.entry;
        result.installed.push(installed);
      } catch (error) {
        result.refused.push({ name: skill.name, dir: skill.dir, reasons: [(error as Error).message] });
      }
    }
    if (result.installed.length > 0) await writeLock(options.target.lockFile, lock);
    return result;
  } finally {
    fetched.dispose();
  }
}

export interface UpdateResult {
  updated: InstalledSkill[];
  unchanged: string[];
  /** Skills not updated, each with the reason (an edited copy, an entry hx cannot fetch). */
  refused: { name: string; reason: string }[];
}

const FETCHABLE = new Set(["git", "github", "gitlab", "local"]);

/**
 * `hx skills update [NAME...]`: fetches each locked skill's source again (the branch or tag it
 * was added from) and replaces the copy where the lock says it is when the content changed. A
 * copy edited since it was installed is left alone unless `force`, which re-installs every
 * named skill whether or not anything changed.
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
  const result: UpdateResult = { updated: [], unchanged: [], refused: [] };
  for (const name of names) {
    if (!(name in lock.skills))
      throw new InstallError(`${name} is not in ${options.target.lockFile}; install it with hx skills add`);
    const { view, problem } = viewEntry(name, lock.skills[name]);
    const unusable =
      problem ??
      (!view?.fetchFrom
        ? `the entry for '${name}' names no source`
        : !FETCHABLE.has(view.sourceType)
          ? `the entry for '${name}' has sourceType '${view.sourceType}', which hx cannot fetch (update it with the tool that installed it)`
          : undefined);
    if (unusable || !view) {
      result.refused.push({ name, reason: unusable ?? `the entry for '${name}' is unreadable` });
      continue;
    }
    const copy = copiesOf(options.target, view)[0];
    if (copy && !options.force && !matchesHash(copy.dir, view)) {
      result.refused.push({
        name,
        reason: `${name} was changed since it was installed (its files at ${copy.dir} no longer match the hash in ${options.target.lockFile}); update --force replaces your changes`,
      });
      continue;
    }
    const spec: SkillSourceSpec =
      view.sourceType === "local"
        ? { type: "local", dir: view.fetchFrom! }
        : {
            type: "git",
            url: view.fetchFrom!,
            ...(view.sourceType === "github" ? { github: String(view.raw.source) } : {}),
          };
    const fetched = await fetchSource(spec, view.ref);
    try {
      const root = view.folder === undefined ? fetched.dir : path.join(fetched.dir, view.folder);
      const [skill] = skillsIn(root, [name], String(view.raw.source ?? view.fetchFrom));
      const reasons = problemsOf(skill, true);
      if (reasons.length > 0) {
        result.refused.push({ name, reason: `${name} upstream is not a valid skill: ${reasons.join("; ")}` });
        continue;
      }
      if (!options.force && copy && matchesHash(skill.dir, view)) {
        result.unchanged.push(name);
        continue;
      }
      const destination = copy?.dir ?? path.join(options.target.skillsDir, name);
      const installed = copyIn(skill, spec, fetched, {
        target: options.target,
        ref: view.ref,
        destination,
        keep: view.raw,
      });
      installed.previousRef = view.commit;
      lock.skills[name] = installed.entry;
      result.updated.push(installed);
    } catch (error) {
      result.refused.push({ name, reason: (error as Error).message });
    } finally {
      fetched.dispose();
    }
  }
  if (result.updated.length > 0) await writeLock(options.target.lockFile, lock);
  return result;
}

/**
 * `hx skills remove NAME`: deletes the installed copy where the lock says it is (hx's
 * `installedTo`, else the skill's folder in each folder agents load from, links included) and
 * its lock entry. Returns the paths removed (none when no copy was left).
 */
export async function removeSkill(options: { target: InstallTarget; name: string }): Promise<string[]> {
  const lock = lockOf(options.target);
  if (!(options.name in lock.skills)) {
    const there = options.target.searchDirs
      .map((dir) => path.join(dir, options.name))
      .find((dir) => existsSync(dir));
    const note = there ? ` (${there} was not installed with a skills installer; delete it yourself)` : "";
    throw new InstallError(`${options.name} is not in ${options.target.lockFile}${note}`);
  }
  const { view } = viewEntry(options.name, lock.skills[options.name]);
  const removed: string[] = [];
  for (const copy of view ? copiesOf(options.target, view) : []) {
    rmSync(copy.dir, { recursive: true, force: true });
    removed.push(copy.dir);
  }
  delete lock.skills[options.name];
  await writeLock(options.target.lockFile, lock);
  return removed;
}

/** A skill the lock names, where its copy is. */
export interface LockedCopy {
  name: string;
  /** The installed copy, or undefined when none was found. */
  dir?: string;
  source?: string;
  commit?: string;
  /** The files no longer match the hash recorded at install. */
  modified: boolean;
}

/**
 * What a lock lists, for `hx skills list`: each entry with its copy and whether it was edited.
 * An entry hx cannot read is left out with a warning naming it.
 */
export function lockedCopies(target: InstallTarget): { copies: LockedCopy[]; warnings: string[] } {
  const read = readLock(target.lockFile);
  if (!read.ok) return { copies: [], warnings: [read.error] };
  const copies: LockedCopy[] = [];
  const warnings: string[] = [];
  for (const [name, entry] of Object.entries(read.lock.skills)) {
    const { view, problem } = viewEntry(name, entry);
    if (!view) {
      warnings.push(`${target.lockFile}: ${problem}; ignored`);
      continue;
    }
    const copy = copiesOf(target, view).find((c) => !c.link);
    let modified = false;
    try {
      modified = copy !== undefined && !matchesHash(copy.dir, view);
    } catch (error) {
      warnings.push(
        `${target.lockFile}: cannot hash ${copy?.dir} for '${name}': ${(error as Error).message}`,
      );
    }
    copies.push({
      name,
      dir: copy?.dir,
      source: typeof view.raw.source === "string" ? view.raw.source : view.fetchFrom,
      commit: view.commit,
      modified,
    });
  }
  return { copies, warnings };
}

function lockOf(target: InstallTarget): SkillsLock {
  const read = readLock(target.lockFile);
  if (!read.ok) throw new InstallError(read.error);
  return read.lock;
}

/**
 * The copies of a locked skill: the folder hx recorded, or else the skill's folder (by name, and
 * by the `skills` CLI's sanitised name) in each folder agents load from. Links are listed too
 * (the `skills` CLI links agent folders to `.agents/skills`), real folders first.
 */
function copiesOf(target: InstallTarget, view: LockView): { dir: string; link: boolean }[] {
  const base = path.dirname(target.lockFile);
  const candidates = view.installedTo
    ? [path.resolve(base, view.installedTo)]
    : target.searchDirs.flatMap((dir) => [
        ...new Set([path.join(dir, view.name), path.join(dir, sanitizeName(view.name))]),
      ]);
  const copies: { dir: string; link: boolean }[] = [];
  for (const dir of candidates) {
    try {
      const stats = lstatSync(dir);
      if (stats.isSymbolicLink()) {
        if (statSync(dir).isDirectory()) copies.push({ dir, link: true });
      } else if (stats.isDirectory()) copies.push({ dir, link: false });
    } catch {
      // not there
    }
  }
  if (view.installedTo) {
    // The agent folders' links into the recorded copy go with it.
    for (const dir of target.searchDirs.map((d) => path.join(d, view.name))) {
      try {
        if (lstatSync(dir).isSymbolicLink() && realpathSync(dir) === realpathSync(candidates[0]))
          copies.push({ dir, link: true });
      } catch {
        // not there
      }
    }
  }
  return copies.sort((a, b) => Number(a.link) - Number(b.link));
}

/** The `skills` CLI's `sanitizeName`: its folder name for a skill. */
function sanitizeName(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9._]+/g, "-")
      .replace(/^[.-]+|[.-]+$/g, "")
      .substring(0, 255) || "unnamed-skill"
  );
}

/** The skills below `root`: all, or those named (an unknown name is an error). */
function skillsIn(root: string, names: readonly string[], source: string): Skill[] {
  const found = loadSkillsFromRoots([{ dir: root, source: "settings" }]).skills;
  if (found.length === 0) throw new InstallError(`${source} holds no skill (no folder with a SKILL.md)`);
  if (names.length === 0) return found;
  return names.map((name) => {
    const skill = found.find((s) => s.name === name);
    if (!skill)
      throw new InstallError(
        `${source} has no skill '${name}'. It has: ${found.map((s) => s.name).join(", ")}`,
      );
    return skill;
  });
}

/** Why a skill cannot be installed: validation errors, or a file that is not a regular file. */
function problemsOf(skill: Skill, useName: boolean): string[] {
  const special = specialFileIn(skill.dir);
  if (special) return [`${special} is not a regular file or folder; nothing was copied`];
  const file = findSkillFile(skill.dir);
  if (!file) return ["Missing required file: SKILL.md"];
  const folder = path.basename(skill.dir);
  const errors = validateSkillContent(readFileSync(file, "utf8"), useName ? skill.name : folder, file)
    .filter((d) => d.level === "error")
    .map((d) => d.message);
  if (!useName && folder !== skill.name && errors.some((e) => e.startsWith("Directory name")))
    errors.push(`to install it as '${skill.name}' anyway, add --use-name`);
  return errors;
}

function copyIn(
  skill: Skill,
  spec: SkillSourceSpec,
  fetched: { dir: string; ref?: string },
  options: { target: InstallTarget; ref?: string; destination: string; keep?: Record<string, unknown> },
): InstalledSkill {
  const { destination } = options;
  const computedHash = computeSkillFolderHash(skill.dir);
  const { skippedLinks } = copyFolderInto(skill.dir, destination);
  const base = path.dirname(options.target.lockFile);
  const skillPath = path.relative(fetched.dir, path.join(skill.dir, "SKILL.md")).split(path.sep).join("/");
  const { path: _path, digest: _digest, requestedRef: _requested, ...kept } = options.keep ?? {};
  const entry: LockedSkill = {
    ...kept,
    source: spec.type === "local" ? spec.dir : (spec.github ?? spec.url),
    ...(spec.type === "git" && !spec.github ? { sourceUrl: spec.url } : {}),
    ...(options.ref ? { ref: options.ref } : {}),
    sourceType: spec.type === "local" ? "local" : spec.github ? "github" : "git",
    skillPath,
    computedHash,
    ...(fetched.ref ? { commit: fetched.ref } : {}),
    installedTo: path.relative(base, destination).split(path.sep).join("/"),
    installedAt: new Date().toISOString(),
  };
  if (!fetched.ref) delete entry.commit;
  return { name: skill.name, dir: destination, entry, scripts: scriptsIn(destination), skippedLinks };
}

/**
 * Copies `from` to `destination` through a staging folder beside it (renamed into place only
 * when the whole copy worked; removed on any failure): `.git` left out, symlinks not copied
 * (a link could point anywhere on this machine; they are returned), anything that is not a
 * regular file or folder refused. Used for skills and plugins alike.
 */
export function copyFolderInto(from: string, destination: string): { skippedLinks: string[] } {
  mkdirSync(path.dirname(destination), { recursive: true });
  const skippedLinks: string[] = [];
  const staging = `${destination}.hx-new-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    cpSync(from, staging, {
      recursive: true,
      filter: (entry) => {
        if (path.basename(entry) === ".git") return false;
        const stats = lstatSync(entry);
        if (stats.isSymbolicLink()) {
          skippedLinks.push(path.relative(from, entry));
          return false;
        }
        if (!stats.isFile() && !stats.isDirectory())
          throw new InstallError(`${path.relative(from, entry)} is not a regular file or folder`);
        return true;
      },
    });
    rmSync(destination, { recursive: true, force: true });
    renameSync(staging, destination);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return { skippedLinks };
}

/** Files below `dir` that could run (scripts/, executables, script extensions): worth a review. */
export function scriptsIn(dir: string): string[] {
  return listFiles(dir).filter((relative) => {
    if (relative === "SKILL.md") return false;
    if (relative.startsWith("scripts/") || SCRIPT_EXTENSIONS.test(relative)) return true;
    return (statSync(path.join(dir, relative)).mode & 0o111) !== 0;
  });
}
