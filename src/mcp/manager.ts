import type { ApprovalState } from "./approvals.js";
import type { McpClientFeatures } from "./client-features.js";
import { describeEntry, type McpServerDefinition, resolveTransport } from "./config.js";
import { type ConnectionAuth, type ConnectionEvent, McpConnection } from "./connection.js";
import type { ServerLauncher } from "./server-launcher.js";
import { type ServerStartTimes, serverStartKey } from "./start-times.js";

/** One configured server and what became of it. */
export interface McpServerState {
  definition: McpServerDefinition;
  approval: ApprovalState;
  /** Set when the server was started. */
  connection?: McpConnection;
  /** Why it was not started (missing variables, not approved, disabled). */
  notStarted?: string;
}

export interface McpManagerOptions {
  servers: ReadonlyArray<{ definition: McpServerDefinition; approval: ApprovalState }>;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  clientVersion: string;
  startupTimeoutMs: number;
  /** How stdio servers are started (in the OS sandbox); default as they are. */
  launch?: ServerLauncher;
  /** OAuth for remote servers (the token file, who may authorize). */
  auth?: ConnectionAuth;
  /** What the servers may ask hx (elicitation, roots, sampling). */
  features?: McpClientFeatures;
  /** `mcp.maxMessageBytes` for stdio servers. */
  maxMessageBytes?: number;
  /** A line for the user: a server failed, died, was restarted. */
  notify?: (level: "info" | "warn", text: string) => void;
  /** How long each server took to start last time (`waitForStart` skips the wait for a slow one). */
  startTimes?: ServerStartTimes;
}

/**
 * Every MCP server of a session: starts the approved ones in parallel, tells the user when one
 * fails or dies, and closes them all at the end (and kills what is left if hx exits first).
 */
export class McpManager {
  readonly states: McpServerState[];
  private readonly onExit = () => {
    this.saveStartTimes();
    this.killAll();
  };
  private exitHandlerSet = false;

  constructor(private readonly options: McpManagerOptions) {
    this.states = options.servers.map(({ definition, approval }) => ({ definition, approval }));
  }

  /** Starts every startable server; returns at once (see `waitForStart`). */
  start(): void {
    for (const state of this.states) this.startOne(state);
  }

  /** Starts servers that were just approved. */
  approve(names: readonly string[]): void {
    for (const state of this.states) {
      if (!names.includes(state.definition.name) || state.connection) continue;
      state.approval = "approved";
      state.notStarted = undefined;
      this.startOne(state);
    }
  }

  /** Marks servers declined (they stay off; `/mcp` says so). */
  decline(names: readonly string[]): void {
    for (const state of this.states) {
      if (!names.includes(state.definition.name) || state.connection) continue;
      state.approval = "declined";
      state.notStarted = notStartedReason("declined");
    }
  }

  private startOne(state: McpServerState): void {
    const reason = notStartedReason(state.approval);
    if (reason) {
      state.notStarted = reason;
      return;
    }
    const resolved = resolveTransport(state.definition.entry, this.options.env);
    if ("missing" in resolved) {
      const names = resolved.missing;
      state.notStarted = `missing environment variable${names.length > 1 ? "s" : ""} ${names.join(", ")} (set ${names.length > 1 ? "them" : "it"} or give a default: \${VAR:-value})`;
      this.options.notify?.(
        "warn",
        `MCP server '${state.definition.name}' was not started: ${state.notStarted}.`,
      );
      return;
    }
    const name = state.definition.name;
    state.connection = new McpConnection(name, resolved.transport, {
      cwd: this.options.cwd,
      clientVersion: this.options.clientVersion,
      startupTimeoutMs: this.options.startupTimeoutMs,
      launch: this.options.launch,
      auth: this.options.auth,
      features: this.options.features,
      maxMessageBytes: this.options.maxMessageBytes,
      onEvent: (event) => this.report(name, event),
    });
    void state.connection.start();
    if (!this.exitHandlerSet) {
      this.exitHandlerSet = true;
      process.on("exit", this.onExit);
    }
  }

  /**
   * Waits until every started server is ready or failed, or `boundMs` passed since it was
   * started: servers start before the session is assembled, and the time that took (on a busy
   * machine, with the servers booting beside it) counts against the bound. A server that took
   * longer than `boundMs` to start last time is not waited for at all.
   */
  async waitForStart(boundMs?: number): Promise<void> {
    await Promise.all(
      this.states.map((state) => {
        const c = state.connection;
        if (!c) return undefined;
        if (boundMs === undefined) return c.whenSettled();
        const last = this.options.startTimes?.expected(this.startKey(state));
        return c.whenSettled(
          last !== undefined && last > boundMs ? 0 : Math.max(0, boundMs - c.sinceStart()),
        );
      }),
    );
  }

  private startKey(state: McpServerState): string {
    return serverStartKey(state.definition.name, describeEntry(state.definition.entry), this.options.cwd);
  }

  connections(): McpConnection[] {
    return this.states.flatMap((s) => (s.connection ? [s.connection] : []));
  }

  async close(): Promise<void> {
    process.off("exit", this.onExit);
    this.exitHandlerSet = false;
    this.saveStartTimes();
    await Promise.all(this.connections().map((c) => c.close()));
  }

  /** Writes the start times seen (at the close, or as hx exits without one: a closed terminal). */
  private saveStartTimes(): void {
    const times = this.options.startTimes;
    if (!times) return;
    // A server still starting takes at least this long (never less than known).
    for (const state of this.states) {
      const c = state.connection;
      if (c?.status === "starting") times.recordAtLeast(this.startKey(state), c.sinceStart());
    }
    times.save();
  }

  private report(name: string, event: ConnectionEvent): void {
    const state = this.states.find((s) => s.definition.name === name);
    if (event.type === "ready" && state?.connection)
      this.options.startTimes?.record(this.startKey(state), state.connection.sinceStart());
    if (event.type === "restarted") {
      this.options.notify?.("warn", `MCP server '${name}' exited and was restarted.`);
    } else if (event.type === "failed" && state?.connection?.needsLogin) {
      this.options.notify?.("warn", `${event.error}.`); // one line: the server and the command
    } else if (event.type === "failed") {
      const what = state ? ` (${describeEntry(state.definition.entry)})` : "";
      this.options.notify?.(
        "warn",
        `MCP server '${name}'${what} ${event.crashed ? "stopped" : "failed to start"}: ${event.error}. Its tools are unavailable; run /mcp or hx mcp list to check it.`,
      );
    }
  }

  /** At process exit: whatever is still running gets SIGKILL (synchronous, no orphans). */
  private killAll(): void {
    for (const connection of this.connections()) connection.kill();
  }
}

function notStartedReason(approval: ApprovalState): string | undefined {
  switch (approval) {
    case "pending":
      return "waiting for approval (run hx in a terminal once, or hx mcp approve NAME)";
    case "declined":
      return "declined for this project (hx mcp approve NAME to start it)";
    case "disabled":
      return "disabled in the settings";
    default:
      return undefined;
  }
}
