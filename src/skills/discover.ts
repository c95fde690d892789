import { type Dirent, existsSync, lstatSync, readdirSync, realpathSync, type Stats, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_SKILL_FOLDERS, USER_SKILL_FOLDERS } from "../config/agent-files.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { errorMessage } from "../core/error-message.js";
import { findProjectRoot, findRepoRoot } from "../fs/project-root.js";
import { readSmallFileSync } from "../fs/regular-file.js";
import { type ParsedSkill, SkillDiscoveryCache } from "./discovery-cache.js";
import { forbidsImplicitInvocation } from "./openai-yaml.js";
import { parseSkillFile } from "./parse.js";
import { SKILL_FILE_NAMES, unusableNameReason } from "./skill-fields.js";
import type { Skill, SkillSource } from "./types.js";

/** A folder searched for skills, in precedence order (earlier wins). */
export interface SkillRoot {
  dir: string;
  source: SkillSource;
}

export interface DiscoverOptions {
  /** The working directory; project skills are searched from here up to the repository root. */
  cwd: string;
  /** `skills.paths` from settings; relative paths resolve from the project root, `~/` from home. */
  extraPaths?: string[];
  /** Defaults to os.homedir() (tests set HOME). */
  homeDir?: string;
  /** Deepest folder level searched below a root (default 8). */
  maxDepth?: number;
  /** Most skills read in one discovery (default 2000). */
  maxSkills?: number;
}

export interface DiscoveryResult {
  /** Sorted by name; one skill per name (the highest-precedence one). */
  skills: Skill[];
  /** Problems worth telling the user (skipped files, shadowed duplicates, limits hit). */
  diagnostics: Diagnostic[];
}

const DEFAULT_MAX_DEPTH = 8;
const DEFAULT_MAX_SKILLS = 2000;
/** Folders never searched: version control and dependencies. Other hidden folders are. */
const SKIPPED_FOLDERS = new Set([".git", "node_modules"]);
/** A larger SKILL.md is skipped (with a diagnostic), never read. */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

export { findProjectRoot, findRepoRoot };

/**
 * Every root in precedence order: project folders from `cwd` up to the repository root,
 * nearest first, `.agents/skills` before `.claude/skills` at each level (outside a repository
 * only `cwd` itself); then `skills.paths`; then `~/.agents/skills` and `~/.hx/skills`.
 */
export function skillRoots(options: DiscoverOptions): SkillRoot[] {
  const home = options.homeDir ?? os.homedir();
  const cwd = path.resolve(options.cwd);
  const stop = findProjectRoot(cwd);
  const roots: SkillRoot[] = [];
  let current = cwd;
  while (true) {
    for (const folder of PROJECT_SKILL_FOLDERS)
      roots.push({ dir: path.join(current, folder), source: "project" });
    const parent = path.dirname(current);
    if (current === stop || parent === current) break;
    current = parent;
  }
  for (const extra of options.extraPaths ?? []) {
    roots.push({ dir: resolveUserPath(extra, stop, home), source: "settings" });
  }
  for (const folder of USER_SKILL_FOLDERS) roots.push({ dir: path.join(home, folder), source: "user" });
  return roots;
}

/**
 * Finds and reads every skill visible from `options.cwd`, with what earlier runs parsed kept
 * in `~/.hx/cache/` (see discovery-cache.ts). Never throws.
 */
export function discoverSkills(options: DiscoverOptions): DiscoveryResult {
  const roots = skillRoots(options);
  const cache = SkillDiscoveryCache.open(
    options.homeDir ?? os.homedir(),
    roots.map((root) => `${root.source}:${root.dir}`),
  );
  const result = loadSkillsFromRoots(roots, {
    maxDepth: options.maxDepth,
    maxSkills: options.maxSkills,
    cache,
  });
  cache.save();
  return result;
}

/**
 * Reads the skills under each root, earlier roots winning name clashes. The same file
 * reached twice (a symlinked root, `.claude/skills` linked to `.agents/skills`) counts once.
 */
export function loadSkillsFromRoots(
  roots: SkillRoot[],
  limits: Pick<DiscoverOptions, "maxDepth" | "maxSkills"> & { cache?: SkillDiscoveryCache } = {},
): DiscoveryResult {
  const walk: WalkState = {
    cache: limits.cache,
    maxDepth: limits.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxSkills: limits.maxSkills ?? DEFAULT_MAX_SKILLS,
    visitedDirs: new Set(),
    found: [],
    diagnostics: [],
    countLimitHit: false,
  };
  for (const root of roots) {
    if (walk.countLimitHit) break;
    if (!existsSync(root.dir)) continue;
    walkRoot(root, walk);
  }

  const byName = new Map<string, Skill>();
  const diagnostics = walk.diagnostics;
  for (const skill of walk.found) {
    const winner = byName.get(skill.name);
    if (winner) {
      diagnostics.push(
        skillWarning(
          "skill.shadowed",
          `skill '${skill.name}' is shadowed by ${winner.file} (${winner.source} precedence); using ${winner.file}.`,
          skill.file,
        ),
      );
      continue;
    }
    byName.set(skill.name, skill);
  }
  const skills = [...byName.values()].sort((a, b) => compareNames(a.name, b.name));
  return { skills, diagnostics };
}

interface WalkState {
  /** What earlier discoveries parsed, by file; absent: every file is read. */
  cache: SkillDiscoveryCache | undefined;
  maxDepth: number;
  maxSkills: number;
  /** Real paths of folders already searched: symlink loops and shared trees end here. */
  visitedDirs: Set<string>;
  found: Skill[];
  diagnostics: Diagnostic[];
  countLimitHit: boolean;
}

function walkRoot(root: SkillRoot, walk: WalkState): void {
  let rootReal: string;
  try {
    rootReal = realpathSync.native(root.dir);
  } catch {
    return;
  }
  let depthLimitHit = false;
  const stack: Array<{ dir: string; real: string; depth: number }> = [
    { dir: root.dir, real: rootReal, depth: 0 },
  ];
  while (stack.length > 0) {
    const { dir, real, depth } = stack.pop()!;
    if (walk.visitedDirs.has(real)) continue;
    walk.visitedDirs.add(real);

    // Most folders under a root are skills: try SKILL.md first, list the folder only if absent.
    const skillFile = joinName(dir, SKILL_FILE_NAMES[0]);
    const direct = (walk.cache && tryCache(skillFile, real, walk.cache)) ?? tryRead(skillFile, real);
    if (direct.kind === "error") {
      walk.diagnostics.push(skillWarning(direct.code, direct.message, skillFile));
      continue;
    }
    let entries: Dirent[] = [];
    if (direct.kind === "absent") {
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch (error) {
        walk.diagnostics.push(
          skillWarning("skill.unreadable", `skipped: cannot list it (${errorCode(error)}).`, dir),
        );
        continue;
      }
    }
    const otherName = SKILL_FILE_NAMES.slice(1).find((n) =>
      entries.some((e) => e.name === n && !e.isDirectory()),
    );
    if (direct.kind === "text" || direct.kind === "cached" || otherName) {
      if (walk.found.length >= walk.maxSkills) {
        walk.countLimitHit = true;
        walk.diagnostics.push(
          skillWarning(
            "skill.limit.count",
            `Stopped after ${walk.maxSkills} skills; the rest (from ${dir} on) were not read. Narrow skills.paths.`,
          ),
        );
        return;
      }
      const file = direct.kind === "absent" ? joinName(dir, otherName!) : skillFile;
      const skill =
        direct.kind === "cached"
          ? fromCache(file, direct.skill, root.source, walk.diagnostics)
          : direct.kind === "text"
            ? toSkill(file, direct.text, root.source, walk.diagnostics, direct.cacheAs)
            : readSkill(file, root.source, walk.diagnostics, real);
      if (skill) walk.found.push(skill);
      continue; // a skill's own folders (references/, scripts/) hold no further skills
    }
    if (depth >= walk.maxDepth) {
      if (!depthLimitHit) {
        walk.diagnostics.push(
          skillWarning(
            "skill.limit.depth",
            `Skills deeper than ${walk.maxDepth} folders below ${root.dir} were not searched.`,
          ),
        );
        depthLimitHit = true;
      }
      continue;
    }
    const children = entries
      .filter((e) => !SKIPPED_FOLDERS.has(e.name))
      .map((e) => childFolder(dir, real, e))
      .filter((c) => c !== undefined)
      .filter((c) => {
        // A project's skills stay in the project: a folder link out of the root is not followed
        // (a plain folder below a folder inside the root is inside it: no check needed).
        if (!c.link || root.source !== "project" || isInsideFolder(c.real, rootReal)) return true;
        walk.diagnostics.push(
          skillWarning("skill.outside", `skipped: it links to ${c.real}, outside ${rootReal}.`, c.dir),
        );
        return false;
      })
      .sort((a, b) => compareNames(b.name, a.name)); // popped in ascending order
    for (const child of children) stack.push({ dir: child.dir, real: child.real, depth: depth + 1 });
  }
}

type ReadAttempt =
  /** `cacheAs`: where the text goes once parsed, with the file's stats from before it was read. */
  | { kind: "text"; text: string; cacheAs?: { cache: SkillDiscoveryCache; stats: Stats } }
  | { kind: "cached"; skill: ParsedSkill }
  | { kind: "absent" }
  | { kind: "error"; code: string; message: string };

/**
 * Reads a SKILL.md only as a regular file of at most MAX_SKILL_FILE_BYTES whose real path
 * stays in its folder: a `SKILL.md -> /etc/passwd` link, a FIFO or a device is skipped with a
 * diagnostic, never opened for reading. `folderReal` is its folder's real path when the caller
 * knows it (the walk does: one realpath per root, not two or three per file).
 */
function tryRead(file: string, folderReal?: string): ReadAttempt {
  const read = readSmallFileSync(
    file,
    MAX_SKILL_FILE_BYTES,
    folderReal === undefined ? { inside: path.dirname(file) } : { insideReal: folderReal },
  );
  if (read.ok) return { kind: "text", text: read.text };
  if (read.reason === "missing" || isDirectory(file)) return { kind: "absent" };
  const code =
    read.reason === "outside"
      ? "skill.outside"
      : read.reason === "too-large"
        ? "skill.too-large"
        : "skill.unreadable";
  return { kind: "error", code, message: `skipped: it ${read.message}.` };
}

/**
 * The skill a cache kept for `file`, when the file has not changed; else the file read as
 * tryRead reads it, to be kept once parsed (its stats taken before the read, so a change
 * while it is read leaves an entry that no longer matches). Undefined: read it as usual.
 */
function tryCache(file: string, folderReal: string, cache: SkillDiscoveryCache): ReadAttempt | undefined {
  let stats: Stats | undefined;
  try {
    stats = lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (stats === undefined) return { kind: "absent" };
  if (!stats.isFile()) return undefined;
  const skill = cache.lookup(file, stats);
  if (skill !== undefined) return { kind: "cached", skill };
  const read = tryRead(file, folderReal);
  return read.kind === "text" ? { ...read, cacheAs: { cache, stats } } : read;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function isInsideFolder(child: string, folder: string): boolean {
  const rel = path.relative(folder, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * `path.join` for a name read from a folder listing (no separator, never `.` or `..`) under a
 * normalized folder: the same string, without normalizing it again (at 1,000 skills the joins
 * cost more than the syscalls around them).
 */
function joinName(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? `${dir}${name}` : `${dir}${path.sep}${name}`;
}

/** A subfolder (or a link to one) with its real path; plain folders need no realpath call. */
function childFolder(parent: string, parentReal: string, entry: Dirent) {
  const dir = joinName(parent, entry.name);
  if (entry.isDirectory())
    return { name: entry.name, dir, real: joinName(parentReal, entry.name), link: false };
  if (!entry.isSymbolicLink()) return undefined;
  try {
    if (!statSync(dir).isDirectory()) return undefined;
    return { name: entry.name, dir, real: realpathSync.native(dir), link: true };
  } catch {
    return undefined; // a broken link
  }
}

/**
 * The skill as its SKILL.md reads now (load_skill always hands out the current body), or
 * undefined when the file is gone, unreadable or names another skill.
 */
export function rereadSkill(skill: Skill): Skill | undefined {
  const again = readSkill(skill.file, skill.source, []);
  return again?.name === skill.name ? again : undefined;
}

/** Reads one SKILL.md; an unreadable file is skipped with a diagnostic. */
function readSkill(
  file: string,
  source: SkillSource,
  diagnostics: Diagnostic[],
  folderReal?: string,
): Skill | undefined {
  const read = tryRead(file, folderReal);
  if (read.kind === "text") return toSkill(file, read.text, source, diagnostics);
  diagnostics.push(
    read.kind === "error"
      ? skillWarning(read.code, read.message, file)
      : skillWarning("skill.unreadable", "skipped: cannot read it (ENOENT).", file),
  );
  return undefined;
}

function toSkill(
  file: string,
  text: string,
  source: SkillSource,
  diagnostics: Diagnostic[],
  cacheAs?: { cache: SkillDiscoveryCache; stats: Stats },
): Skill | undefined {
  const dir = path.dirname(file);
  const { disableModelInvocation, ...parsed } = parseSkillFile(text, path.basename(dir));
  // Neither the frontmatter nor the folder gives a name that is safe in the catalog, a tag and
  // the terminal (the folder name is the fallback, so both failed).
  const unusable = unusableNameReason(parsed.name);
  if (unusable !== undefined) {
    diagnostics.push(
      skillWarning(
        "skill.name.unusable",
        `skipped: its name ${JSON.stringify(parsed.name)} cannot name a skill (${unusable}). Give it a name of letters, digits and hyphens.`,
        file,
      ),
    );
    return undefined;
  }
  const implicitForbidden = !disableModelInvocation && forbidsImplicitInvocation(dir, parsed.warnings);
  const skill: ParsedSkill = {
    ...parsed,
    disableModelInvocation: disableModelInvocation || implicitForbidden,
  };
  cacheAs?.cache.remember(file, cacheAs.stats, skill);
  return fromCache(file, skill, source, diagnostics);
}

/** A parsed skill placed where it was found, its warnings told (as when it was first read). */
function fromCache(file: string, parsed: ParsedSkill, source: SkillSource, diagnostics: Diagnostic[]): Skill {
  for (const warning of parsed.warnings) diagnostics.push(skillWarning("skill.frontmatter", warning, file));
  return { ...parsed, dir: path.dirname(file), file, source };
}

function resolveUserPath(input: string, base: string, home: string): string {
  const trimmed = input.trim();
  if (trimmed === "~") return home;
  if (trimmed.startsWith("~/")) return path.join(home, trimmed.slice(2));
  return path.resolve(base, trimmed);
}

function skillWarning(code: string, message: string, file?: string): Diagnostic {
  return file ? { level: "warning", code, file, message } : { level: "warning", code, message };
}

/** Plain code-unit order: the same on every machine and locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code ?? errorMessage(error);
}
