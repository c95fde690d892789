import { readFileSync } from "node:fs";
import path from "node:path";
import { errorMessage } from "../core/error-message.js";
import { isJsonObject, updateJsonObjectFile } from "../fs/json-file.js";

/**
 * The folders the user trusts, kept in `~/.hx/trusted-folders.json` (mode 0600; never in a
 * repository, which could otherwise trust itself). Keys are real paths (symlinks resolved):
 *
 * ```json
 * { "version": 1, "folders": { "/home/me/work/app": { "trustedAt": "2026-12-01T23:40:00.000Z" } } }
 * ```
 */
interface TrustStore {
  folders: Record<string, { trustedAt?: string }>;
}

export type TrustStoreRead =
  | { ok: true; store: TrustStore }
  /** The file exists but cannot be used: every folder counts as untrusted, the file is left alone. */
  | { ok: false; problem: string };

const TRUST_FILE_NAME = "trusted-folders.json";

/** `<userHxDir>/trusted-folders.json`. */
export function trustFile(userHxDir: string): string {
  return path.join(userHxDir, TRUST_FILE_NAME);
}

/** Reads the store; a missing file is an empty one, a broken one is a problem (never a guess). */
export function readTrustStore(file: string): TrustStoreRead {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, store: { folders: {} } };
    return { ok: false, problem: `${file} cannot be read (${errorMessage(error)})` };
  }
  if (text.trim() === "") return { ok: true, store: { folders: {} } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `${file} is not valid JSON (${errorMessage(error)})` };
  }
  if (!isJsonObject(parsed) || (parsed.folders !== undefined && !isJsonObject(parsed.folders))) {
    return { ok: false, problem: `${file} does not hold {"folders": {...}}` };
  }
  const folders: TrustStore["folders"] = {};
  for (const [key, value] of Object.entries((parsed.folders ?? {}) as Record<string, unknown>)) {
    if (!path.isAbsolute(key)) continue;
    const trustedAt =
      isJsonObject(value) && typeof value.trustedAt === "string" ? value.trustedAt : undefined;
    folders[key] = { trustedAt };
  }
  return { ok: true, store: { folders } };
}

/** Records `key` (a real path) as trusted; refuses, leaving it unchanged, a file that is not a JSON object. */
export async function recordTrust(file: string, key: string, now = new Date()): Promise<void> {
  await updateStore(file, (folders) => {
    folders[key] = { trustedAt: now.toISOString() };
  });
}

/** Forgets `key`; false when it was not recorded. */
export async function revokeTrust(file: string, key: string): Promise<boolean> {
  let found = false;
  await updateStore(file, (folders) => {
    found = folders[key] !== undefined;
    delete folders[key];
  });
  return found;
}

async function updateStore(file: string, change: (folders: Record<string, unknown>) => void): Promise<void> {
  const read = readTrustStore(file);
  if (!read.ok) throw new Error(`${read.problem}; it was left unchanged. Fix or remove it, then try again.`);
  await updateJsonObjectFile(
    file,
    (object) => {
      object.version = 1;
      if (!isJsonObject(object.folders)) object.folders = {};
      change(object.folders as Record<string, unknown>);
    },
    { mode: 0o600 },
  );
}
