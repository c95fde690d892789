import { realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROTECTED_HOME_FILES, PROTECTED_WORKSPACE_PATTERNS } from "../config/protected-paths.js";
import { formatDiagnostic } from "../core/diagnostic.js";
import { loadMcpConfiguration } from "../mcp/index.js";
import { placeServer, resolveServerSandbox } from "../mcp/server-sandbox.js";
import {
  createSandbox,
  describeInside,
  describeSandbox,
  inspectSandbox,
  isSandboxMode,
  resolveSandboxOptions,
  SANDBOX_MODES,
  type SandboxInside,
  type SandboxMode,
  type SandboxStatus,
} from "../sandbox/index.js";
import { droppedSecretNames } from "../secrets/child-env.js";
import type { LoadedSettings } from "../settings/index.js";
import { loadTrustedSettings, type TrustedSettings, untrustedNotice } from "../trust/index.js";
import { withApprovedPlugins } from "./prepare-run.js";
import { UsageError } from "./run-config.js";
import { VERSION } from "./version.js";

interface DoctorReport {
  version: string;
  node: string;
  platform: string;
  /** The settings files in effect; a Claude Code file lists the keys hx does not use (`notUsed`). */
  settings: Array<{ path: string; scope: string; notUsed?: string[] }>;
  /** Whether this folder is trusted (src/trust) and what its untrusted settings did not get. */
  trust: { trusted: boolean; source: string; folder: string; problem?: string; ignored?: string };
  sandbox: SandboxStatus;
  /** What a command sees of its privileges inside the sandbox (when commands run in it). */
  inside?: SandboxInside;
  /** Paths kept read-only for commands, relative to each writable folder (and the home folder's start-up files). */
  protectedPaths: string[];
  /** What kills a command's processes. */
  processes: string;
  secrets: { dropped: string[]; passthrough: string[] };
  /** Configured MCP servers (not started) and whether the OS sandbox would hold each. */
  mcpServers: Array<{ name: string; scope: string; sandboxed: boolean; placement: string }>;
}

/** Builds the report (probing the sandbox) and prints it; exit 1 when a required sandbox cannot start. */
export async function runDoctor(options: {
  json?: boolean;
  cwd?: string;
  sandbox?: string;
}): Promise<number> {
  if (options.sandbox !== undefined && !isSandboxMode(options.sandbox))
    throw new UsageError(`--sandbox must be one of ${SANDBOX_MODES.join(", ")} (got '${options.sandbox}').`);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  try {
    if (!statSync(cwd).isDirectory()) throw new Error();
  } catch {
    throw new UsageError(`-C/--cwd: '${options.cwd}' is not a directory.`);
  }
  const root = realpathSync(cwd);
  const loaded = await withApprovedPlugins(await loadTrustedSettings(root), (line) =>
    process.stderr.write(`${line}\n`),
  );
  const settings = loaded.merged;
  const { options: sandboxOptions, warnings } = resolveSandboxOptions({
    flag: options.sandbox as never,
    settings: settings.sandbox,
    workspaceRoot: root,
  });
  const sandbox = createSandbox(sandboxOptions);
  const status = await sandbox.check();
  const inside = await inspectSandbox(sandbox, root);
  sandbox.dispose();
  const passthrough = settings.shell?.env?.passthrough ?? [];
  const report: DoctorReport = {
    version: VERSION,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    settings: loaded.files.map((file) => ({
      path: file.path,
      scope: file.scope,
      ...(file.claude?.ignored.length ? { notUsed: file.claude.ignored } : {}),
    })),
    trust: trustReport(loaded, root),
    sandbox: status,
    ...(inside ? { inside } : {}),
    protectedPaths: [...PROTECTED_WORKSPACE_PATTERNS, ...PROTECTED_HOME_FILES.map((file) => `~/${file}`)],
    processes:
      status.state === "active" && status.backend === "bubblewrap"
        ? "a PID namespace per command: nothing it starts outlives it, even after kill -9 of hx"
        : "a process group per command, killed when it ends and when hx exits or gets SIGINT/SIGTERM/SIGHUP" +
          (process.platform === "linux"
            ? " (processes that left the group are found by their environment tag)"
            : "") +
          "; after kill -9 of hx they may live on",
    secrets: { dropped: droppedSecretNames(process.env, passthrough), passthrough },
    mcpServers: await mcpPlacements(loaded, root, options.sandbox as never, status),
  };
  for (const diagnostic of loaded.diagnostics)
    process.stderr.write(`${diagnostic.level}: ${formatDiagnostic(diagnostic)}\n`);
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, root));
  return status.state === "unavailable" && status.required ? 1 : 0;
}

function formatReport(report: DoctorReport, root: string): string {
  const home = os.homedir();
  const tilde = (file: string) => (file.startsWith(`${home}/`) ? `~/${file.slice(home.length + 1)}` : file);
  const lines = [`hx ${report.version}, node ${report.node}, ${report.platform}`];
  lines.push(
    report.settings.length === 0
      ? "settings: none"
      : `settings: ${report.settings.map((file) => `${tilde(file.path)} (${file.scope})`).join(", ")}`,
  );
  for (const file of report.settings) {
    if (file.notUsed?.length)
      lines.push(`  ${tilde(file.path)}: not used by hx (Claude Code only): ${file.notUsed.join(", ")}`);
  }
  const { trust } = report;
  lines.push(
    trust.trusted
      ? `folder: trusted (${trust.source === "flag" ? "--trust" : trust.source === "home" ? "your home folder" : `hx trust ${tilde(trust.folder)}`})`
      : `folder: not trusted${trust.problem ? ` (${trust.problem})` : ""}; its project settings apply only where they restrict`,
  );
  if (!trust.trusted && trust.ignored) lines.push(`  ${trust.ignored}`);
  const { sandbox } = report;
  lines.push(describeSandbox(sandbox));
  if (sandbox.state === "active") {
    lines.push(`  writable: ${[...sandbox.writable.map(tilde), "a private /tmp"].join(", ")}`);
    if (sandbox.writable.length === 0) lines.push(`  ${tilde(root)} is read-only`);
  }
  if (sandbox.state === "unavailable") lines.push(`  fix: ${sandbox.fix}`);
  if (report.inside) lines.push(`  ${describeInside(report.inside)}`);
  if (sandbox.state === "active") lines.push(`  read-only for commands: ${report.protectedPaths.join(", ")}`);
  lines.push(`processes: ${report.processes}`);
  lines.push(
    report.secrets.dropped.length === 0
      ? "secrets kept from commands and hooks: none set"
      : `secrets kept from commands and hooks: ${report.secrets.dropped.join(", ")}`,
  );
  if (report.secrets.passthrough.length > 0)
    lines.push(`passed through (shell.env.passthrough): ${report.secrets.passthrough.join(", ")}`);
  if (report.mcpServers.length > 0) {
    const sandboxed = report.mcpServers.some((server) => server.sandboxed);
    lines.push(
      `MCP servers (${report.mcpServers.length}, as they would start${sandboxed ? "; sandboxed ones may also write ~/.npm and ~/.cache" : ""}):`,
    );
    const width = Math.max(...report.mcpServers.map((server) => server.name.length));
    for (const server of report.mcpServers)
      lines.push(`  ${server.name.padEnd(width)}  ${server.placement}  [${server.scope}]`);
  }
  return `${lines.join("\n")}\n`;
}

function trustReport(loaded: TrustedSettings, root: string): DoctorReport["trust"] {
  const { trust } = loaded;
  return {
    trusted: trust.trusted,
    source: trust.source,
    folder: trust.recordedFor ?? trust.key,
    problem: trust.problem,
    ignored: untrustedNotice(loaded, root),
  };
}

/** Where each configured MCP server would run (servers are not started), with the probed sandbox status. */
async function mcpPlacements(
  loaded: LoadedSettings,
  root: string,
  flag: SandboxMode | undefined,
  status: SandboxStatus,
): Promise<DoctorReport["mcpServers"]> {
  const config = await loadMcpConfiguration({ cwd: root, settings: loaded });
  if (config.servers.length === 0) return [];
  const policy = resolveServerSandbox({ settings: loaded.merged, flag, workspaceRoot: root });
  return config.servers.map((server) => {
    const placement = placeServer(server.entry, policy, status);
    return {
      name: server.name,
      scope: server.scope,
      sandboxed: placement.sandboxed,
      placement: placement.text,
    };
  });
}
