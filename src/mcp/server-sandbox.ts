import { existsSync, mkdirSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SandboxMode, SandboxOptions, SandboxSettings, SandboxStatus } from "../sandbox/index.js";
import { resolveSandboxOptions } from "../sandbox/index.js";
import { isStdioEntry, type McpServerEntry } from "./config.js";
import type { McpSettings } from "./settings.js";

/**
 * How stdio MCP servers are held in: the bash sandbox's rules for files (the workspace,
 * `sandbox.writablePaths` and a private /tmp writable; protected paths read-only), but the
 * network on by default (most servers are clients of some service), and the package caches
 * `npx`/`uvx` write to, so a `.mcp.json` written for Claude Code starts unchanged.
 */
export interface ServerSandboxPolicy {
  /** False when `mcp.sandbox` is false or the sandbox mode is off. */
  enabled: boolean;
  /** Why not, for `hx mcp list` and `hx doctor`. */
  offReason?: string;
  /** The options of the servers' sandbox (shared by all servers of a session). */
  options: SandboxOptions;
  warnings: string[];
}

/** Package caches a server launcher writes (npx: ~/.npm; uvx, pip, playwright: ~/.cache). Created when missing. */
const CACHE_DIRS = [".npm", ".cache"];
/** Used when present (uv's Python installs). */
const OPTIONAL_CACHE_DIRS = [".local/share/uv"];

export function resolveServerSandbox(input: {
  settings: { sandbox?: SandboxSettings; mcp?: McpSettings };
  /** `--sandbox MODE` / HX_SANDBOX. */
  flag?: SandboxMode;
  workspaceRoot: string;
  home?: string;
}): ServerSandboxPolicy {
  const home = input.home ?? os.homedir();
  const resolved = resolveSandboxOptions({
    flag: input.flag,
    settings: input.settings.sandbox,
    workspaceRoot: input.workspaceRoot,
    home,
  });
  const mcp = input.settings.mcp ?? {};
  const options: SandboxOptions = {
    ...resolved.options,
    network: mcp.sandboxNetwork !== false,
  };
  const offReason =
    mcp.sandbox === false
      ? "mcp.sandbox is false in the settings"
      : options.mode === "off"
        ? "the sandbox mode is off"
        : undefined;
  return { enabled: offReason === undefined, offReason, options, warnings: resolved.warnings };
}

/**
 * The package caches as writable folders without protected stand-ins (nobody runs hx or git
 * in ~/.npm: stand-ins there would only cost each launch and litter the caches).
 */
export function withPackageCaches(options: SandboxOptions): SandboxOptions {
  const home = options.home ?? os.homedir();
  const caches: string[] = [];
  for (const dir of [...CACHE_DIRS, ...OPTIONAL_CACHE_DIRS]) {
    const full = path.join(home, dir);
    try {
      if (CACHE_DIRS.includes(dir)) mkdirSync(full, { recursive: true });
      if (existsSync(full)) caches.push(realpathSync(full));
    } catch {
      // A home folder hx cannot write: the server may fail to cache, and says so.
    }
  }
  return { ...options, cachePaths: caches.filter((dir) => !options.writablePaths.includes(dir)) };
}

/** Where one server runs, for the user: `sandboxed` is true only when the OS sandbox holds it. */
export interface ServerPlacement {
  sandboxed: boolean;
  /** Refused: the sandbox is required and cannot start. */
  refused?: boolean;
  text: string;
}

/** Where `entry` runs (or would run) given the policy and the probed sandbox status. */
export function placeServer(
  entry: McpServerEntry,
  policy: Pick<ServerSandboxPolicy, "enabled" | "offReason" | "options">,
  status: SandboxStatus,
): ServerPlacement {
  if (!isStdioEntry(entry)) return { sandboxed: false, text: "remote: no local process" };
  if (entry.sandbox === false)
    return { sandboxed: false, text: 'not sandboxed ("sandbox": false in its entry)' };
  if (!policy.enabled) return { sandboxed: false, text: `not sandboxed (${policy.offReason})` };
  switch (status.state) {
    case "off":
      return { sandboxed: false, text: "not sandboxed (the sandbox mode is off)" };
    case "unavailable":
      return status.required
        ? {
            sandboxed: false,
            refused: true,
            text: `refused: sandbox.required is set and the OS sandbox cannot start (${status.reason})`,
          }
        : { sandboxed: false, text: `not sandboxed: the OS sandbox cannot start (${status.reason})` };
    default:
      return {
        sandboxed: true,
        text: `sandboxed (${status.backend}, ${status.mode}), network ${policy.options.network ? "on" : "off"}`,
      };
  }
}
