import { readFileSync } from "node:fs";
import path from "node:path";
import { isJsonObject, updateJsonObjectFile } from "../fs/json-file.js";

/**
 * What hx keeps for one remote server's OAuth: the client registration, the tokens and the
 * discovery results (so a later connection skips discovery). Kept in `~/.hx/mcp-auth.json`,
 * mode 0600, never in the project, a transcript or a log.
 */
export interface StoredAuth {
  /** The server's URL when it was stored: a record is used for this URL only. */
  url: string;
  client?: Record<string, unknown>;
  tokens?: Record<string, unknown>;
  /** When the tokens were saved (ms since the epoch), to tell when `expires_in` runs out. */
  savedAt?: number;
  discovery?: Record<string, unknown>;
  /** Scopes a step-up asked for that a headless run could not get: `hx mcp login` asks for them. */
  wantedScope?: string;
}

export type AuthPart = "client" | "tokens" | "discovery";

export function authFile(homeDir: string): string {
  return path.join(homeDir, ".hx", "mcp-auth.json");
}

/** The key of a server's record: its name and URL, so a renamed or moved server starts afresh. */
export function authKey(name: string, url: string): string {
  return `${name} ${url}`;
}

/** Reads and writes the records of `file`; every write is atomic and leaves the file 0600. */
export class AuthStore {
  constructor(readonly file: string) {}

  read(key: string): StoredAuth | undefined {
    const record = this.all()[key];
    return isJsonObject(record) && typeof record.url === "string"
      ? (record as unknown as StoredAuth)
      : undefined;
  }

  /** Every key with tokens stored (for `hx mcp list` and logout). */
  keys(): string[] {
    return Object.keys(this.all());
  }

  async update(key: string, url: string, change: (record: StoredAuth) => void): Promise<void> {
    await updateJsonObjectFile(
      this.file,
      (object) => {
        const current = isJsonObject(object[key]) ? (object[key] as unknown as StoredAuth) : { url };
        const record: StoredAuth = { ...current, url };
        change(record);
        object[key] = record;
      },
      { mode: 0o600 },
    );
  }

  /** Forgets parts of a record (all of it by default); true when there was something. */
  async forget(
    key: string,
    parts: readonly AuthPart[] = ["client", "tokens", "discovery"],
  ): Promise<boolean> {
    if (!this.read(key)) return false;
    await updateJsonObjectFile(
      this.file,
      (object) => {
        const record = object[key] as unknown as StoredAuth;
        for (const part of parts) delete record[part];
        if (!record.client && !record.tokens && !record.discovery) delete object[key];
      },
      { mode: 0o600 },
    );
    return true;
  }

  private all(): Record<string, unknown> {
    try {
      const parsed = JSON.parse(readFileSync(this.file, "utf8")) as unknown;
      return isJsonObject(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
}
