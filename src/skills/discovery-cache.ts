import { createHash } from "node:crypto";
import { type Stats, statSync } from "node:fs";
import path from "node:path";
import { BUILD_ID } from "../core/build-id.js";
import { cacheFolder, pruneCacheFolder, writeCacheFile } from "../fs/cache-folder.js";
import { readSmallFileSync } from "../fs/regular-file.js";
import type { Skill } from "./types.js";

/** What a skill is apart from where it was found: what parsing its SKILL.md gave. */
export type ParsedSkill = Omit<Skill, "dir" | "file" | "source" | "remote">;

interface CacheEntry {
  /** The SKILL.md's identity and version: device, inode, size, modification and change times. */
  file: string;
  /** The same for `agents/openai.yaml` beside it, or "-" when there is none. */
  agents: string;
  skill: ParsedSkill;
}

interface CacheFile {
  build: string;
  entries: Record<string, CacheEntry>;
}

/** A file changed this recently may change again within its timestamp's granularity: not kept. */
const RACY_MS = 2000;
/** A larger cache file is ignored (and rewritten): ~25 MB holds well over 10,000 skills. */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * What discovery parsed from each SKILL.md last time, in `~/.hx/cache/` (read-only to every
 * sandboxed command, as hx's code cache is), so a run among 1,000 skills stats each file
 * instead of reading and parsing it. An entry is used only while the file's device, inode,
 * size, modification and change times are all the same (a change time no program can set
 * back), and those of `agents/openai.yaml` beside it; only by the build that wrote it; never
 * for a file changed in the last two seconds. Anything it cannot read is an empty cache.
 */
export class SkillDiscoveryCache {
  private readonly next: Record<string, CacheEntry> = Object.create(null);
  private changed = false;

  private constructor(
    private readonly cacheFile: string,
    private readonly previous: Record<string, CacheEntry>,
    private readonly now: () => number,
  ) {}

  /** The cache kept for one list of skill roots under `homeDir`. */
  static open(homeDir: string, roots: readonly string[], now: () => number = Date.now): SkillDiscoveryCache {
    const cacheFile = path.join(cacheFolder(homeDir), `skills-${digest(roots.join("\n"))}.json`);
    return new SkillDiscoveryCache(cacheFile, readEntries(cacheFile), now);
  }

  /** The skill parsed from `file` last time, when neither it nor its openai.yaml changed since. */
  lookup(file: string, stats: Stats): ParsedSkill | undefined {
    const entry = this.previous[file];
    if (entry === undefined || entry.file !== signature(stats)) return undefined;
    if (entry.agents !== agentsSignature(file)) return undefined;
    this.next[file] = entry;
    return entry.skill;
  }

  /** Keeps what `file` parsed to (with its stats as read) for the next discovery. */
  remember(file: string, stats: Stats, skill: ParsedSkill): void {
    this.changed = true;
    if (this.now() - Math.max(stats.mtimeMs, stats.ctimeMs) < RACY_MS) return;
    const agents = agentsSignature(file);
    if (agents !== UNKNOWN) this.next[file] = { file: signature(stats), agents, skill };
  }

  /**
   * Writes the entries this discovery used, when any changed or went (a reader sees the old
   * file or the new one, never a part). Never throws: without a cache, discovery reads files.
   */
  save(): void {
    const dropped = Object.keys(this.previous).some((file) => !(file in this.next));
    if (!this.changed && !dropped) return;
    const data: CacheFile = { build: BUILD_ID, entries: this.next };
    // Writes are rare (a skill changed): the moment to drop what other projects left.
    if (writeCacheFile(this.cacheFile, JSON.stringify(data)))
      pruneCacheFolder(path.dirname(this.cacheFile), this.now());
  }
}

function readEntries(cacheFile: string): Record<string, CacheEntry> {
  const empty = Object.create(null) as Record<string, CacheEntry>;
  const read = readSmallFileSync(cacheFile, MAX_CACHE_BYTES);
  if (!read.ok) return empty;
  try {
    const data = JSON.parse(read.text) as Partial<CacheFile>;
    if (data.build !== BUILD_ID || typeof data.entries !== "object" || data.entries === null) return empty;
    return Object.assign(empty, data.entries);
  } catch {
    return empty;
  }
}

function signature(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

const UNKNOWN = "?";

/** Codex's per-skill settings change whether the model may invoke a skill (see openai-yaml.ts). */
function agentsSignature(skillFile: string): string {
  try {
    const stats = statSync(path.join(path.dirname(skillFile), "agents", "openai.yaml"), {
      throwIfNoEntry: false,
    });
    return stats === undefined ? "-" : signature(stats);
  } catch {
    return UNKNOWN; // never kept, so never equal to a kept signature: the skill is read again
  }
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}
