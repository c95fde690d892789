import { PROCESS_TAG_VARIABLE, type ProcessGroups } from "../process/process-groups.js";
import type { CommandSandbox, SandboxLaunch } from "../sandbox/types.js";
import type { McpTransportConfig } from "./config.js";
import { childEnvironment } from "./environment.js";
import { ServerProcess } from "./server-process.js";
import { placeServer, type ServerPlacement, type ServerSandboxPolicy } from "./server-sandbox.js";

type StdioConfig = Extract<McpTransportConfig, { type: "stdio" }>;

export interface LaunchRequest {
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
 * one warning, or are refused when `sandbox.required`. Each server's process group is
 * registered with `groups` and carries a process tag, so nothing outlives hx.
 */
export function sandboxedLauncher(options: SandboxedLauncherOptions): ServerLauncher {
  let warned = false;
  return async ({ name, config, cwd, onStderr }) => {
    const tag = options.groups.nextTag();
    const env: Record<string, string> = { ...childEnvironment(config.env), [PROCESS_TAG_VARIABLE]: tag };
    const entry = { command: config.command, sandbox: config.sandbox };
    const wanted = options.sandbox && config.sandbox !== false && options.policy.enabled;
    const status = wanted && options.sandbox ? await options.sandbox.check() : { state: "off" as const };
    let placement = placeServer(entry, options.policy, status);
    let launch: Pick<SandboxLaunch, "file" | "args" | "env" | "release"> = {
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
    if (wanted && options.sandbox && placement.sandboxed) {
      const wrapped = await options.sandbox.launch(config.command, config.args, { cwd, env });
      if ("refused" in wrapped) throw new Error(wrapped.refused);
      if (wrapped.sandboxed) launch = wrapped;
      else placement = placeServer(entry, options.policy, options.sandbox.status());
    }
    if (!placement.sandboxed && status.state === "unavailable" && !warned) {
      warned = true;
      options.warn(
        `the OS sandbox cannot start (${status.reason}); MCP servers run without it. Fix: ${status.fix}; or set "mcp": {"sandbox": false} in settings to stop this warning.`,
      );
    }
    const proc = new ServerProcess(launch.file, launch.args, { env: launch.env, cwd, onStderr });
    proc.placement = placement;
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
}

export type { ServerPlacement };
