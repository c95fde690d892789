import { estimateToolSchemasTokens } from "../context/index.js";
import { describeEntry } from "./config.js";
import type { McpServerState } from "./manager.js";

/** One server as `hx mcp list` and `/mcp` show it (and `--json` prints it). */
export interface McpServerReport {
  name: string;
  scope: string;
  file: string;
  /** The command or URL. */
  target: string;
  status: "ready" | "starting" | "restarting" | "failed" | "closed" | "not started" | "needs login";
  /** Why it failed or was not started. */
  reason?: string;
  tools: number;
  /** Estimated tokens the server's tool schemas cost when they are sent as tools. */
  schemaTokens: number;
  prompts: number;
  resources: number;
  skills: number;
  /** Tools left out because of malformed schemas. */
  skipped: Array<{ tool: string; reason: string }>;
  /** Stdio servers once launched: whether the OS sandbox holds the process, and why not. */
  sandbox?: { sandboxed: boolean; text: string };
}

export function reportServer(state: McpServerState, skills = 0): McpServerReport {
  const connection = state.connection;
  const tools = connection?.tools ?? [];
  return {
    name: state.definition.name,
    scope: state.definition.scope,
    file: state.definition.file,
    target: describeEntry(state.definition.entry),
    status: connection?.needsLogin ? "needs login" : connection ? connection.status : "not started",
    reason: connection?.needsLogin
      ? `authorize with: hx mcp login ${state.definition.name}`
      : connection
        ? connection.error
        : state.notStarted,
    tools: tools.length,
    schemaTokens: estimateToolSchemasTokens(
      tools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema })),
    ),
    prompts: connection?.prompts.length ?? 0,
    resources: connection?.resources.length ?? 0,
    skills,
    skipped: connection?.skipped ?? [],
    ...(connection?.placement
      ? { sandbox: { sandboxed: connection.placement.sandboxed, text: connection.placement.text } }
      : {}),
  };
}

/** The table for the terminal: one line per server, then its problems. */
export function formatServerReports(
  reports: readonly McpServerReport[],
  options: { home?: string } = {},
): string {
  if (reports.length === 0) {
    return "No MCP servers configured. Add one with: hx mcp add NAME -- command args…  (or .mcp.json)";
  }
  const width = Math.max(...reports.map((r) => r.name.length));
  const lines = [`MCP servers (${reports.length}):`];
  for (const report of reports) {
    const state =
      report.status === "ready"
        ? `ready: ${report.tools} tool${report.tools === 1 ? "" : "s"} (~${report.schemaTokens.toLocaleString("en-US")} schema tokens)${report.prompts ? `, ${report.prompts} prompt${report.prompts === 1 ? "" : "s"}` : ""}${report.resources ? `, ${report.resources} resource${report.resources === 1 ? "" : "s"}` : ""}${report.skills ? `, ${report.skills} skill${report.skills === 1 ? "" : "s"}` : ""}`
        : `${report.status}${report.reason ? `: ${report.reason}` : ""}`;
    lines.push(`  ${report.name.padEnd(width)}  ${state}`);
    lines.push(
      `  ${" ".repeat(width)}  ${report.target}  [${report.scope}: ${shortPath(report.file, options.home)}]`,
    );
    if (report.sandbox) lines.push(`  ${" ".repeat(width)}  ${report.sandbox.text}`);
    for (const skipped of report.skipped) {
      lines.push(`  ${" ".repeat(width)}  left out: ${skipped.tool} (${skipped.reason})`);
    }
  }
  return lines.join("\n");
}

function shortPath(file: string, home: string | undefined): string {
  return home && file.startsWith(`${home}/`) ? `~/${file.slice(home.length + 1)}` : file;
}
