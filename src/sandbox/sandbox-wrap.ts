import { existsSync, realpathSync } from "node:fs";
import { bwrapArgs, type MountPlan } from "./bwrap.js";
import { BRIDGE_PORT, type NetBridge } from "./net-bridge.js";
import type { Placeholders } from "./placeholders.js";
import type { ProtectedMounts } from "./protected-mounts.js";
import { seatbeltArgs } from "./seatbelt.js";
import type { SandboxLaunch } from "./types.js";

/** What one command's launch is computed from, whichever backend wraps it. */
export interface WrapRequest {
  /** The backend's program (bwrap or sandbox-exec). */
  program: string;
  command: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Writable roots, package caches included. */
  roots: string[];
  mounts: ProtectedMounts;
  tmpDir: string;
  network: boolean;
}

/** Seatbelt rules name paths, so a protected path that does not exist yet needs no stand-in. */
export function wrapForSeatbelt(request: WrapRequest): SandboxLaunch {
  const { mounts } = request;
  const plan = {
    writable: request.roots,
    readOnly: unique([...mounts.existing, ...mounts.missing.map((entry) => entry.path)]),
    pinned: mounts.pinned,
    tmpDir: request.tmpDir,
    network: request.network,
  };
  return {
    file: request.program,
    args: seatbeltArgs(plan, request.command),
    env: { ...request.env, TMPDIR: request.tmpDir },
    sandboxed: true,
    release: () => undefined,
  };
}

export interface BubblewrapRequest extends WrapRequest {
  placeholders: Placeholders;
  /** Folders that stay visible under the private /tmp when they are there (home, workspace). */
  visible: string[];
  userNamespace: boolean;
  /** The seccomp filter's file, where hx has one for this machine. */
  filter: string | undefined;
  /** The allow-list's network namespace, entered with nsenter. */
  bridge?: NetBridge;
  /** Hosts the allow-list refused since the command started. */
  refusedSince?: () => string[];
}

/**
 * bubblewrap: stand-ins hold protected paths that do not exist yet; the seccomp filter is
 * handed over as fd 3, which the launcher opens (`inheritFiles`); in the allow-list's namespace
 * already, the command gets no network namespace of its own, the proxy is its only way out.
 */
export function wrapForBubblewrap(request: BubblewrapRequest): SandboxLaunch {
  const { mounts, bridge } = request;
  const held = request.placeholders.acquire(mounts.missing);
  const plan: MountPlan = {
    writable: request.roots,
    readOnly: unique([...mounts.existing, ...held.paths]),
    pinned: mounts.pinned,
    tmpDir: request.tmpDir,
    keepVisible: visibleUnderTmp([...request.visible, ...tmpFoldersNamedBy(request.command)], request.roots),
    network: request.network || bridge !== undefined,
    userNamespace: request.userNamespace,
    cwd: request.cwd,
  };
  const { filter, command } = request;
  const inner = filter ? bwrapArgs({ ...plan, seccompFd: 3 }, command) : bwrapArgs(plan, command);
  const launcher = [request.program, ...inner];
  const [launchFile, ...launchArgs] = bridge
    ? [bridge.nsenter, ...bridge.enterArgs, "--", ...launcher]
    : launcher;
  return {
    file: launchFile,
    args: launchArgs,
    env: { ...request.env, TMPDIR: "/tmp", ...(bridge ? proxyEnvironment(bridge.port) : {}) },
    sandboxed: true,
    release: held.release,
    ...(filter ? { inheritFiles: [filter] } : {}),
    ...(request.refusedSince ? { refusedHosts: request.refusedSince } : {}),
  };
}

/**
 * The folders under /tmp that a command names by absolute path (an MCP server's script in a
 * checkout under /tmp, with its node_modules beside it): the top folder below /tmp of each
 * one, so the private /tmp does not hide what the command was told to run.
 */
function tmpFoldersNamedBy(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const word of words) {
    if (!word.startsWith("/tmp/")) continue;
    const top = word.split("/").slice(0, 3).join("/");
    if (top !== "/tmp/" && existsSync(top)) out.push(top);
  }
  return out;
}

/** Real folders under /tmp (hidden by the private /tmp) that are not writable roots but must stay readable. */
function visibleUnderTmp(candidates: string[], roots: string[]): string[] {
  const out: string[] = [];
  for (const candidate of candidates) {
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (!real.startsWith("/tmp/") || roots.some((root) => real === root || real.startsWith(`${root}/`)))
      continue;
    if (!out.includes(real)) out.push(real);
  }
  return out;
}

/** What tells commands to use the proxy (most tools read one spelling or the other). */
function proxyEnvironment(port: number = BRIDGE_PORT): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const noProxy = "localhost,127.0.0.1,::1";
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
  };
}

export function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
