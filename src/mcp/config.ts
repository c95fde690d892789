import { createHash } from "node:crypto";
import * as z from "zod";
import type { Diagnostic } from "../core/diagnostic.js";
import { expandAll, expandVariables } from "./expand.js";

/**
 * Where a server was configured. `user` (~/.hx/settings.json) and `flag` (--mcp-config) are the
 * user's own and start at once; `project` (.mcp.json, .hx/settings.json) and `local`
 * (.hx/settings.local.json) come with the repository and start only once approved.
 */
export type McpScope = "user" | "project" | "local" | "flag";

/** One server entry as written in `.mcp.json` or `mcpServers` (Claude Code's shape). */
const McpServerEntrySchema = z.union([
  z.looseObject({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    timeout: z.number().positive().optional(),
    disabled: z.boolean().optional(),
    /** false: run this server outside the OS sandbox. */
    sandbox: z.boolean().optional(),
  }),
  z.looseObject({
    type: z.enum(["http", "streamable-http", "sse"]).optional(),
    url: z.string().min(1),
    headers: z.record(z.string(), z.string()).optional(),
    timeout: z.number().positive().optional(),
    disabled: z.boolean().optional(),
    /** OAuth client settings (docs/mcp.md#oauth), or false: never authorize this server. */
    oauth: z
      .union([
        z.literal(false),
        z.object({
          clientId: z.string().min(1).optional(),
          clientSecret: z.string().min(1).optional(),
          clientMetadataUrl: z.string().url().optional(),
          scope: z.string().optional(),
          callbackPort: z.number().int().min(0).max(65535).optional(),
          grant: z.enum(["authorization_code", "client_credentials", "jwt_bearer"]).optional(),
          idp: z
            .object({
              tokenEndpoint: z.string().url(),
              clientId: z.string().min(1),
              idToken: z.string().min(1),
            })
            .optional(),
          privateKeyFile: z.string().min(1).optional(),
          signingAlgorithm: z.string().min(1).optional(),
          issuer: z.string().url().optional(),
        }),
      ])
      .optional(),
  }),
]);

/** A remote entry's `oauth`: a pre-registered client, a metadata document URL, client credentials. */
export interface McpOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** An https URL whose document describes hx as a client (SEP-991): used as the client_id. */
  clientMetadataUrl?: string;
  /** Scopes to ask for when neither the challenge nor the server's metadata names any. */
  scope?: string;
  /** The 127.0.0.1 port of the callback (a pre-registered client's redirect URI); default any. */
  callbackPort?: number;
  grant?: "authorization_code" | "client_credentials" | "jwt_bearer";
  /**
   * jwt_bearer (enterprise-managed authorization, SEP-990): the identity provider's token
   * endpoint, hx's client ID there, and the user's ID token, exchanged for an ID-JAG assertion.
   */
  idp?: { tokenEndpoint: string; clientId: string; idToken: string };
  /** private_key_jwt: a PEM file holding the client's private key. */
  privateKeyFile?: string;
  signingAlgorithm?: string;
  /** The authorization server the client is registered with; credentials are sent only there. */
  issuer?: string;
}

/** A stdio server: a program hx starts and talks to over stdin/stdout. */
export interface McpStdioEntry {
  type?: "stdio";
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Per-call timeout in ms. */
  timeout?: number;
  disabled?: boolean;
  /** false: the server runs outside the OS sandbox (default: inside, where the OS has one). */
  sandbox?: boolean;
}

/** A remote server: Streamable HTTP (falling back to SSE) or SSE. */
interface McpRemoteEntry {
  type?: "http" | "streamable-http" | "sse";
  url: string;
  headers?: Record<string, string>;
  timeout?: number;
  disabled?: boolean;
  oauth?: McpOAuthOptions | false;
}

export type McpServerEntry = McpStdioEntry | McpRemoteEntry;

export function isStdioEntry(entry: McpServerEntry): entry is McpStdioEntry {
  return typeof (entry as McpStdioEntry).command === "string";
}

export interface McpServerDefinition {
  /** The name as configured: tools are `mcp__<name>__<tool>`. */
  name: string;
  entry: McpServerEntry;
  scope: McpScope;
  /** The file it came from. */
  file: string;
  /** Digest of the entry as written (before expansion): an approval holds for these bytes only. */
  digest: string;
}

/** A definition with `${VAR}` expanded: what is started. */
export type McpTransportConfig =
  | {
      type: "stdio";
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd?: string;
      /** false: the entry opts out of the OS sandbox. */
      sandbox?: boolean;
    }
  | {
      type: "http" | "sse";
      url: string;
      headers: Record<string, string>;
      /** false: the entry turned OAuth off (or sends its own Authorization header). */
      oauth?: McpOAuthOptions | false;
    };

/** Server names become part of tool names; keep them to what every provider accepts. */
const NAME = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * Reads one `mcpServers` object. Bad entries are reported and skipped; the others are kept, so
 * one typo does not take every server down.
 */
export function parseServerEntries(
  raw: unknown,
  origin: { file: string; scope: McpScope; keyPath?: string },
): { servers: McpServerDefinition[]; diagnostics: Diagnostic[] } {
  const keyPath = origin.keyPath ?? "mcpServers";
  const diagnostics: Diagnostic[] = [];
  const servers: McpServerDefinition[] = [];
  if (raw === undefined) return { servers, diagnostics };
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    diagnostics.push({
      level: "error",
      code: "mcp.servers.type",
      file: origin.file,
      keyPath,
      message: `${keyPath} must be an object of servers by name, e.g. {"fs": {"command": "npx", "args": [...]}}; ignored.`,
    });
    return { servers, diagnostics };
  }
  for (const [name, value] of Object.entries(raw)) {
    const where = `${keyPath}.${name}`;
    if (!NAME.test(name)) {
      diagnostics.push({
        level: "error",
        code: "mcp.server.name",
        file: origin.file,
        keyPath: where,
        message: `MCP server name '${name}' may only use letters, digits, '_' and '-' (at most 40); rename it. It was not started.`,
      });
      continue;
    }
    const parsed = McpServerEntrySchema.safeParse(value);
    if (!parsed.success) {
      diagnostics.push({
        level: "error",
        code: "mcp.server.invalid",
        file: origin.file,
        keyPath: where,
        message: `MCP server '${name}' needs "command" (a program to run, with "args" and "env") or "url" (with "type": "http" or "sse"); it was not started.`,
      });
      continue;
    }
    servers.push({
      name,
      entry: parsed.data as McpServerEntry,
      scope: origin.scope,
      file: origin.file,
      digest: digestOf(value),
    });
  }
  return { servers, diagnostics };
}

/** `sha256:<hex>` of the entry's JSON with keys sorted, so formatting changes do not count. */
export function digestOf(value: unknown): string {
  return `sha256:${createHash("sha256").update(stableJson(value)).digest("hex")}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Expands `${VAR}` / `${VAR:-default}` in command, args, env, cwd, url and headers. A variable
 * without a default that is not set is an error: the server is not started with a hole in it.
 */
export function resolveTransport(
  entry: McpServerEntry,
  env: Readonly<Record<string, string | undefined>>,
): { transport: McpTransportConfig } | { missing: string[] } {
  const missing = new Set<string>();
  const one = (text: string) => {
    const expansion = expandVariables(text, env);
    for (const name of expansion.missing) missing.add(name);
    return expansion.value;
  };
  let transport: McpTransportConfig;
  if (isStdioEntry(entry)) {
    transport = {
      type: "stdio",
      command: one(entry.command),
      args: expandAll(entry.args ?? [], env, missing),
      env: expandAll(entry.env ?? {}, env, missing),
      ...(entry.cwd !== undefined ? { cwd: one(entry.cwd) } : {}),
      ...(entry.sandbox === false ? { sandbox: false } : {}),
    };
  } else {
    transport = {
      type: entry.type === "sse" ? "sse" : "http",
      url: one(entry.url),
      headers: expandAll(entry.headers ?? {}, env, missing),
      ...(entry.oauth === false
        ? { oauth: false as const }
        : entry.oauth
          ? {
              oauth: Object.fromEntries(
                Object.entries(entry.oauth).map(([key, value]) => [key, expandValue(value, one)]),
              ) as McpOAuthOptions,
            }
          : {}),
    };
  }
  return missing.size > 0 ? { missing: [...missing] } : { transport };
}

/** `${VAR}` in a string, or in each string of a nested object (`oauth.idp`). */
function expandValue(value: unknown, one: (text: string) => string): unknown {
  if (typeof value === "string") return one(value);
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, expandValue(inner, one)]));
  }
  return value;
}

/** `npx -y pkg` or the URL: how a server is shown to the user. */
export function describeEntry(entry: McpServerEntry): string {
  if (isStdioEntry(entry)) return [entry.command, ...(entry.args ?? [])].join(" ");
  return `${entry.type === "sse" ? "sse" : "http"} ${entry.url}`;
}
