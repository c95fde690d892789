import { lstatSync, realpathSync, type Stats } from "node:fs";
import path from "node:path";
import { PROTECTED_HOME_FILES, PROTECTED_WORKSPACE_PATTERNS } from "../config/protected-paths.js";

/** One protected path inside a writable folder, as the sandbox must mount it. */
export interface ProtectedEntry {
  /** Absolute path. */
  path: string;
  kind: "dir" | "file";
}

export interface ProtectedMounts {
  /** Paths that exist (real paths): mounted read-only on themselves. */
  existing: string[];
  /**
   * Paths that do not exist yet: the first missing piece of each gets an empty placeholder
   * (made on the host, then mounted read-only) so a command cannot create it.
   */
  missing: ProtectedEntry[];
  /**
   * Folders between a writable root and a protected path (`.git` for `.git/config`): they stay
   * writable but must not be renamed, or a command could move `.git` away and build a new one.
   */
  pinned: string[];
}

/** `.hx/**` → the folder `.hx`; `.mcp.json` → the file. Patterns with other wildcards are the permission check's alone. */
function workspaceEntries(): Array<{ relative: string; kind: "dir" | "file" }> {
  const entries: Array<{ relative: string; kind: "dir" | "file" }> = [];
  for (const pattern of PROTECTED_WORKSPACE_PATTERNS) {
    const kind = pattern.endsWith("/**") ? "dir" : "file";
    const relative = kind === "dir" ? pattern.slice(0, -3) : pattern;
    if (/[*?[\]{}]/.test(relative)) continue;
    entries.push({ relative, kind });
  }
  return entries;
}

function statOf(file: string): Stats | undefined {
  try {
    // No exception for a missing path: every bash call asks about a dozen that are not there.
    return lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function inside(file: string, roots: readonly string[]): boolean {
  return roots.some(
    (root) => file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep),
  );
}

/**
 * The protected paths (src/permissions/protected-paths.ts) that fall inside the writable
 * folders, which the sandbox keeps read-only: in every writable folder `.hx`, `.claude`,
 * `.mcp.json` and `.git/config` and `.git/hooks` (a missing `.git` is kept from being created, a
 * `.git` file, as in a worktree, is itself kept read-only); the shell start-up files and `~/.hx`, `~/.claude` when the
 * home folder is writable. `writableRoots` are real paths.
 */
export function protectedMounts(
  writableRoots: readonly string[],
  home: string,
  /** Stand-ins another sandboxed process holds count as missing (see Placeholders.isStandIn). */
  isStandIn: (file: string) => boolean = () => false,
): ProtectedMounts {
  const existing = new Set<string>();
  const missing = new Map<string, ProtectedEntry>();
  const present = (file: string) => (isStandIn(file) ? undefined : statOf(file));
  const consider = (entry: ProtectedEntry) => {
    const stats = present(entry.path);
    if (stats?.isSymbolicLink()) {
      // Protect what the link points to when a command could write there; the link itself can
      // be replaced, which only the permission check sees (docs/sandbox.md).
      let real: string;
      try {
        real = realpathSync(entry.path);
      } catch {
        return;
      }
      if (inside(real, writableRoots)) existing.add(real);
      return;
    }
    if (stats) {
      existing.add(entry.path);
      return;
    }
    const first = firstMissing(entry, writableRoots, present);
    if (first) missing.set(first.path, first);
  };
  const roots = [...writableRoots];
  const realHome = realOrSelf(home);
  if (inside(realHome, writableRoots) && !roots.includes(realHome)) roots.push(realHome);
  for (const root of roots) {
    // A writable git folder itself (a worktree's shared `.git`): its config and hooks stay read-only.
    if (isGitDir(root)) {
      consider({ path: path.join(root, "config"), kind: "file" });
      consider({ path: path.join(root, "hooks"), kind: "dir" });
    }
    for (const { relative, kind } of workspaceEntries()) {
      if (relative.startsWith(".git/")) {
        // No .git: the stand-in is .git itself (`firstMissing`), so a command cannot `git init`
        // one whose config or hooks run at the next git command outside the sandbox.
        const git = statOf(path.join(root, ".git"));
        if (git && !git.isDirectory()) {
          existing.add(path.join(root, ".git"));
          continue;
        }
      }
      consider({ path: path.join(root, relative), kind });
    }
  }
  if (inside(realHome, writableRoots)) {
    for (const file of PROTECTED_HOME_FILES) consider({ path: path.join(realHome, file), kind: "file" });
  }
  const protectedPaths = [...existing, ...missing.keys()];
  const pinned = new Set<string>();
  for (const file of protectedPaths) {
    const root = roots.find((r) => inside(file, [r]) && file !== r);
    if (!root) continue;
    for (let dir = path.dirname(file); dir !== root && inside(dir, [root]); dir = path.dirname(dir))
      pinned.add(dir);
  }
  return { existing: [...existing], missing: [...missing.values()], pinned: [...pinned].sort() };
}

/** The first piece of `entry.path` that does not exist, below a writable root whose parent is a folder. */
function firstMissing(
  entry: ProtectedEntry,
  roots: readonly string[],
  present: (file: string) => Stats | undefined,
): ProtectedEntry | undefined {
  const root = roots.find((r) => inside(entry.path, [r]));
  if (!root) return undefined;
  const parts = path.relative(root, entry.path).split(path.sep);
  let current = root;
  for (let i = 0; i < parts.length; i++) {
    current = path.join(current, parts[i]);
    const stats = present(current);
    if (!stats) return { path: current, kind: i === parts.length - 1 ? entry.kind : "dir" };
    if (!stats.isDirectory()) return undefined;
  }
  return undefined;
}

function isGitDir(dir: string): boolean {
  return Boolean(
    statOf(path.join(dir, "HEAD"))?.isFile() && statOf(path.join(dir, "objects"))?.isDirectory(),
  );
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}
