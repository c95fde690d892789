import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { LoadedSettings } from "../config/settings.js";
import type { PermissionAsker } from "../permissions/index.js";
import { ProcessGroups } from "../process/process-groups.js";
import type { ModelProvider } from "../providers/provider.js";
import type { SandboxMode, SandboxSettings } from "../sandbox/index.js";
import { createSandbox } from "../sandbox/index.js";
import { approvalState, approvalsFile, projectKey, readApprovals, recordApprovals } from "./approvals.js";
import type { McpClientFeatures } from "./client-features.js";
import { describeEntry, isStdioEntry, type McpServerDefinition } from "./config.js";
import { elicitationHandler, type FormAsker, type HeadlessElicitation } from "./elicitation.js";
import { type LineAsker, lineFormAsker } from "./elicitation-form.js";
import { McpManager } from "./manager.js";
import { browserAuthorizer } from "./oauth-browser.js";
import { AuthStore, authFile } from "./oauth-store.js";
import { type HeadlessSampling, samplingHandler } from "./sampling.js";
import { sandboxedLauncher } from "./server-launcher.js";
import { resolveServerSandbox, withPackageCaches } from "./server-sandbox.js";
import type { McpSettings, McpSettingsFragment } from "./settings.js";
import type { McpConfiguration } from "./sources.js";
import { ServerStartTimes } from "./start-times.js";
import type { SurfaceSettings } from "./tool-surface.js";

/** Defaults of `mcp` in settings (see docs/mcp.md). */
export const MCP_DEFAULTS = {
  toolBudget: 0.1,
  /**
   * How long the first request waits for servers still starting; later ones join when ready
   * (announced, and `load_mcp_tools mcp__<server>__*` waits for one). Most local servers are
   * ready sooner; `npx -y` and Docker servers join a moment later instead of holding every run.
   */
  startupWaitMs: 250,
  /** A ready server's `skills/list` (and reading its listing) before the first request. */
  skillsListMs: 3000,
  toolTimeoutMs: 300_000,
  startupTimeoutMs: 30_000,
} as const;

export interface McpSetupOptions {
  cwd: string;
  settings: LoadedSettings<McpSettingsFragment & { sandbox?: SandboxSettings }>;
  contextWindow: number;
  /** `--mcp-config` files and `--strict-mcp-config`. */
  configFiles?: string[];
  strictConfig?: boolean;
  clientVersion: string;
  log: (line: string) => void;
  /** Servers failing, dying, restarting; default: a line to `log`. */
  notify?: (level: "info" | "warn", text: string) => void;
  verbose: boolean;
  env?: Readonly<Record<string, string | undefined>>;
  homeDir?: string;
  /** `--sandbox MODE` / HX_SANDBOX: stdio servers follow it (off: not sandboxed). */
  sandboxMode?: SandboxMode;
  /** A person is at the terminal: a server that asks for OAuth may open the browser. */
  interactive?: boolean;
}

export interface McpSetup {
  manager: McpManager;
  /**
   * Asks about the project's servers that are not approved yet (headless: says how to approve
   * them and leaves them off) and starts the ones the user approves.
   */
  approve(ask: PermissionAsker | undefined, names?: readonly string[]): Promise<void>;
  /** How tools are offered, budgets and timeouts, from the settings. */
  settings: ResolvedMcpSettings;
  /** The session's model and asker, for servers' sampling requests. */
  bind(model: ModelProvider, ask: PermissionAsker | undefined, askLine?: LineAsker): void;
  close(): Promise<void>;
}

/**
 * MCP servers as one capability of a session: starts the configured servers that may start
 * (the user's own, approved project ones) at once, in parallel, before the rest of the
 * session is set up; `surface()` then waits a short bound and turns what is ready into tools.
 * Loaded only when a server is configured (start.ts decides).
 */
export function launchMcp(options: McpSetupOptions, config: McpConfiguration): McpSetup {
  const file = approvalsFile(options.homeDir ?? os.homedir());
  const project = projectKey(options.cwd);
  const store = readApprovals(file);
  const states = config.servers.map((definition) => ({
    definition,
    approval: approvalState(definition, store, project, config.trust),
  }));

  const mcp = resolveMcpSettings(options.settings.merged.mcp, options.contextWindow);
  const env = options.env ?? process.env;
  const notify =
    options.notify ?? ((level, text) => options.log(level === "warn" ? `warning: ${text}` : text));
  const policy = resolveServerSandbox({
    settings: options.settings.merged,
    flag: options.sandboxMode,
    workspaceRoot: realpathSync(options.cwd),
    home: options.homeDir,
  });
  const anyStdio = config.servers.some((d) => isStdioEntry(d.entry) && d.entry.sandbox !== false);
  const sandbox = policy.enabled && anyStdio ? createSandbox(withPackageCaches(policy.options)) : undefined;
  const groups = new ProcessGroups({ resident: true });
  const anyRemote = config.servers.some((d) => !isStdioEntry(d.entry));
  const home = options.homeDir ?? os.homedir();
  const auth = anyRemote
    ? {
        store: new AuthStore(authFile(home)),
        authorizer: browserAuthorizer({
          command: env.HX_BROWSER ?? mcp.browser,
          interactive: options.interactive === true,
          print: (line: string) => options.log(line),
        }),
        onAuthorized: options.verbose
          ? (server: string, ms: number) => options.log(`mcp: '${server}' authorized in ${Math.round(ms)} ms`)
          : undefined,
      }
    : undefined;
  // The session's model and asker exist only once the session is built (setUpMcp binds them).
  const session: { model?: ModelProvider; ask?: PermissionAsker; form?: FormAsker } = {};
  const workspace = realpathSync(options.cwd);
  const features: McpClientFeatures = {
    elicit: elicitationHandler({
      ask: () => session.form,
      headless: mcp.elicitation,
      openUrl: async (url, server) => {
        if (!auth && !session.form) return;
        await browserAuthorizer({
          command: env.HX_BROWSER ?? mcp.browser,
          interactive: true,
          print: () => {},
        }).open(url, server);
      },
      notify: (text) => notify("info", text),
    }),
    roots: {
      list: () => [{ uri: pathToFileURL(workspace).href, name: path.basename(workspace) }],
      onChange: () => () => {}, // the workspace is the only root and does not change in a session
    },
    sample: samplingHandler({
      model: () => session.model,
      ask: () => session.ask,
      headless: mcp.sampling,
      notify: (text) => notify("info", text),
    }),
  };
  const manager = new McpManager({
    auth,
    features,
    maxMessageBytes: mcp.maxMessageBytes,
    servers: states,
    cwd: options.cwd,
    env,
    clientVersion: options.clientVersion,
    startupTimeoutMs: numberFrom(env.MCP_TIMEOUT) ?? MCP_DEFAULTS.startupTimeoutMs,
    launch: sandboxedLauncher({ policy, sandbox, groups, warn: (text) => notify("warn", text) }),
    notify,
    startTimes: ServerStartTimes.open(home),
  });
  manager.start();
  const toolTimeout = numberFrom(env.MCP_TOOL_TIMEOUT) ?? mcp.toolTimeoutMs;

  const setup: McpSetup = {
    manager,
    bind(model, ask, askLine) {
      session.model = model;
      session.ask = ask;
      session.form = askLine ? lineFormAsker(askLine, (line) => options.log(line)) : undefined;
    },
    async close() {
      await manager.close();
      groups.killAll();
      sandbox?.dispose();
    },
    async approve(ask, names) {
      const pending = manager.states
        .filter((s) =>
          names ? names.includes(s.definition.name) && !s.connection : s.approval === "pending",
        )
        .map((s) => s.definition);
      if (pending.length === 0) return;
      const answer = await askApproval(pending, ask, options.log);
      if (!answer) return;
      const approved = answer === "no" ? "declined" : "approved";
      await recordApprovals(file, project, pending, approved, { all: answer === "always" });
      if (answer === "no") {
        manager.decline(pending.map((d) => d.name));
        return;
      }
      manager.approve(pending.map((d) => d.name));
    },
    settings: { ...mcp, toolTimeoutMs: toolTimeout },
  };
  return setup;
}

export interface ResolvedMcpSettings extends SurfaceSettings {
  startupWaitMs: number;
  /** `mcp.browser`: the command that opens authorization URLs (HX_BROWSER wins). */
  browser?: string;
  /** `mcp.elicitation`: how a headless run answers a server's form. */
  elicitation: HeadlessElicitation;
  /** `mcp.sampling`: whether a headless run lets servers use the model. */
  sampling: HeadlessSampling;
  maxMessageBytes?: number;
}

export function resolveMcpSettings(settings: McpSettings | undefined, window: number): ResolvedMcpSettings {
  const budget = settings?.toolBudget;
  return {
    defer: settings?.deferTools ?? "auto",
    budgetTokens:
      budget !== undefined && budget > 1 ? budget : Math.floor(window * (budget ?? MCP_DEFAULTS.toolBudget)),
    loadedTools: settings?.loadedTools ?? "call",
    startupWaitMs: settings?.startupWait ?? MCP_DEFAULTS.startupWaitMs,
    toolTimeoutMs: settings?.toolTimeout ?? MCP_DEFAULTS.toolTimeoutMs,
    browser: settings?.browser,
    elicitation: settings?.elicitation ?? "decline",
    sampling: settings?.sampling ?? "refuse",
    maxMessageBytes: settings?.maxMessageBytes,
  };
}

async function askApproval(
  pending: readonly McpServerDefinition[],
  ask: PermissionAsker | undefined,
  log: (line: string) => void,
): Promise<"yes" | "no" | "always" | undefined> {
  const names = pending.map((d) => d.name).join(", ");
  const many = pending.length > 1;
  if (!ask) {
    log(
      `warning: MCP server${many ? "s" : ""} ${names} of this project ${many ? "are" : "is"} not approved yet and ${many ? "were" : "was"} not started. Approve with: hx mcp approve ${pending.map((d) => d.name).join(" ")} (or run hx in a terminal once).`,
    );
    return undefined;
  }
  log(
    `This project configures ${many ? "MCP servers that run" : "an MCP server that runs"} on your machine:`,
  );
  for (const definition of pending)
    log(
      `  ${definition.name}: ${describeEntry(definition.entry)}${isStdioEntry(definition.entry) && definition.entry.sandbox === false ? "  [outside the OS sandbox]" : ""}  (${definition.file})`,
    );
  log("[y]es starts them (remembered for these entries), [a]lways also any server the project adds later.");
  const answer = await ask({
    tool: "mcp",
    effect: "execute",
    rule: `MCP server${many ? "s" : ""} ${names}`,
    reason: "project MCP servers need approval once",
    signal: new AbortController().signal,
  });
  return typeof answer === "object" ? "no" : answer;
}

function numberFrom(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
