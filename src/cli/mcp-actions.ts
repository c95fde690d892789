import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { localSettingsPath, projectSettingsPath, userSettingsDir } from "../config/settings.js";
import { formatDiagnostic } from "../core/diagnostic.js";
import { isJsonObject, updateJsonObjectFile } from "../fs/json-file.js";
import { findProjectRoot, foldersFromRootTo } from "../fs/project-root.js";
import { describeEntry, type McpServerEntry, parseServerEntries } from "../mcp/config.js";
import {
  approvalState,
  approvalsFile,
  loadMcpConfiguration,
  MCP_JSON,
  projectKey,
  readApprovals,
  recordApprovals,
  resetApprovals,
  startMcp,
} from "../mcp/index.js";
import { MCP_DEFAULTS, resolveMcpSettings } from "../mcp/launch.js";
import { listMcpSkills } from "../mcp/skills.js";
import { formatServerReports, reportServer } from "../mcp/status.js";
import { loadSettings } from "../settings/index.js";
import { resolveRun } from "./prepare-run.js";
import { VERSION } from "./version.js";

const out = (text: string) => process.stdout.write(`${text}\n`);
const err = (text: string) => process.stderr.write(`${text}\n`);
const SCOPES = ["local", "project", "user"] as const;
type Scope = (typeof SCOPES)[number];

/** `hx mcp list`: starts the servers that may start, waits for them, and reports each. */
export async function listServers(
  cwd: string,
  options: { json?: boolean; mcpConfig?: string[] },
): Promise<number> {
  const resolved = await resolveRun({ cwd }, err);
  const setup = await startMcp({
    cwd: resolved.cwd,
    settings: resolved.settings,
    contextWindow: resolved.contextWindow,
    configFiles: options.mcpConfig,
    clientVersion: VERSION,
    log: err,
    notify: () => {}, // the list says what happened to each server
    verbose: false,
    sandboxMode: resolved.config.sandboxMode,
  });
  if (!setup) {
    if (options.json) out(JSON.stringify({ servers: [] }, null, 2));
    else out(formatServerReports([]));
    return 0;
  }
  try {
    await setup.manager.waitForStart(MCP_DEFAULTS.startupTimeoutMs);
    const skills = await listMcpSkills(setup.manager.connections(), MCP_DEFAULTS.startupTimeoutMs);
    for (const diagnostic of skills.diagnostics) err(`warning: ${diagnostic.message}`);
    const reports = setup.manager.states.map((state) =>
      reportServer(state, skills.counts.get(state.definition.name)),
    );
    const settings = resolveMcpSettings(resolved.settings.merged.mcp, resolved.contextWindow);
    const tokens = reports.reduce((sum, r) => sum + r.schemaTokens, 0);
    const deferred =
      settings.defer === "always" || (settings.defer === "auto" && tokens > settings.budgetTokens);
    if (options.json) {
      out(
        JSON.stringify(
          { servers: reports, schemaTokens: tokens, budgetTokens: settings.budgetTokens, deferred },
          null,
          2,
        ),
      );
    } else {
      out(formatServerReports(reports, { home: os.homedir() }));
      const tools = reports.reduce((sum, r) => sum + r.tools, 0);
      out(
        `\n${tools} tools, ~${tokens.toLocaleString("en-US")} schema tokens; budget ${settings.budgetTokens.toLocaleString("en-US")} tokens (${resolved.contextWindow.toLocaleString("en-US")}-token window): ${deferred ? "the model gets a catalog and loads schemas on demand" : "schemas are sent with every request"}.`,
      );
    }
    return reports.some((r) => r.status === "failed" || r.status === "needs login") ? 1 : 0;
  } finally {
    await setup.close();
  }
}

export interface AddOptions {
  name: string;
  target: string;
  args: string[];
  transport: string;
  scope: string;
  env?: string[];
  header?: string[];
  /** False: `--no-sandbox`, the entry gets `"sandbox": false` (stdio only). */
  sandbox?: boolean;
}

/** `hx mcp add`: writes the entry to the scope's file; a server you add yourself is approved. */
export async function addServer(cwd: string, options: AddOptions): Promise<number> {
  const scope = parseScope(options.scope);
  if (!scope) return usage(`--scope must be one of ${SCOPES.join(", ")}.`);
  const entry = buildEntry(options);
  if (typeof entry === "string") return usage(entry);
  const file = scopeFile(cwd, scope);
  const parsed = parseServerEntries({ [options.name]: entry }, { file, scope });
  if (parsed.diagnostics.length > 0) return usage(parsed.diagnostics[0].message);
  if (readServers(file)[options.name] !== undefined) {
    err(
      `hx: ${file} already has an MCP server named '${options.name}'. Remove it first: hx mcp remove ${options.name}`,
    );
    return 1;
  }
  await updateJsonObjectFile(file, (object) => {
    const servers = isJsonObject(object.mcpServers) ? object.mcpServers : {};
    servers[options.name] = entry;
    object.mcpServers = servers;
  });
  if (scope !== "user") {
    await recordApprovals(approvalsFile(os.homedir()), projectKey(cwd), parsed.servers, "approved");
  }
  out(`Added MCP server '${options.name}' (${describeEntry(entry)}) to ${file} [${scope}].`);
  if (scope === "project")
    out("It is in .mcp.json: others who clone the project are asked before it starts.");
  return 0;
}

function buildEntry(options: AddOptions): McpServerEntry | string {
  const transport = options.transport;
  if (transport === "stdio") {
    if (/^https?:\/\//.test(options.target)) {
      return `'${options.target}' looks like a URL; add a remote server with --transport http (or sse).`;
    }
    const env: Record<string, string> = {};
    for (const pair of options.env ?? []) {
      const eq = pair.indexOf("=");
      if (eq <= 0) return `-e needs KEY=value, got '${pair}'.`;
      env[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    return {
      command: options.target,
      ...(options.args.length ? { args: options.args } : {}),
      ...(Object.keys(env).length ? { env } : {}),
      ...(options.sandbox === false ? { sandbox: false } : {}),
    };
  }
  if (transport !== "http" && transport !== "sse")
    return `--transport must be stdio, http or sse, not '${transport}'.`;
  if (options.sandbox === false)
    return "--no-sandbox is for stdio servers (a remote server does not run on this machine).";
  if (options.args.length > 0)
    return `a ${transport} server takes a URL only; unexpected: ${options.args.join(" ")}`;
  try {
    new URL(options.target);
  } catch {
    return `'${options.target}' is not a URL (e.g. https://example.com/mcp).`;
  }
  const headers: Record<string, string> = {};
  for (const header of options.header ?? []) {
    const colon = header.indexOf(":");
    if (colon <= 0) return `-H needs "Name: value", got '${header}'.`;
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  return { type: transport, url: options.target, ...(Object.keys(headers).length ? { headers } : {}) };
}

/** `hx mcp remove`: deletes the entry from every file (of the scope) that defines it. */
export async function removeServer(cwd: string, name: string, scopeOption?: string): Promise<number> {
  const scope = scopeOption === undefined ? undefined : parseScope(scopeOption);
  if (scopeOption !== undefined && !scope) return usage(`--scope must be one of ${SCOPES.join(", ")}.`);
  const candidates = definingFiles(cwd).filter((c) => scope === undefined || c.scope === scope);
  const found = candidates.filter((c) => readServers(c.file)[name] !== undefined);
  if (found.length === 0) {
    err(`hx: no MCP server named '${name}'${scope ? ` in the ${scope} scope` : ""}. See: hx mcp list`);
    return 1;
  }
  for (const { file } of found) {
    await updateJsonObjectFile(file, (object) => {
      if (isJsonObject(object.mcpServers)) delete object.mcpServers[name];
    });
    out(`Removed MCP server '${name}' from ${file}.`);
  }
  return 0;
}

/** `hx mcp approve`: records approval of the project's servers (all waiting ones by default). */
export async function approveServers(cwd: string, names: string[], all: boolean): Promise<number> {
  const config = await loadMcpConfiguration({ cwd, settings: await loadSettings(cwd) });
  for (const diagnostic of config.diagnostics) err(`warning: ${formatDiagnostic(diagnostic)}`);
  const file = approvalsFile(os.homedir());
  const project = projectKey(cwd);
  const store = readApprovals(file);
  const projectServers = config.servers.filter((s) => s.scope === "project" || s.scope === "local");
  const unknown = names.filter((n) => !projectServers.some((s) => s.name === n));
  if (unknown.length > 0) {
    err(
      `hx: no project MCP server named ${unknown.map((n) => `'${n}'`).join(", ")} (user and --mcp-config servers need no approval).`,
    );
    return 1;
  }
  const chosen = names.length
    ? projectServers.filter((s) => names.includes(s.name))
    : projectServers.filter((s) =>
        ["pending", "declined"].includes(approvalState(s, store, project, config.trust)),
      );
  if (chosen.length === 0 && !all) {
    out("No project MCP server is waiting for approval.");
    return 0;
  }
  await recordApprovals(file, project, chosen, "approved", { all });
  for (const server of chosen)
    out(`Approved '${server.name}': ${describeEntry(server.entry)} (${server.file})`);
  if (all)
    out(`Every MCP server ${project} adds later is approved too (hx mcp reset-project-choices undoes it).`);
  return 0;
}

export async function resetChoices(cwd: string): Promise<number> {
  const project = projectKey(cwd);
  const had = await resetApprovals(approvalsFile(os.homedir()), project);
  out(
    had
      ? `Forgot the MCP approvals of ${project}; hx asks again.`
      : `No MCP approvals were recorded for ${project}.`,
  );
  return 0;
}

function scopeFile(cwd: string, scope: Scope): string {
  if (scope === "user") return path.join(userSettingsDir(), "settings.json");
  if (scope === "project") return path.join(findProjectRoot(cwd), MCP_JSON);
  return localSettingsPath(path.resolve(cwd));
}

/** Every file `hx` reads servers from, nearest first within a scope. */
function definingFiles(cwd: string): Array<{ file: string; scope: Scope }> {
  const files: Array<{ file: string; scope: Scope }> = [
    { file: path.join(userSettingsDir(), "settings.json"), scope: "user" },
  ];
  for (const folder of foldersFromRootTo(cwd)) {
    files.push({ file: path.join(folder, MCP_JSON), scope: "project" });
    files.push({ file: projectSettingsPath(folder), scope: "project" });
    files.push({ file: localSettingsPath(folder), scope: "local" });
  }
  return files.filter((f) => existsSync(f.file));
}

function readServers(file: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return isJsonObject(parsed) && isJsonObject(parsed.mcpServers) ? parsed.mcpServers : {};
  } catch {
    return {};
  }
}

function parseScope(value: string): Scope | undefined {
  return (SCOPES as readonly string[]).includes(value) ? (value as Scope) : undefined;
}

function usage(message: string): number {
  err(`hx: ${message}`);
  return 2;
}
