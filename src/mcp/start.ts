import { formatDiagnostic } from "../core/diagnostic.js";
import type { McpSetup, McpSetupOptions } from "./launch.js";
import { loadMcpConfiguration } from "./sources.js";

/**
 * Reads the MCP configuration (.mcp.json, settings, --mcp-config) and, when it names a
 * server, loads the MCP code and starts the servers. Without one nothing of MCP loads, so a
 * session without servers pays only for reading the configuration.
 */
export async function startMcp(options: McpSetupOptions): Promise<McpSetup | undefined> {
  // The launching code loads while the entries are checked (with zod): the servers start sooner.
  let launching: Promise<typeof import("./launch.js")> | undefined;
  const config = await loadMcpConfiguration({
    cwd: options.cwd,
    settings: options.settings,
    configFiles: options.configFiles,
    strict: options.strictConfig,
    onServersNamed: () => {
      launching = import("./launch.js");
      launching.catch(() => {}); // awaited below when a server is left to start
    },
  });
  for (const diagnostic of config.diagnostics) options.log(`warning: ${formatDiagnostic(diagnostic)}`);
  if (config.servers.length === 0) return undefined;
  const { launchMcp } = await (launching ?? import("./launch.js"));
  return launchMcp(options, config);
}
