import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { monotonicMs } from "../core/clock.js";
import { clientCapabilities, installClientFeatures, type McpClientFeatures } from "./client-features.js";
import type { McpTransportConfig } from "./config.js";
import type { OAuthSession } from "./oauth-fetch.js";
import type { Authorizer } from "./oauth-provider.js";
import type { AuthStore } from "./oauth-store.js";
import { checkInputSchema } from "./schema-check.js";
import { plainLauncher, type ServerLauncher } from "./server-launcher.js";
import type { ServerProcess } from "./server-process.js";
import type { ServerPlacement } from "./server-sandbox.js";
import { SKILLS_EXTENSION } from "./skills-wire.js";
import { OVERSIZED_MESSAGE_CODE } from "./stdio-lines.js";

/** A tool as the server listed it (only well-formed ones; see `skipped`). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** What `structuredContent` must look like (checked on each result). */
  outputSchema?: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
}

export interface McpPromptInfo {
  name: string;
  description?: string;
  arguments: Array<{ name: string; description?: string; required?: boolean }>;
}

export type ConnectionStatus = "starting" | "ready" | "restarting" | "failed" | "closed";

/** What a connection reports to whoever manages it. */
export type ConnectionEvent =
  | { type: "ready" }
  | { type: "changed"; list: "tools" | "prompts" | "resources" }
  | { type: "restarted" }
  | { type: "failed"; error: string; crashed: boolean };

export interface ConnectionOptions {
  /** The folder stdio servers run in when their entry names none. */
  cwd: string;
  clientVersion: string;
  /** Connecting and `initialize` together; default 30 s. */
  startupTimeoutMs: number;
  onEvent?: (event: ConnectionEvent) => void;
  /** How stdio servers are started (the session's: in the OS sandbox); default as they are. */
  launch?: ServerLauncher;
  /** OAuth for remote servers: the token file and who may authorize; without it, none. */
  auth?: ConnectionAuth;
  /** What hx answers when the server asks (elicitation, roots, sampling); declared at initialize. */
  features?: McpClientFeatures;
  /** The largest message a stdio server may send (`mcp.maxMessageBytes`); default 10 MiB. */
  maxMessageBytes?: number;
}

/** The default cap on one message from a stdio server: the SDK's own (10 MiB). */
const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface ConnectionAuth {
  store: AuthStore;
  authorizer: Authorizer;
  /** `hx mcp login`: authorize afresh even when a stored token works. */
  fresh?: boolean;
  /** An authorization finished (discovery, registration, tokens), in ms. */
  onAuthorized?: (server: string, ms: number) => void;
}

/** An error a tool result can carry as it is: the message says what happened and what to do. */
export class McpCallError extends Error {
  constructor(
    message: string,
    /** The server was lost during the call: the call may or may not have had an effect. */
    readonly connectionLost = false,
  ) {
    super(message);
    this.name = "McpCallError";
  }
}

const STDERR_LINES = 20;
/** How long a remote server has to answer a ping after its stream broke. */
const STREAM_PROBE_MS = 3000;
/** Resources listed at start at most (a filesystem server may have many). */
const RESOURCE_LIMIT = 500;

/** Lenient list shapes: each item is checked on its own, so one bad tool does not hide the rest. */
const LooseList = (key: string) =>
  z.looseObject({ [key]: z.array(z.unknown()), nextCursor: z.string().optional() });

/**
 * One page of a list (`prompts/list`, `resources/list`...), items checked by the caller one by
 * one: the SDK's own result schemas cost tens of ms of CPU per server at start-up (the
 * reference servers list a hundred resources), taken from the servers still starting.
 */
async function looseList(
  client: Client,
  method: string,
  key: string,
  cursor: string | undefined,
): Promise<{ items: unknown[]; nextCursor: string | undefined }> {
  const page = await client.request({ method, params: cursor ? { cursor } : {} }, LooseList(key));
  const items = page[key];
  return {
    items: Array.isArray(items) ? items : [],
    nextCursor: typeof page.nextCursor === "string" ? page.nextCursor : undefined,
  };
}

function isPromptArgument(value: unknown): value is McpPromptInfo["arguments"][number] {
  const arg = value as { name?: unknown; description?: unknown; required?: unknown } | null;
  return (
    typeof arg?.name === "string" &&
    (arg.description === undefined || typeof arg.description === "string") &&
    (arg.required === undefined || typeof arg.required === "boolean")
  );
}

/**
 * One MCP server: starts it (stdio, or Streamable HTTP falling back to SSE), lists its tools
 * and prompts, makes calls with a timeout and cancellation, and restarts it once when it dies.
 * The SDK is imported here, on first use, so hx without servers never loads it.
 */
export class McpConnection {
  status: ConnectionStatus = "starting";
  /** Why the server is not running (failed), for `/mcp` and error results. */
  error?: string;
  tools: McpToolInfo[] = [];
  prompts: McpPromptInfo[] = [];
  /** The server's resources (the first RESOURCE_LIMIT), for `/mcp` and `hx mcp list`. */
  resources: Array<{ uri: string; name: string }> = [];
  /** The server's resource templates (RFC 6570 URI templates the model fills to read). */
  resourceTemplates: Array<{ uriTemplate: string; name: string; description?: string }> = [];
  /** Tools that were not offered to the model, with the reason. */
  skipped: Array<{ tool: string; reason: string }> = [];
  instructions?: string;
  /** Whether the server declared the Skills extension (`skills/list`, `skills/get`). */
  servesSkills = false;
  servesResources = false;
  /** The last lines the server wrote to stderr (stdio). */
  readonly stderr: string[] = [];
  /** The server wants OAuth authorization hx could not get in this run (`hx mcp login NAME`). */
  needsLogin = false;
  /** Bumped each time `tools` was listed again after `notifications/tools/list_changed`. */
  toolsVersion = 0;
  /** Lists being fetched again after a list_changed notification (awaited before a request). */
  private relisting = new Set<Promise<void>>();
  private client?: Client;
  private closeCallback?: () => void;
  private uninstallFeatures?: () => void;
  private transport?: Transport;
  private process?: ServerProcess;
  private restarts = 0;
  private closing = false;
  private ready: Promise<void>;
  private startedAt?: number;
  private resolveReady!: () => void;

  constructor(
    readonly name: string,
    readonly config: McpTransportConfig,
    private readonly options: ConnectionOptions,
  ) {
    this.ready = new Promise((resolve) => {
      this.resolveReady = resolve;
    });
  }

  /** Starts the server; resolves when it is ready or has failed (never rejects). */
  start(): Promise<void> {
    this.startedAt = monotonicMs();
    this.connect().then(
      () => this.settle({ type: "ready" }),
      (error) => this.fail(describeError(error), false),
    );
    return this.ready;
  }

  /** Milliseconds since `start()` (0 before it). */
  sinceStart(): number {
    return this.startedAt === undefined ? 0 : monotonicMs() - this.startedAt;
  }

  /** Resolves once the server is ready or has failed, or after `ms`. */
  async whenSettled(ms?: number): Promise<void> {
    if (ms === undefined) return this.ready;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.ready, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** Whether the OS sandbox holds the server's process (stdio, once launched). */
  get placement(): ServerPlacement | undefined {
    return this.process?.placement;
  }

  /** At process exit: SIGKILL to the server's process group (synchronous). */
  kill(): void {
    this.process?.signal("SIGKILL");
  }

  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<CallToolResult> {
    const call = async () => {
      const client = await this.usableClient();
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: options.signal,
        timeout: options.timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: () => {},
      })) as CallToolResult;
    };
    try {
      return await call();
    } catch (error) {
      // Never sent (the server was down, or restarted and forgot the session): reconnect, try once more.
      if (!notDelivered(error) || options.signal.aborted)
        throw this.callError(error, options, `the call of ${tool}`);
      await this.reconnect();
      try {
        return await call();
      } catch (again) {
        throw this.callError(again, options, `the call of ${tool}`);
      }
    }
  }

  /**
   * A remote server's connection after a request that never reached it: a new session (the
   * one restart), so a server that came back is used again and one that did not fails.
   */
  private async reconnect(): Promise<void> {
    if (this.status === "ready" && this.client) this.onConnectionClosed(this.client);
    await this.ready;
  }

  async getPrompt(
    prompt: string,
    args: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    const client = await this.usableClient();
    try {
      return await client.getPrompt({ name: prompt, arguments: args }, { signal });
    } catch (error) {
      throw this.callError(error, { signal, timeoutMs: 60_000 }, `the prompt ${prompt}`);
    }
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = await this.usableClient();
    try {
      return await client.readResource({ uri }, { signal });
    } catch (error) {
      throw this.callError(error, { signal, timeoutMs: 60_000 }, `reading ${uri}`);
    }
  }

  /** A request of a method the SDK has no helper for (`skills/list`), its result checked leniently. */
  async request(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const client = await this.usableClient();
    try {
      return await client.request({ method, params }, z.looseObject({}), { signal });
    } catch (error) {
      throw this.callError(error, { signal, timeoutMs: 60_000 }, method);
    }
  }

  /** Stops the server: stdin closed and SIGTERM at once, SIGKILL after a grace (stdio); the session ended (HTTP). */
  async close(): Promise<void> {
    this.closing = true;
    this.status = "closed";
    this.resolveReady();
    this.closeCallback?.();
    this.uninstallFeatures?.();
    await this.disconnect();
  }

  private async connect(): Promise<void> {
    // A stdio server is spawned before the SDK is loaded, so it boots while hx loads it.
    const launching = this.config.type === "stdio" ? this.spawn(this.config) : undefined;
    launching?.catch(() => {}); // awaited below, after the SDK import
    const sdk = await import("@modelcontextprotocol/sdk/client/index.js");
    const proc = await launching;
    await this.abandonIfClosing();
    const makeClient = async () => {
      const made = new sdk.Client(
        { name: "hx", version: this.options.clientVersion },
        {
          capabilities: clientCapabilities(this.options.features),
          jsonSchemaValidator: { getValidator: acceptAnything },
        },
      );
      this.uninstallFeatures?.();
      this.uninstallFeatures = await installClientFeatures(made, this.name, this.options.features);
      return made;
    };
    const timeout = this.options.startupTimeoutMs;
    let client = await makeClient();
    this.transport = proc
      ? proc.transport(
          await import("@modelcontextprotocol/sdk/shared/stdio.js"),
          this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
        )
      : await this.createRemoteTransport(this.config.type === "sse" ? "sse" : "http");
    await this.abandonIfClosing();
    try {
      await withTimeout(client.connect(this.transport, { timeout }), timeout, "did not finish starting");
    } catch (error) {
      await this.disconnect();
      if (this.config.type !== "http" || !shouldTrySse(error)) throw this.noteLogin(error);
      client = await makeClient();
      this.transport = await this.createRemoteTransport("sse");
      try {
        await withTimeout(client.connect(this.transport, { timeout }), timeout, "did not finish starting");
      } catch {
        await this.disconnect();
        throw this.noteLogin(error);
      }
    }
    this.client = client;
    client.onclose = () => this.onConnectionClosed(client);
    if (this.config.type !== "stdio") this.watchStream(client, this.transport);
    const capabilities = client.getServerCapabilities() ?? {};
    this.instructions = client.getInstructions();
    this.servesResources = capabilities.resources !== undefined;
    this.servesSkills = Boolean(
      (capabilities as { extensions?: Record<string, unknown> }).extensions?.[SKILLS_EXTENSION],
    );
    await this.followListChanges(client);
    await Promise.all([
      capabilities.tools ? this.listTools(client) : undefined,
      capabilities.prompts ? this.listPrompts(client).catch(() => {}) : undefined,
      capabilities.resources ? this.listResources(client).catch(() => {}) : undefined,
      capabilities.resources ? this.listResourceTemplates(client).catch(() => {}) : undefined,
    ]);
  }

  /**
   * Lists tools, prompts or resources again when the server says they changed
   * (`notifications/tools/list_changed` and the like); a failed re-list keeps the old list.
   */
  private async followListChanges(client: Client): Promise<void> {
    const types = await import("@modelcontextprotocol/sdk/types.js");
    const follow = (list: "tools" | "prompts" | "resources", fetch: () => Promise<void>) => () => {
      if (client !== this.client) return;
      const done = fetch()
        .then(() => {
          if (list === "tools") this.toolsVersion += 1;
          this.options.onEvent?.({ type: "changed", list });
        })
        .catch(() => {})
        .finally(() => this.relisting.delete(done));
      this.relisting.add(done);
    };
    client.setNotificationHandler(
      types.ToolListChangedNotificationSchema,
      follow("tools", () => this.listTools(client)),
    );
    client.setNotificationHandler(
      types.PromptListChangedNotificationSchema,
      follow("prompts", () => this.listPrompts(client)),
    );
    client.setNotificationHandler(
      types.ResourceListChangedNotificationSchema,
      follow("resources", async () => {
        await this.listResources(client);
        await this.listResourceTemplates(client).catch(() => {});
      }),
    );
  }

  /**
   * An HTTP server has no process to watch, and a response stream that breaks (the server
   * died mid-call) leaves the SDK's request waiting for its timeout. When the transport
   * reports an error, a ping tells whether the server is still there; if not, the
   * connection is closed, which fails the calls in flight at once ("stopped during").
   */
  private watchStream(client: Client, transport: Transport | undefined): void {
    if (!transport) return;
    const reported = transport.onerror;
    let probing = false;
    transport.onerror = (error) => {
      reported?.call(transport, error);
      if (probing || client !== this.client || this.closing) return;
      probing = true;
      client
        .ping({ timeout: STREAM_PROBE_MS })
        .catch((error) => {
          // Any JSON-RPC answer (even "no such method") means the server is there; no answer
          // in time (-32001) or a failed request means it is gone.
          const code = (error as { code?: unknown }).code;
          const answered = typeof code === "number" && code !== -32001 && code > -33000 && code < 0;
          if (!answered && client === this.client) void client.close();
        })
        .finally(() => {
          probing = false;
        });
    };
  }

  /** Waits (at most `ms`) for lists being fetched again after a change notification. */
  async listsSettled(ms = 2000): Promise<void> {
    if (this.relisting.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.relisting),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
    clearTimeout(timer);
  }

  private async spawn(config: Extract<McpTransportConfig, { type: "stdio" }>): Promise<ServerProcess> {
    const proc = await (this.options.launch ?? plainLauncher)({
      name: this.name,
      config,
      cwd: config.cwd ?? this.options.cwd,
      onStderr: (text) => this.keepStderr(text),
    });
    this.process = proc;
    return proc;
  }

  private async createRemoteTransport(kind: "http" | "sse"): Promise<Transport> {
    const config = this.config;
    if (config.type === "stdio") throw new Error("not a remote server");
    const url = new URL(config.url);
    const headers = config.headers;
    const authFetch = await this.authorizedFetch();
    const base = authFetch ?? fetch;
    if (kind === "sse") {
      const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
      return new SSEClientTransport(url, {
        requestInit: { headers },
        ...(authFetch ? { fetch: authFetch } : {}),
        eventSourceInit: {
          fetch: (input, init) =>
            base(input, { ...init, headers: { ...(init?.headers as object), ...headers } }),
        },
      });
    }
    const { StreamableHTTPClientTransport } = await import(
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    );
    return new StreamableHTTPClientTransport(url, {
      requestInit: { headers },
      ...(authFetch ? { fetch: authFetch } : {}),
    });
  }

  /**
   * The OAuth fetch of a remote server (see oauth-fetch.ts), unless the entry turned OAuth off
   * or sends its own Authorization header. Made once per connection: a restart keeps it.
   */
  private authSession?: OAuthSession;
  private async authorizedFetch() {
    const config = this.config;
    const auth = this.options.auth;
    if (config.type === "stdio" || !auth || config.oauth === false) return undefined;
    if (Object.keys(config.headers).some((name) => name.toLowerCase() === "authorization")) return undefined;
    const [{ oauthFetch }, { StoredOAuthProvider }, { LoopbackCallback }, { authKey }] = await Promise.all([
      import("./oauth-fetch.js"),
      import("./oauth-provider.js"),
      import("./oauth-callback.js"),
      import("./oauth-store.js"),
    ]);
    if (!this.authSession) {
      const callback = new LoopbackCallback();
      this.closeCallback = () => callback.close();
      const provider = new StoredOAuthProvider(
        this.name,
        authKey(this.name, config.url),
        config.url,
        config.oauth ?? {},
        auth.store,
        auth.authorizer,
        callback,
        auth.fresh === true,
      );
      this.authSession = {
        provider,
        serverUrl: config.url,
        onAuthorized: (ms) => auth.onAuthorized?.(this.name, ms),
      };
    }
    return oauthFetch(this.authSession);
  }

  /** Marks a failure that only authorization can fix (`/mcp` and `hx mcp list` say who needs login). */
  private noteLogin(error: unknown): unknown {
    if ((error as Error)?.name === "McpNeedsLoginError") this.needsLogin = true;
    return error;
  }

  private async listTools(client: Client): Promise<void> {
    const tools: McpToolInfo[] = [];
    const skipped: Array<{ tool: string; reason: string }> = [];
    let cursor: string | undefined;
    do {
      const page = await client.request(
        { method: "tools/list", params: cursor ? { cursor } : {} },
        LooseList("tools"),
      );
      for (const raw of page.tools as unknown[]) {
        const checked = toToolInfo(raw);
        if ("reason" in checked) skipped.push(checked);
        else tools.push(checked);
      }
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    } while (cursor);
    this.tools = tools;
    this.skipped = skipped;
  }

  private async listResources(client: Client): Promise<void> {
    const resources: Array<{ uri: string; name: string }> = [];
    let cursor: string | undefined;
    do {
      const page = await looseList(client, "resources/list", "resources", cursor);
      for (const resource of page.items) {
        const { uri, name } = resource as { uri?: unknown; name?: unknown };
        if (typeof uri === "string" && typeof name === "string") resources.push({ uri, name });
      }
      cursor = page.nextCursor;
    } while (cursor && resources.length < RESOURCE_LIMIT);
    this.resources = resources.slice(0, RESOURCE_LIMIT);
  }

  private async listResourceTemplates(client: Client): Promise<void> {
    const templates: McpConnection["resourceTemplates"] = [];
    let cursor: string | undefined;
    do {
      const page = await looseList(client, "resources/templates/list", "resourceTemplates", cursor);
      for (const item of page.items) {
        const t = item as { uriTemplate?: unknown; name?: unknown; description?: unknown };
        if (typeof t.uriTemplate !== "string" || typeof t.name !== "string") continue;
        const description = typeof t.description === "string" ? t.description : undefined;
        templates.push({ uriTemplate: t.uriTemplate, name: t.name, description });
      }
      cursor = page.nextCursor;
    } while (cursor && templates.length < RESOURCE_LIMIT);
    this.resourceTemplates = templates.slice(0, RESOURCE_LIMIT);
  }

  private async listPrompts(client: Client): Promise<void> {
    const prompts: McpPromptInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await looseList(client, "prompts/list", "prompts", cursor);
      for (const item of page.items) {
        const prompt = item as { name?: unknown; description?: unknown; arguments?: unknown };
        if (typeof prompt.name !== "string") continue;
        prompts.push({
          name: prompt.name,
          description: typeof prompt.description === "string" ? prompt.description : undefined,
          arguments: Array.isArray(prompt.arguments)
            ? (prompt.arguments as unknown[]).filter(isPromptArgument)
            : [],
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
    this.prompts = prompts;
  }

  private async usableClient(): Promise<Client> {
    if (this.status === "starting" || this.status === "restarting") await this.ready;
    if (this.status !== "ready" || !this.client) {
      throw new McpCallError(
        `MCP server '${this.name}' is not running (${this.error ?? this.status}). Tell the user; /mcp shows its state.`,
      );
    }
    return this.client;
  }

  private callError(
    error: unknown,
    options: { signal?: AbortSignal; timeoutMs: number },
    what: string,
  ): McpCallError {
    if (error instanceof McpCallError) return error;
    if (options.signal?.aborted) return new McpCallError(`${what} was cancelled by the user.`);
    const code = (error as { code?: unknown }).code;
    if (code === OVERSIZED_MESSAGE_CODE) {
      const bytes = Number(describeError(error).replace(/\D/g, ""));
      const cap = this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
      return new McpCallError(
        `MCP server '${this.name}' answered ${what} with ${formatMegabytes(bytes)}, more than hx's limit of ${formatMegabytes(cap)} for one message (mcp.maxMessageBytes); the answer was dropped. Ask for less (a smaller page, a filter), or tell the user to raise mcp.maxMessageBytes.`,
      );
    }
    // -32001 is the SDK's RequestTimeout.
    if (code === -32001) {
      return new McpCallError(
        `MCP server '${this.name}' did not answer ${what} within ${Math.round(options.timeoutMs / 1000)} s; the request was cancelled. Try again later or with smaller input.`,
      );
    }
    if ((error as Error)?.name === "McpNeedsLoginError") {
      return new McpCallError(`${(error as Error).message}; ${what} was not made. Tell the user.`);
    }
    if (notDelivered(error)) {
      return new McpCallError(
        `MCP server '${this.name}' could not be reached (${describeError(error)}); ${what} was not made. Tell the user; /mcp shows its state.`,
      );
    }
    // -32000 is ConnectionClosed: the server went away while the request was open.
    if (code === -32000 || typeof code !== "number" || this.status !== "ready") {
      // An HTTP server has no process to watch: a failed request is how its loss shows.
      if (this.status === "ready" && this.client) this.onConnectionClosed(this.client);
      return new McpCallError(
        `MCP server '${this.name}' stopped during ${what}${this.status === "restarting" ? "; it is being restarted" : ""}. The call may or may not have taken effect: check before repeating it.`,
        true,
      );
    }
    return new McpCallError(`MCP server '${this.name}' refused ${what}: ${describeError(error)}`);
  }

  private onConnectionClosed(client: Client): void {
    if (this.closing || client !== this.client) return;
    this.client = undefined;
    const why = this.lastStderr() ? `: ${this.lastStderr()}` : "";
    if (this.restarts >= 1) {
      this.fail(`exited again after a restart${why}`, true);
      return;
    }
    this.restarts += 1;
    this.status = "restarting";
    this.ready = new Promise((resolve) => {
      this.resolveReady = resolve;
    });
    this.connect().then(
      () => this.settle({ type: "restarted" }),
      (error) => this.fail(`exited, and the restart failed: ${describeError(error)}`, true),
    );
  }

  private settle(event: ConnectionEvent): void {
    if (this.closing) return;
    this.needsLogin = false;
    this.status = "ready";
    this.error = undefined;
    this.resolveReady();
    this.options.onEvent?.(event);
  }

  private fail(error: string, crashed: boolean): void {
    if (this.closing) return;
    const detail = !crashed && this.lastStderr() ? ` (${this.lastStderr()})` : "";
    this.status = "failed";
    this.error = `${error}${detail}`;
    this.resolveReady();
    this.options.onEvent?.({ type: "failed", error: this.error, crashed });
    void this.disconnect();
  }

  /**
   * `close()` came while `connect()` awaited (the launcher, the SDK's import): what was made
   * since is stopped, or a server spawned after the close would run, and keep hx alive, until
   * its start-up timeout.
   */
  private async abandonIfClosing(): Promise<void> {
    if (!this.closing) return;
    await this.disconnect();
    throw new Error("closed while starting");
  }

  private async disconnect(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    if (!transport) {
      await this.process?.stop();
      return;
    }
    const terminate = (transport as { terminateSession?: () => Promise<void> }).terminateSession;
    if (terminate) await withTimeout(terminate.call(transport), 1000, "").catch(() => {});
    // A stdio transport's close stops the process group; give up waiting after 4 s.
    await withTimeout((client ?? transport).close(), 4000, "").catch(() => {});
  }

  private keepStderr(text: string): void {
    for (const line of text.split("\n")) {
      const trimmed = line.trim();
      if (!trimmed) continue;
      this.stderr.push(trimmed.length > 300 ? `${trimmed.slice(0, 299)}…` : trimmed);
      if (this.stderr.length > STDERR_LINES) this.stderr.shift();
    }
  }

  private lastStderr(): string | undefined {
    return this.stderr.at(-1);
  }
}

/** Output schemas are not checked client-side: the model reads the content either way. */
const acceptAnything = () => (input: unknown) => ({
  valid: true as const,
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's validator type is generic over T.
  data: input as any,
  errorMessage: undefined,
});

function toToolInfo(raw: unknown): McpToolInfo | { tool: string; reason: string } {
  const tool = (raw ?? {}) as Record<string, unknown>;
  const name = typeof tool.name === "string" ? tool.name : "";
  if (!name) return { tool: "(unnamed)", reason: "the tool has no name" };
  const problem = checkInputSchema(tool.inputSchema);
  if (problem) return { tool: name, reason: `its input schema is malformed (${problem})` };
  const execution = (tool.execution ?? {}) as { taskSupport?: unknown };
  if (execution.taskSupport === "required") {
    return {
      tool: name,
      reason: "it can only run as a task (execution.taskSupport: required), which hx does not support yet",
    };
  }
  const output = tool.outputSchema;
  const { $schema: _ignored, ...inputSchema } = tool.inputSchema as Record<string, unknown>;
  const annotations = (tool.annotations ?? undefined) as McpToolInfo["annotations"];
  return {
    name,
    title: typeof tool.title === "string" ? tool.title : undefined,
    description: typeof tool.description === "string" ? tool.description : "",
    inputSchema,
    ...(output && typeof output === "object" && !Array.isArray(output)
      ? { outputSchema: output as Record<string, unknown> }
      : {}),
    annotations: annotations && typeof annotations === "object" ? annotations : undefined,
  };
}

/**
 * A request that never reached the server: the connection was refused (nothing listens), or
 * the server answered 404 to the session (it restarted and forgot it; the spec's signal to
 * start a new session).
 */
function notDelivered(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } })?.cause?.code;
  if (cause === "ECONNREFUSED" || cause === "ENOTFOUND" || cause === "EHOSTUNREACH") return true;
  return (error as { code?: unknown })?.code === 404;
}

/** A Streamable HTTP endpoint that answers 4xx to the first POST may be an older SSE server. */
function shouldTrySse(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "number" && code >= 400 && code < 500 && code !== 401 && code !== 403;
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return `command not found (${(error as NodeJS.ErrnoException).path ?? ""})`.trim();
    const cause = (error.cause as NodeJS.ErrnoException | undefined)?.code;
    const message = error.message.replace(/^MCP error -?\d+: /, "");
    return cause && !message.includes(cause) ? `${message} (${cause})` : message;
  }
  return String(error);
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${message} within ${Math.round(ms / 1000)} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
