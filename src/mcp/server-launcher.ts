import { PROCESS_TAG_VARIABLE, type ProcessGroups } from "../process/process-groups.js";
import type { CommandSandbox, SandboxLaunch } from "../sandbox/index.js";
import type { McpTransportConfig } from "./config.js";
import { childEnvironment } from "./environment.js";
import { ServerProcess } from "./server-process.js";
import { placeServer, type ServerSandboxPolicy } from "./server-sandbox.js";

type StdioConfig = Extract<McpTransportConfig, { type: "stdio" }>;

interface LaunchRequest {
  name: string;
  config: StdioConfig;
  cwd: string;
  onStderr: (text: string) => void;
}

/** Starts a stdio server's process; rejects with a message naming the cause and the fix. */
export type ServerLauncher = (request: LaunchRequest) => Promise<ServerProcess>;

/** Without sandbox or process groups: the server as it is, in its own process group (tests, tools). */
export const plainLauncher: ServerLauncher = async ({ config, cwd, onStderr }) =>
  new ServerProcess(config.command, config.args, { env: childEnvironment(config.env), cwd, onStderr });

export interface SandboxedLauncherOptions {
  policy: ServerSandboxPolicy;
  /** The servers' sandbox; undefined when the policy is off. */
  sandbox?: CommandSandbox;
  /** The session's long-lived groups: killed when hx exits, whatever the servers do. */
  groups: ProcessGroups;
  /** Once per session: the sandbox cannot start and servers run without it. */
  warn: (text: string) => void;
}

/**
 * Starts stdio servers in the OS sandbox (see server-sandbox.ts) unless the entry says
 * `"sandbox": false` or the sandbox is off; where it cannot start they run without it after
 * one warning, or are refused when `sandbox.required`. A server is started in the sandbox at
 * once and boots while the sandbox's probe runs (waiting for the probe first held every server
 * back until hx's busy start-up let the probe's answer in); it is kept when the probe says the
 * sandbox works, else stopped (a sandbox that cannot start never ran it) and started as the
 * policy says. Each server's process group is registered with `groups` and carries a process
 * tag, so nothing outlives hx.
 */
export function sandboxedLauncher(options: SandboxedLauncherOptions): ServerLauncher {
  let warned = false;
  const start = (
    launch: Pick<SandboxLaunch, "file" | "args" | "env" | "release" | "inheritFiles">,
    cwd: string,
    onStderr: (text: string) => void,
  ): ServerProcess => {
    const proc = new ServerProcess(launch.file, launch.args, {
      env: launch.env,
      cwd,
      onStderr,
      inheritFiles: launch.inheritFiles,
    });
    const pgid = proc.pid;
    if (pgid !== undefined) {
      options.groups.add(pgid);
      proc.child.once("close", () => {
        options.groups.release(pgid);
        launch.release();
      });
    } else launch.release();
    return proc;
  };
  return async ({ name, config, cwd, onStderr }) => {
    const tag = options.groups.nextTag();
    const env: Record<string, string> = { ...childEnvironment(config.env), [PROCESS_TAG_VARIABLE]: tag };
    const entry = { command: config.command, sandbox: config.sandbox };
    const sandbox = config.sandbox !== false && options.policy.enabled ? options.sandbox : undefined;
    const early = sandbox ? startUnchecked(sandbox, config, { cwd, env }, onStderr, start) : undefined;
    const status = sandbox ? await sandbox.check() : { state: "off" as const };
    let placement = placeServer(entry, options.policy, status);
    if (early) {
      if (placement.sandboxed && status.state === "active") {
        early.keep();
        early.proc.placement = placement;
        return early.proc;
      }
      early.discard();
    }
    let launch: Pick<SandboxLaunch, "file" | "args" | "env" | "release" | "inheritFiles"> = {
      file: config.command,
      args: config.args,
      env,
      release: () => {},
    };
    if (placement.refused) {
      const fix = status.state === "unavailable" ? status.fix : "";
      throw new Error(
        `${placement.text}. Fix: ${fix}; or set "sandbox": false in the entry of '${name}' to run it outside the sandbox`,
      );
    }
    if (sandbox && placement.sandboxed) {
      const wrapped = await sandbox.launch(config.command, config.args, { cwd, env });
      if ("refused" in wrapped) throw new Error(wrapped.refused);
      if (wrapped.sandboxed) launch = wrapped;
      else placement = placeServer(entry, options.policy, sandbox.status());
    }
    if (!placement.sandboxed && status.state === "unavailable" && !warned) {
      warned = true;
      options.warn(
        `the OS sandbox cannot start (${status.reason}); MCP servers run without it. Fix: ${status.fix}; or set "mcp": {"sandbox": false} in settings to stop this warning.`,
      );
    }
    const proc = start(launch, cwd, onStderr);
    proc.placement = placement;
    return proc;
  };
}

/** Stderr chunks kept from a server started before the probe answered, until it is kept. */
const HELD_STDERR_CHUNKS = 64;

/**
 * The server started in the sandbox before its probe answered (undefined when the sandbox is
 * known not to start): its stderr is held back until `keep`, and `discard` stops it.
 */
function startUnchecked(
  sandbox: CommandSandbox,
  config: StdioConfig,
  options: { cwd: string; env: Record<string, string> },
  onStderr: (text: string) => void,
  start: (launch: SandboxLaunch, cwd: string, onStderr: (text: string) => void) => ServerProcess,
): { proc: ServerProcess; keep(): void; discard(): void } | undefined {
  const launch = sandbox.launchUnchecked(config.command, config.args, options);
  if (!launch) return undefined;
  let held: string[] | undefined = [];
  let discarded = false;
  const proc = start(launch, options.cwd, (text) => {
    if (discarded) return;
    if (!held) return onStderr(text);
    held.push(text);
    if (held.length > HELD_STDERR_CHUNKS) held.shift();
  });
  return {
    proc,
    keep() {
      const chunks = held ?? [];
      held = undefined;
      for (const text of chunks) onStderr(text);
    },
    discard() {
      discarded = true;
      proc.signal("SIGKILL");
    },
  };
}
