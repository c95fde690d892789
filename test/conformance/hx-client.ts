// The client command the MCP conformance suite (`@modelcontextprotocol/conformance`) runs for
// each client scenario: `tsx test/conformance/hx-client.ts <server-url>`, with the scenario in
// MCP_CONFORMANCE_SCENARIO and its context (pre-registered credentials, keys) in
// MCP_CONFORMANCE_CONTEXT. It drives the real `hx agent` against the scenario's server: the
// server is the one entry of an `--mcp-config` file, and the fake model server plays a model
// that calls each of the server's tools once, then stops. Exit code: hx's.
//
// Authorization runs as it does for a user, with one difference made for machines: the
// "browser" that opens the authorization URL is `follow-redirect.mjs` (HX_BROWSER), which
// follows the test authorization server's immediate redirect back to hx's 127.0.0.1 callback,
// as the suite's own example clients do.

import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type RecordedRequest, startFakeModelServer } from "../support/fake-model-server.js";
import { HX_BIN, hxEnv } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SERVER = "conf";

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, string>;
if (!serverUrl) {
  console.error("usage: hx-client.ts <server-url> (MCP_CONFORMANCE_SCENARIO set by the suite)");
  process.exit(2);
}

/** The server's entry: remote over Streamable HTTP, with what the scenario's context gives. */
function serverEntry(): Record<string, unknown> {
  const entry: Record<string, unknown> = { type: "http", url: serverUrl };
  const oauth: Record<string, unknown> = {};
  if (scenario === "auth/basic-cimd" || scenario.startsWith("auth/offline-access")) {
    oauth.clientMetadataUrl = "https://conformance-test.local/client-metadata.json";
  }
  if (scenario === "auth/pre-registration") {
    oauth.clientId = context.client_id;
    oauth.clientSecret = context.client_secret;
  }
  if (scenario === "auth/client-credentials-basic") {
    Object.assign(oauth, {
      grant: "client_credentials",
      clientId: context.client_id,
      clientSecret: context.client_secret,
    });
  }
  if (scenario === "auth/client-credentials-jwt") {
    const keyFile = path.join(tempDir("hx-conf-key-"), "key.pem");
    writeFileSync(keyFile, context.private_key_pem ?? "", { mode: 0o600 });
    Object.assign(oauth, {
      grant: "client_credentials",
      clientId: context.client_id,
      privateKeyFile: keyFile,
      signingAlgorithm: context.signing_algorithm ?? "ES256",
    });
  }
  if (scenario === "auth/cross-app-access-complete-flow") {
    Object.assign(oauth, {
      grant: "jwt_bearer",
      clientId: context.client_id,
      clientSecret: context.client_secret,
      idp: {
        tokenEndpoint: context.idp_token_endpoint,
        clientId: context.idp_client_id,
        idToken: context.idp_id_token,
      },
    });
  }
  if (Object.keys(oauth).length > 0) entry.oauth = oauth;
  return entry;
}

/** Arguments that satisfy a tool's input schema well enough for the scenario servers. */
function argumentsFor(schema: { properties?: Record<string, { type?: string }> } | undefined) {
  const args: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema?.properties ?? {})) {
    args[key] =
      property.type === "number" || property.type === "integer"
        ? 1
        : property.type === "boolean"
          ? true
          : "x";
  }
  return args;
}

// biome-ignore lint/suspicious/noExplicitAny: wire JSON.
type Any = any;

/** Calls the first of the server's tools not called yet; says "done" when all were. */
function play(request: RecordedRequest, reply: Any): void {
  const called = new Set<string>();
  for (const message of request.body.messages as Any[]) {
    for (const call of message.tool_calls ?? []) called.add(call.function.name);
  }
  const next = ((request.body.tools ?? []) as Any[])
    .map((tool) => tool.function)
    .find((tool) => tool.name.startsWith(`mcp__${SERVER}__`) && !called.has(tool.name));
  if (next) reply.tool(next.name, argumentsFor(next.parameters));
  else reply.text("done");
}

const model = await startFakeModelServer();
model.replyWith(play);
const work = tempDir("hx-conf-work-");
const config = path.join(work, "mcp.json");
writeFileSync(config, JSON.stringify({ mcpServers: { [SERVER]: serverEntry() } }, null, 2));

const args = [
  HX_BIN,
  "agent",
  `Call each tool of the MCP server once (conformance scenario ${scenario}).`,
  "--mcp-config",
  config,
  "--permission-mode",
  "bypassPermissions",
  "--provider",
  "openai",
  "--base-url",
  `${model.url}/v1`,
  "--model",
  "conformance-model",
  "-C",
  work,
];
// A headless run declines forms unless told to answer with the defaults (what this scenario tests).
// The scripted model calls the tools of the first request: it waits for the server (OAuth
// included) instead of letting it join later, as the default mcp.startupWait would.
const home = tempDir("hx-conf-home-");
mkdirSync(path.join(home, ".hx"), { recursive: true });
writeFileSync(
  path.join(home, ".hx", "settings.json"),
  JSON.stringify({
    mcp: { startupWait: 30_000, ...(scenario.startsWith("elicitation") ? { elicitation: "defaults" } : {}) },
  }),
);
const env = hxEnv({
  HOME: home,
  OPENAI_API_KEY: "sk-test",
  HX_BROWSER: `${process.execPath} ${path.join(HERE, "follow-redirect.mjs")}`,
});
const child = spawn(process.execPath, args, { env, stdio: ["ignore", "inherit", "inherit"] });
const code = await new Promise<number>((resolve) => child.on("close", (c) => resolve(c ?? 1)));
await model.close();
process.exit(code);
