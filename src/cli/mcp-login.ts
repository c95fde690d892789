import os from "node:os";
import { describeEntry, isStdioEntry, type McpServerDefinition, resolveTransport } from "../mcp/config.js";
import { McpConnection } from "../mcp/connection.js";
import { AuthStore, authFile, authKey, browserAuthorizer, loadMcpConfiguration } from "../mcp/index.js";
import { resolveRun } from "./prepare-run.js";
import { VERSION } from "./version.js";

/** How long `hx mcp login` waits for the server to close before it exits anyway. */
const CLOSE_WAIT_MS = 3000;
const out = (text: string) => process.stdout.write(`${text}\n`);
const err = (text: string) => process.stderr.write(`${text}\n`);

/** The remote server `name` as configured, with its URL expanded; or the line saying why not. */
async function remoteServer(
  cwd: string,
  name: string,
  mcpConfig?: string[],
): Promise<{ definition: McpServerDefinition; url: string; settingsBrowser?: string } | string> {
  const resolved = await resolveRun({ cwd }, err);
  const config = await loadMcpConfiguration({
    cwd: resolved.cwd,
    settings: resolved.settings,
    configFiles: mcpConfig,
  });
  const definition = config.servers.find((d) => d.name === name);
  if (!definition) {
    const names = config.servers.map((d) => d.name);
    return `No MCP server '${name}' is configured here${names.length ? ` (configured: ${names.join(", ")})` : ""}; hx mcp list shows them.`;
  }
  if (isStdioEntry(definition.entry)) {
    return `MCP server '${name}' runs on this machine (${describeEntry(definition.entry)}); only remote (http, sse) servers use OAuth.`;
  }
  const resolvedTransport = resolveTransport(definition.entry, process.env);
  if ("missing" in resolvedTransport) {
    return `MCP server '${name}' needs the environment variable${resolvedTransport.missing.length > 1 ? "s" : ""} ${resolvedTransport.missing.join(", ")} first.`;
  }
  return {
    definition,
    url: resolvedTransport.transport.type === "stdio" ? "" : resolvedTransport.transport.url,
    settingsBrowser: resolved.settings.merged.mcp?.browser,
  };
}

/**
 * `hx mcp login NAME`: connects to the remote server and, when it asks for OAuth, authorizes
 * hx in the browser (the URL is printed too; the answer comes back to 127.0.0.1). The tokens
 * go to ~/.hx/mcp-auth.json (0600), where sessions, headless ones included, find them.
 */
export async function loginServer(
  cwd: string,
  name: string,
  options: { mcpConfig?: string[] },
): Promise<number> {
  const found = await remoteServer(cwd, name, options.mcpConfig);
  if (typeof found === "string") {
    err(found);
    return 1;
  }
  const resolved = resolveTransport(found.definition.entry, process.env);
  if ("missing" in resolved || resolved.transport.type === "stdio") return 1;
  if (resolved.transport.oauth === false) {
    err(`MCP server '${name}' has "oauth": false in its entry; hx does not authorize it.`);
    return 1;
  }
  const store = new AuthStore(authFile(os.homedir()));
  let authorized = false;
  const connection = new McpConnection(name, resolved.transport, {
    cwd,
    clientVersion: VERSION,
    startupTimeoutMs: 330_000, // the browser step may take minutes
    auth: {
      store,
      fresh: true, // the user asked to authorize: a working token is replaced (and kept until then)
      authorizer: browserAuthorizer({
        command: process.env.HX_BROWSER ?? found.settingsBrowser,
        interactive: true,
        print: err,
      }),
      onAuthorized: () => {
        authorized = true;
      },
    },
  });
  try {
    await connection.start();
    if (connection.status !== "ready") {
      err(`Could not log in to MCP server '${name}': ${connection.error ?? connection.status}.`);
      return 1;
    }
    if (authorized)
      out(`Logged in to MCP server '${name}'. The token is kept in ${store.file} (only you can read it).`);
    else out(`MCP server '${name}' did not ask for authorization; there is nothing to log in to.`);
    return 0;
  } finally {
    await Promise.race([
      connection.close(),
      new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref()),
    ]);
  }
}

/** `hx mcp logout NAME`: forgets the server's tokens and client registration. */
export async function logoutServer(
  cwd: string,
  name: string,
  options: { mcpConfig?: string[] },
): Promise<number> {
  const store = new AuthStore(authFile(os.homedir()));
  const found = await remoteServer(cwd, name, options.mcpConfig);
  // Records of this name under any URL (the server may have moved since).
  const keys = store.keys().filter((key) => key.startsWith(`${name} `));
  if (typeof found !== "string") keys.push(authKey(name, found.url));
  let forgot = false;
  for (const key of new Set(keys)) forgot = (await store.forget(key)) || forgot;
  if (forgot)
    out(
      `Logged out of MCP server '${name}': its tokens and client registration were removed from ${store.file}.`,
    );
  else out(`Nothing stored for MCP server '${name}'.`);
  return 0;
}
