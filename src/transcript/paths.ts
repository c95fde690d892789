import { createHash, randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";

/** `~/.hx/sessions`: one folder per project. Read from `os.homedir()` each time (tests set HOME). */
function sessionsRoot(): string {
  return path.join(os.homedir(), ".hx", "sessions");
}

/**
 * A folder name for a workspace: the absolute path made readable (every character outside
 * `[A-Za-z0-9._-]` turned into `-`, the tail kept) plus a hash of the exact path, so
 * `/x/a-b` and `/x/a/b` never share a folder: `home-a-proj-1f2e3d4c`.
 */
export function projectKey(workspaceRoot: string): string {
  const absolute = path.resolve(workspaceRoot);
  const hash = createHash("sha256").update(absolute).digest("hex").slice(0, 8);
  return `${readableKey(absolute).slice(-80)}-${hash}`;
}

/**
 * The folder name hx used before keys had a hash (readable only, so two paths could share
 * it). Sessions there are still found, but only those whose recorded cwd is this workspace.
 */
function legacyProjectKey(workspaceRoot: string): string {
  const absolute = path.resolve(workspaceRoot);
  const readable = readableKey(absolute);
  if (readable.length <= 100) return readable;
  const hash = createHash("sha256").update(absolute).digest("hex").slice(0, 10);
  return `${readable.slice(-89)}-${hash}`;
}

function readableKey(absolute: string): string {
  return absolute.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "") || "root";
}

/** Where new sessions of a workspace are written. */
export function projectSessionsDir(workspaceRoot: string): string {
  return path.join(sessionsRoot(), projectKey(workspaceRoot));
}

/** The folder older versions of hx wrote this workspace's sessions to (read only). */
export function legacyProjectSessionsDir(workspaceRoot: string): string {
  return path.join(sessionsRoot(), legacyProjectKey(workspaceRoot));
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
