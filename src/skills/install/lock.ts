import { createHash } from "node:crypto";
import { type Dirent, mkdirSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../../fs/atomic-write.js";
import { readSmallFileSync } from "../../fs/regular-file.js";

export const LOCK_FILE = "skills-lock.json";
const MAX_LOCK_BYTES = 4 * 1024 * 1024;

/** Where an installed skill came from and what its files were when it was installed. */
export interface LockedSkill {
  /** A git URL or an absolute folder, as fetched. */
  source: string;
  sourceType: "git" | "local";
  /** The skill's folder inside the source ("" = the source itself). */
  path: string;
  /** The commit installed (git), or undefined for a folder that is not in a repository. */
  ref?: string;
  /** The branch or tag asked for with --ref (update follows it); undefined = the default branch. */
  requestedRef?: string;
  /** `sha256:` over the skill's files (see digestSkillFolder). */
  digest: string;
  installedAt: string;
}

export interface SkillsLock {
  version: 1;
  skills: Record<string, LockedSkill>;
}

export type LockRead = { ok: true; lock: SkillsLock } | { ok: false; error: string };

/** The lock next to a skills folder: `<project>/skills-lock.json` or `~/.agents/skills-lock.json`. */
export function readLock(file: string): LockRead {
  const read = readSmallFileSync(file, MAX_LOCK_BYTES);
  if (!read.ok) {
    if (read.reason === "missing") return { ok: true, lock: { version: 1, skills: {} } };
    return { ok: false, error: `${file} ${read.message}` };
  }
  try {
    const data = JSON.parse(read.text) as SkillsLock;
    if (
      data?.version !== 1 ||
      typeof data.skills !== "object" ||
      data.skills === null ||
      Array.isArray(data.skills)
    )
      return { ok: false, error: `${file}: not a skills lock (expected {"version": 1, "skills": {...}})` };
    return { ok: true, lock: data };
  } catch (error) {
    return { ok: false, error: `${file} is not valid JSON (${(error as Error).message}); fix or delete it` };
  }
}

/** Written with sorted names, so the file diffs cleanly in review. */
export async function writeLock(file: string, lock: SkillsLock): Promise<void> {
  const skills = Object.fromEntries(
    Object.entries(lock.skills).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  mkdirSync(path.dirname(file), { recursive: true });
  const target = path.join(realpathSync(path.dirname(file)), path.basename(file));
  await writeFileAtomic(target, `${JSON.stringify({ version: 1, skills }, null, 2)}\n`, {
    allowed: () => true,
  });
}

/**
 * A digest of a skill folder's content: every regular file (symlinks and `.git` skipped), by
 * relative path in code-unit order, its path and bytes. Same files, same digest, anywhere.
 */
export function digestSkillFolder(dir: string): string {
  const hash = createHash("sha256");
  for (const relative of listFiles(dir)) {
    const bytes = readFileSync(path.join(dir, relative));
    hash.update(`${relative}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return `sha256:${hash.digest("hex")}`;
}

/** Regular files below `dir`, relative, sorted; symlinks and `.git` are left out. */
export function listFiles(dir: string): string[] {
  const files: string[] = [];
  const visit = (folder: string, rel: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === ".git") continue;
      const relative = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) visit(path.join(folder, entry.name), relative);
      else if (entry.isFile()) files.push(relative);
    }
  };
  visit(dir, "");
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
