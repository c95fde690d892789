import { realpathSync } from "node:fs";
import path from "node:path";
import { findProjectRoot } from "../fs/project-root.js";
import { readTrustStore, trustFile } from "./trust-store.js";

/**
 * Whether the user trusts a project folder, and why. In a folder that is not trusted, the
 * project's own files loosen nothing: see `keepRestrictions` (settings) and the skills'
 * `allowed-tools`.
 */
export interface FolderTrust {
  trusted: boolean;
  /**
   * - `recorded`: `hx trust` (or "always" at the interactive question) recorded this folder or
   *   one above it (`recordedFor` says which);
   * - `flag`: `--trust` for this run;
   * - `session`: the user said yes at the interactive question, for this session;
   * - `home`: the project root is the user's home folder (its files are the user's own);
   * - `none`: not trusted;
   * - `unreadable`: the trust file is broken (`problem` says how), so nothing counts as trusted.
   */
  source: "recorded" | "flag" | "session" | "home" | "none" | "unreadable";
  /** The key trust is recorded under: the project root's real path. */
  key: string;
  /** The recorded folder that covers `key` (itself or a folder above it). */
  recordedFor?: string;
  /** Set when the trust file could not be used: one line for the user. */
  problem?: string;
}

/** The project root of `dir` (repository root, else `dir`), symlinks resolved: what trust is keyed by. */
export function trustKey(dir: string): string {
  const root = findProjectRoot(dir);
  try {
    return realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

/**
 * Whether `projectRoot` (any folder inside the project will do) is trusted: a recorded entry
 * for it or for a folder above it (`hx trust ~/work` trusts every project below), the project
 * being the home folder itself, or `flag` (`--trust`). A trust file that is not JSON counts as
 * no trust at all, with `problem` set; it is never rewritten silently.
 */
export function loadFolderTrust(
  projectRoot: string,
  userHxDir: string,
  options: { flag?: boolean; homeDir?: string } = {},
): FolderTrust {
  const key = trustKey(projectRoot);
  const read = readTrustStore(trustFile(userHxDir));
  const recordedFor = read.ok ? coveringEntry(key, Object.keys(read.store.folders)) : undefined;
  if (recordedFor) return { trusted: true, source: "recorded", key, recordedFor };
  if (options.flag)
    return { trusted: true, source: "flag", key, problem: read.ok ? undefined : read.problem };
  if (options.homeDir !== undefined && key === realOrSelf(options.homeDir)) {
    return { trusted: true, source: "home", key };
  }
  if (!read.ok) return { trusted: false, source: "unreadable", key, problem: read.problem };
  return { trusted: false, source: "none", key };
}

/** The entry equal to `key` or the nearest folder above it. */
function coveringEntry(key: string, entries: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const entry of entries) {
    const relative = path.relative(entry, key);
    const covers = relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
    if (covers && (best === undefined || entry.length > best.length)) best = entry;
  }
  return best;
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}
