import { createHash } from "node:crypto";
import path from "node:path";
import { cacheFolder, writeCacheFile } from "../fs/cache-folder.js";
import { readSmallFileSync } from "../fs/regular-file.js";

const FILE = "mcp-start-times.json";
const MAX_BYTES = 1024 * 1024;
/** Servers remembered at most; the least recently started go first. */
const MAX_SERVERS = 500;

/**
 * How long each MCP server took to start the last time it did, by server (name, command or
 * URL, and folder), in `~/.hx/cache/`: the first request does not wait `mcp.startupWait` for a
 * server that took longer than that last time (its tools join when it is ready, as a late
 * server's do), and still waits for one that made it. Each start is recorded, so a server that
 * was slow once (a cold package cache) is waited for again after a session sees it start fast;
 * a session that ends before its server is ready records that it took at least that long.
 */
export class ServerStartTimes {
  private readonly times: Record<string, number>;
  private changed = false;

  private constructor(private readonly file: string) {
    this.times = readTimes(file);
  }

  static open(homeDir: string): ServerStartTimes {
    return new ServerStartTimes(path.join(cacheFolder(homeDir), FILE));
  }

  /** Milliseconds the server took to start last time; undefined when it never started here. */
  expected(key: string): number | undefined {
    return this.times[key];
  }

  record(key: string, ms: number): void {
    delete this.times[key]; // re-inserted last: the most recent at the end
    this.times[key] = Math.round(ms);
    this.changed = true;
  }

  /** The server was still starting after `ms`: it takes at least that long (or what was known). */
  recordAtLeast(key: string, ms: number): void {
    this.record(key, Math.max(ms, this.times[key] ?? 0));
  }

  /** Writes what changed (a temporary file renamed); never throws. */
  save(): void {
    if (!this.changed) return;
    this.changed = false;
    const entries = Object.entries(this.times).slice(-MAX_SERVERS);
    writeCacheFile(this.file, JSON.stringify(Object.fromEntries(entries)));
  }
}

/** The key of one server as configured: its name, what it runs or reaches, and its folder. */
export function serverStartKey(name: string, described: string, cwd: string): string {
  return createHash("sha256").update(`${name}\n${described}\n${cwd}`).digest("hex").slice(0, 24);
}

function readTimes(file: string): Record<string, number> {
  const times = Object.create(null) as Record<string, number>;
  const read = readSmallFileSync(file, MAX_BYTES);
  if (!read.ok) return times;
  try {
    const data = JSON.parse(read.text) as unknown;
    if (typeof data !== "object" || data === null) return times;
    for (const [key, value] of Object.entries(data))
      if (typeof value === "number" && Number.isFinite(value) && value >= 0) times[key] = value;
  } catch {
    // A broken file is an empty one (rewritten at the next save).
  }
  return times;
}
