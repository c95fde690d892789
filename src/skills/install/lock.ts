import { createHash } from "node:crypto";
import { type Dirent, mkdirSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../../fs/atomic-write.js";
import { readSmallFileSync } from "../../fs/regular-file.js";

export const LOCK_FILE = "skills-lock.json";
const MAX_LOCK_BYTES = 4 * 1024 * 1024;

/**
 * One entry of `skills-lock.json`, in the format the `skills` npm CLI (1.5.18) writes and reads,
 * with hx's own fields beside its fields. Either tool reads the other's entries: the `skills`
 * fields say where the skill came from and what its files were; hx's say where the copy went.
 */
export interface LockedSkill {
  /** `skills`: `owner/repo` (github), the URL (git), the absolute folder (local). */
  source: string;
  /** `skills`: `github`, `git`, `gitlab`, `local`, `node_modules`, `well-known`. */
  sourceType: string;
  /** `skills`: the clone URL, written for `git` sources. */
  sourceUrl?: string;
  /** `skills`: the branch or tag asked for (update follows it); absent = the default branch. */
  ref?: string;
  /** `skills`: the skill's SKILL.md inside the source, e.g. `skills/pdf/SKILL.md`. */
  skillPath?: string;
  /** `skills`: sha-256 over the skill folder's files, as `skillFolderHash` computes it. */
  computedHash: string;
  /** hx: the commit installed (git sources, or a local folder inside a repository). */
  commit?: string;
  /** hx: the folder the copy was put in, relative to the lock's folder (`.agents/skills/pdf`). */
  installedTo?: string;
  /** hx: when it was installed. */
  installedAt?: string;
}

/**
 * An entry as hx uses it, from either tool's format (or hx's own before round three: `path`,
 * `digest`, `ref` = the commit, `requestedRef` = the branch).
 */
export interface LockView {
  name: string;
  /** The source's kind, as the entry says (hx can fetch `github`, `git`, `gitlab`, `local`). */
  sourceType: string;
  /** Where to fetch from: a URL or an absolute folder; undefined when the entry does not say. */
  fetchFrom?: string;
  ref?: string;
  /** The skill's folder inside the source, "" = the source itself; undefined = not recorded. */
  folder?: string;
  /** How to tell an edited copy: the `skills` hash, or hx's old digest. */
  hash?: { kind: "computed" | "digest"; value: string };
  commit?: string;
  installedTo?: string;
  /** The entry as written, kept when hx rewrites the lock for another skill. */
  raw: Record<string, unknown>;
}

export interface SkillsLock {
  version: number;
  /** Entries as written: hx rewrites only the ones it installs, so foreign fields survive. */
  skills: Record<string, unknown>;
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
      typeof data?.version !== "number" ||
      data.version < 1 ||
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

/**
 * Reads one entry of either tool's format. Undefined, with the reason, for an entry hx cannot
 * use at all (not an object, no source); fields hx does not know are kept in `raw`.
 */
export function viewEntry(name: string, entry: unknown): { view?: LockView; problem?: string } {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry))
    return { problem: `the entry for '${name}' is not an object` };
  const raw = entry as Record<string, unknown>;
  const text = (key: string) =>
    typeof raw[key] === "string" && raw[key] !== "" ? (raw[key] as string) : undefined;
  const sourceType = text("sourceType") ?? "unknown";
  const source = text("source");
  if ("digest" in raw && "path" in raw) {
    // hx before round three.
    return {
      view: {
        name,
        sourceType,
        fetchFrom: source,
        ref: text("requestedRef"),
        folder: typeof raw.path === "string" ? raw.path : undefined,
        hash: text("digest") ? { kind: "digest", value: text("digest")! } : undefined,
        commit: text("ref"),
        raw,
      },
    };
  }
  const skillPath = text("skillPath");
  const fetchFrom =
    sourceType === "github" && source && /^[\w.-]+\/[\w.-]+$/.test(source)
      ? `https://github.com/${source.replace(/\.git$/, "")}.git`
      : sourceType === "gitlab" && source && !source.includes(":")
        ? `https://gitlab.com/${source}.git`
        : (text("sourceUrl") ?? source);
  return {
    view: {
      name,
      sourceType,
      fetchFrom,
      ref: text("ref"),
      folder: skillPath === undefined ? undefined : folderOfSkillPath(skillPath),
      hash: text("computedHash") ? { kind: "computed", value: text("computedHash")! } : undefined,
      commit: text("commit"),
      installedTo: text("installedTo"),
      raw,
    },
  };
}

/** `skills/pdf/SKILL.md` → `skills/pdf`; `SKILL.md` → "". */
function folderOfSkillPath(skillPath: string): string {
  return skillPath.replace(/(^|\/)SKILL\.md$/, "").replace(/\/$/, "");
}

/** Written with sorted names, as the `skills` CLI writes it, so the file diffs cleanly in review. */
export async function writeLock(file: string, lock: SkillsLock): Promise<void> {
  const skills = Object.fromEntries(
    Object.entries(lock.skills).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  mkdirSync(path.dirname(file), { recursive: true });
  const target = path.join(realpathSync(path.dirname(file)), path.basename(file));
  await writeFileAtomic(target, `${JSON.stringify({ version: lock.version, skills }, null, 2)}\n`, {
    allowed: () => true,
  });
}

/**
 * The `skills` CLI's `computeSkillFolderHash`: every regular file below the folder (`.git` and
 * `node_modules` skipped, symlinks not followed), sorted by relative path with `localeCompare`,
 * each path then its bytes fed to one sha-256; lowercase hex, no prefix.
 */
export function computeSkillFolderHash(dir: string): string {
  const files: string[] = [];
  const visit = (folder: string, rel: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const relative = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name === ".git" || entry.name === "node_modules") continue;
        visit(path.join(folder, entry.name), relative);
      } else if (entry.isFile()) files.push(relative);
    }
  };
  visit(dir, "");
  files.sort((a, b) => a.localeCompare(b));
  const hash = createHash("sha256");
  for (const relative of files) {
    hash.update(relative);
    hash.update(readFileSync(path.join(dir, relative)));
  }
  return hash.digest("hex");
}

/** hx's digest before round three (`sha256:` over path, length and bytes), to read old entries. */
function digestSkillFolder(dir: string): string {
  const hash = createHash("sha256");
  for (const relative of listFiles(dir)) {
    const bytes = readFileSync(path.join(dir, relative));
    hash.update(`${relative}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return `sha256:${hash.digest("hex")}`;
}

/** Whether the folder's files still match the entry's hash (true when the entry has none). */
export function matchesHash(dir: string, view: LockView): boolean {
  if (!view.hash) return true;
  const now = view.hash.kind === "computed" ? computeSkillFolderHash(dir) : digestSkillFolder(dir);
  return now === view.hash.value;
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
