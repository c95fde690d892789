import type { AllowListState, DomainPolicy } from "./domains.js";

import type { SandboxMode } from "./modes.js";

export { isSandboxMode, SANDBOX_MODES, type SandboxMode } from "./modes.js";
export type { SandboxSettings } from "./settings.js";

/** Which OS mechanism holds the sandbox. */
export type SandboxBackend = "bubblewrap" | "seatbelt";

/**
 * What is in force, for `hx doctor`, `-v` and the interactive status line. `active` is true
 * only when commands really run inside the OS sandbox.
 */
export type SandboxStatus =
  | {
      state: "active";
      mode: Exclude<SandboxMode, "off">;
      backend: SandboxBackend;
      network: boolean;
      /** Folders commands may write to, besides the private temp dir. */
      writable: string[];
      /** Set when the network is off but commands still reach the host's Unix sockets: why. */
      unixSocketGap?: string;
      /** bubblewrap: commands run in a user namespace of their own (false where the kernel refuses one). */
      userNamespace?: boolean;
      /** bubblewrap: why commands run without a user namespace. */
      userNamespaceRefused?: string;
      /** bubblewrap: the seccomp filter (no mounts, no new user namespaces, no ptrace) is loaded. */
      seccomp?: boolean;
      /** Set when the network goes through hx's proxy to the listed hosts only (`network` is then false). */
      allowList?: AllowListState;
      /** Set when the allow-list cannot work here: why (commands then have no network). */
      allowListProblem?: string;
    }
  /** Chosen off (flag or settings). */
  | { state: "off" }
  /** Wanted but cannot start; `fix` says how to make it work. */
  | {
      state: "unavailable";
      mode: Exclude<SandboxMode, "off">;
      reason: string;
      fix: string;
      required: boolean;
    }
  /** Not probed yet (the first command probes it). */
  | { state: "unchecked"; mode: Exclude<SandboxMode, "off">; backend: SandboxBackend };

/** How to run one command: in the sandbox, or as is when there is none. */
export interface SandboxLaunch {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** True when the command runs inside the OS sandbox. */
  sandboxed: boolean;
  /** Undoes what the launch set up (mount points for missing protected paths); call when the process is gone. */
  release(): void;
  /** For the user, once per session: why commands run without the sandbox. */
  notice?: string;
  /** Hosts the network proxy refused while this command ran (allow-list only). */
  refusedHosts?: () => string[];
  /**
   * Files the launcher opens read-only and hands the child as fds 3, 4, … (bubblewrap reads its
   * seccomp filter from fd 3): `withInheritedFiles` in src/process/inherited-files.ts.
   */
  inheritFiles?: string[];
}

/** Where one command is launched. */
export interface LaunchOptions {
  cwd: string;
  env: Record<string, string>;
}

/** A launch refused because the sandbox is required and cannot start; `message` is for the model and the user. */
export interface SandboxRefusal {
  refused: string;
}

/** The OS sandbox as the bash tool (and stdio MCP servers) use it. */
export interface CommandSandbox {
  /** What is in force now (after the first launch or `check`, the probed truth). */
  status(): SandboxStatus;
  /** Probes the backend once (cheap after the first call) and returns the status. */
  check(): Promise<SandboxStatus>;
  /** Wraps `file args` to run in the sandbox with `env` (secrets already removed) in `cwd`. */
  launch(
    file: string,
    args: readonly string[],
    options: LaunchOptions,
  ): Promise<SandboxLaunch | SandboxRefusal>;
  /**
   * Wraps like `launch` without waiting for the probe, for a process that should boot while
   * the probe runs (an MCP server at start-up); undefined when the sandbox is off or known not
   * to start. A backend that cannot start exits before it runs the command, so nothing runs
   * outside the sandbox meanwhile; the caller must then `await check()` and stop the process
   * unless it says `active` (its `release()` runs once the process is gone).
   */
  launchUnchecked(file: string, args: readonly string[], options: LaunchOptions): SandboxLaunch | undefined;
  /**
   * Changes the network for the rest of the session (`/sandbox`): all of it, none, or the
   * allow-list through the proxy.
   */
  setNetwork(network: boolean | DomainPolicy): void;
  /** Lets commands reach `host` for the rest of the session (or refuses it), allow-list only. */
  allowHost(host: string, allow: boolean): void;
  /**
   * Lets commands write `folder` (absolute) for the rest of the session, as a
   * `sandbox.writablePaths` entry would (protected paths inside it stay read-only); only in
   * `workspace-write` mode. Given by the user's answer to a refusal, never by the model.
   */
  allowWrites(folder: string): void;
  /** Removes the session's private temp dir; call once when the session ends. */
  dispose(): void;
}
