import { createHash, randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";

/** `~/.hx/sessions`: one folder per project. Read from `os.homedir()` each time (tests set HOME). */
export function sessionsRoot(): string {
  return path.join(os.homedir(), ".hx", "sessions");
}

/**
 * A folder name for a workspace: the absolute path with every character outside
 * `[A-Za-z0-9._-]` turned into `-` (`/home/a/proj` → `home-a-proj`), readable in a listing.
 * Long paths keep their tail and gain a hash of the whole path, so two never collide.
 */
export function projectKey(workspaceRoot: string): string {
  const absolute = path.resolve(workspaceRoot);
  const readable = absolute.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "") || "root";
  if (readable.length <= 100) return readable;
  const hash = createHash("sha256").update(absolute).digest("hex").slice(0, 10);
  return `${readable.slice(-89)}-${hash}`;
}

export function projectSessionsDir(workspaceRoot: string): string {
  return path.join(sessionsRoot(), projectKey(workspaceRoot));
}

/** `20260701-142530-a1b2c3`: sorts by start time, short to type, unique enough per project. */
export function newSessionId(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const stamp =
    `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}-` +
    `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

export function sessionFile(workspaceRoot: string, id: string): string {
  return path.join(projectSessionsDir(workspaceRoot), `${id}.jsonl`);
}
