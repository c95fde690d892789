import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { isJsonObject, updateJsonObjectFile } from "../fs/json-file.js";
import { findProjectRoot } from "../fs/project-root.js";
import type { McpServerDefinition } from "./config.js";
import type { McpTrust } from "./sources.js";

/**
 * The user's answers about a project's MCP servers, kept in `~/.hx/mcp-approvals.json` (never
 * in the repository, which could otherwise approve itself). An answer holds for the entry as
 * it was written: when `.mcp.json` changes a server's command, hx asks again.
 */
export interface ApprovalStore {
  version: 1;
  projects: Record<string, ProjectApprovals>;
}

interface ProjectApprovals {
  /** "Yes, and every server this project adds later." */
  all?: boolean;
  servers: Record<string, { digest: string; answer: "approved" | "declined" }>;
}

/** Why a server starts or not. */
export type ApprovalState = "trusted" | "approved" | "declined" | "disabled" | "pending";

export function approvalsFile(homeDir: string): string {
  return path.join(homeDir, ".hx", "mcp-approvals.json");
}

/** The key answers are stored under: the project root, symlinks resolved. */
export function projectKey(cwd: string): string {
  const root = findProjectRoot(cwd);
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

export function readApprovals(file: string): ApprovalStore {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as ApprovalStore;
    if (parsed && typeof parsed === "object" && parsed.projects && typeof parsed.projects === "object") {
      return { version: 1, projects: parsed.projects };
    }
  } catch {
    // missing or unreadable: nothing approved yet
  }
  return { version: 1, projects: {} };
}

/** Whether `server` may start: user and --mcp-config servers always; project ones once approved. */
export function approvalState(
  server: McpServerDefinition,
  store: ApprovalStore,
  project: string,
  trust: McpTrust,
): ApprovalState {
  if (server.entry.disabled === true) return "disabled";
  if (server.scope === "user" || server.scope === "flag") return "trusted";
  if (trust.disabled.includes(server.name)) return "disabled";
  if (trust.allProjectServers || trust.enabled.includes(server.name)) return "trusted";
  const answers = store.projects[project];
  const answer = answers?.servers[server.name];
  if (answer && answer.digest === server.digest) return answer.answer;
  if (answers?.all) return "approved";
  return "pending";
}

/** Saves the user's answer for these servers (atomically: a temp file, then rename). */
export async function recordApprovals(
  file: string,
  project: string,
  servers: readonly McpServerDefinition[],
  answer: "approved" | "declined",
  options: { all?: boolean } = {},
): Promise<void> {
  await updateStore(file, (store) => {
    const entry = store.projects[project] ?? { servers: {} };
    store.projects[project] = entry;
    for (const server of servers) entry.servers[server.name] = { digest: server.digest, answer };
    if (options.all) entry.all = true;
  });
}

/** Forgets every answer given for the project (`hx mcp reset-project-choices`). */
export async function resetApprovals(file: string, project: string): Promise<boolean> {
  let found = false;
  await updateStore(file, (store) => {
    found = store.projects[project] !== undefined;
    delete store.projects[project];
  });
  return found;
}

async function updateStore(file: string, change: (store: ApprovalStore) => void): Promise<void> {
  await updateJsonObjectFile(
    file,
    (object) => {
      object.version = 1;
      if (!isJsonObject(object.projects)) object.projects = {};
      change(object as unknown as ApprovalStore);
    },
    { mode: 0o600 },
  );
}
