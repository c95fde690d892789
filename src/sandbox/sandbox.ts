import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isProcessAlive } from "../process/alive.js";
import { bwrapArgs, type MountPlan } from "./bwrap.js";
import { ALLOW_USER_NAMESPACES, type BackendProbe, findBackend, probeBackend } from "./detect.js";
import type { DomainPolicy } from "./domains.js";
import { BRIDGE_PORT, type NetBridge } from "./net-bridge.js";
import { createNetworkGate, type NetworkAsker, type NetworkGate } from "./network.js";
import { Placeholders } from "./placeholders.js";
import { protectedMounts } from "./protected-mounts.js";
import { seatbeltArgs } from "./seatbelt.js";
import { sandboxFilter, unixSocketGap } from "./seccomp.js";
import type { CommandSandbox, SandboxLaunch, SandboxMode, SandboxRefusal, SandboxStatus } from "./types.js";

export interface SandboxOptions {
  mode: SandboxMode;
  /** Let commands reach all of the network. */
  network: boolean;
  /**
   * Without `network`: let commands reach these hosts only, through hx's proxy (Linux). The
   * sandbox then shares one network namespace per session whose only way out is the proxy.
   */
  allowList?: DomainPolicy;
  /** Asks the user about a host not on the allow-list (interactive sessions); without it, refused. */
  askNetwork?: NetworkAsker;
  /** Saves an "always" answer to the settings. */
  saveAllowedDomain?: (host: string) => Promise<void>;
  /** Where `nsenter` is; default found on PATH (tests name a missing one). */
  nsenter?: string;
  /** Refuse commands when the sandbox cannot start. */
  required: boolean;
  /** The workspace (a real path): writable in workspace-write mode. */
  workspaceRoot: string;
  /** More writable folders (real paths), in workspace-write mode. */
  writablePaths: string[];
  /**
   * Writable folders (real paths, workspace-write mode) that get no protected-path stand-ins:
   * package caches (`~/.npm`) that MCP servers' launchers write, where nobody runs hx or git.
   */
  cachePaths?: string[];
  home?: string;
  platform?: NodeJS.Platform;
  /** `process.arch` by default: which seccomp filter bubblewrap gets. */
  arch?: string;
  /** Where the private temp dirs and the placeholder registry go; default the OS temp dir. */
  tempRoot?: string;
  /** How the backend is tried (`probeBackend`); tests stand in a kernel that refuses user namespaces. */
  probe?: (found: BackendProbe) => Promise<BackendProbe>;
}

/**
 * The OS sandbox of one session. The backend is found and tried on first use (or `check`);
 * when it cannot start, commands run without it after one notice that says how to fix it —
 * or are refused when `required`. Each launch computes the protected mounts afresh, since
 * `.git` or `.hx` may appear between commands.
 */
export function createSandbox(options: SandboxOptions): CommandSandbox {
  const home = options.home ?? os.homedir();
  const tempRoot = options.tempRoot ?? os.tmpdir();
  const wanted = options.mode === "off" ? undefined : options.mode;
  const found: BackendProbe | undefined = wanted ? findBackend(options.platform) : undefined;
  let probed: Promise<BackendProbe> | undefined;
  let result: BackendProbe | undefined;
  let noticeGiven = false;
  let network = options.network;
  let allowList = options.network ? undefined : options.allowList;
  let gate: NetworkGate | undefined;
  let allowListNoticeGiven = false;
  let allowListProblem: string | undefined;
  /** The allow-list's proxy and bridge, for bubblewrap (started on first need). */
  const networkGate = (backend: { file: string; userNamespace?: boolean }): NetworkGate => {
    gate ??= createNetworkGate({
      policy: allowList ?? { allowedDomains: [], deniedDomains: [] },
      ask: options.askNetwork,
      saveAllowedDomain: options.saveAllowedDomain,
      tempRoot,
      bwrap: backend.file,
      userNamespace: backend.userNamespace !== false,
      nsenter: options.nsenter,
    });
    return gate;
  };
  let tmpDir: string | undefined;
  const placeholders = new Placeholders(path.join(tempRoot, "hx-sandbox-placeholders"));
  /** The seccomp filters' files, by whether they refuse Unix sockets. */
  const filterFiles = new Map<boolean, string>();
  const removeTmp = () => {
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
    for (const file of filterFiles.values()) rmSync(file, { force: true });
    tmpDir = undefined;
    filterFiles.clear();
  };

  const writable = (): string[] =>
    wanted === "workspace-write" ? unique([options.workspaceRoot, ...options.writablePaths]) : [];

  const status = (): SandboxStatus => {
    if (!wanted || !found) return { state: "off" };
    const known = result ?? (found.ok ? undefined : found);
    if (!known)
      return { state: "unchecked", mode: wanted, backend: (found as { backend: "bubblewrap" }).backend };
    if (!known.ok)
      return {
        state: "unavailable",
        mode: wanted,
        reason: known.reason,
        fix: known.fix,
        required: options.required,
      };
    // Without a user namespace commands keep hx's uid (root's too) with no capabilities: the
    // wall is thinner, so `required` refuses it rather than run on it.
    if (known.userNamespaceRefused && options.required)
      return {
        state: "unavailable",
        mode: wanted,
        reason: `${known.userNamespaceRefused}; settings say sandbox.required, and without one commands would run in the host's user namespace`,
        fix: ALLOW_USER_NAMESPACES,
        required: true,
      };
    const bubblewrap = known.backend === "bubblewrap";
    const gap = network || !bubblewrap ? undefined : unixSocketGap("linux", options.arch);
    const listState = allowList
      ? (gate?.state() ?? { ...allowList, sessionAllowed: [], sessionDenied: [] })
      : undefined;
    const listProblem =
      allowList && !bubblewrap ? "the network allow-list needs Linux (bubblewrap) for now" : allowListProblem;
    return {
      state: "active",
      mode: wanted,
      backend: known.backend,
      network,
      ...(listState ? { allowList: listState } : {}),
      ...(allowList && listProblem ? { allowListProblem: listProblem } : {}),
      writable: writable(),
      ...(gap ? { unixSocketGap: gap } : {}),
      ...(bubblewrap
        ? {
            userNamespace: known.userNamespace !== false,
            seccomp: unixSocketGap("linux", options.arch) === undefined,
            ...(known.userNamespaceRefused ? { userNamespaceRefused: known.userNamespaceRefused } : {}),
          }
        : {}),
    };
  };

  const check = async (): Promise<SandboxStatus> => {
    if (wanted && found) {
      probed ??= (options.probe ?? probeBackend)(found).then((probe) => {
        result = probe;
        if (probe.ok) placeholders.sweepStale();
        return probe;
      });
      await probed;
    }
    return status();
  };

  const ensureTmp = (): string => {
    if (!tmpDir) {
      // In the background: a crowded temp folder takes long to list, and nothing waits on it.
      void removeStaleTmpDirs(tempRoot);
      tmpDir = realpathSync(mkdtempSync(path.join(tempRoot, `${TMP_PREFIX}${process.pid}-`)));
      process.once("exit", removeTmp);
    }
    return tmpDir;
  };

  /**
   * The seccomp filter's file, beside the private /tmp (never inside it: commands could
   * rewrite it for the next one), created afresh (`wx`: never through a planted symlink);
   * undefined where hx has no filter for this machine (`status` says so).
   */
  const ensureFilter = (refuseUnixSockets: boolean): string | undefined => {
    let file = filterFiles.get(refuseUnixSockets);
    if (!file) {
      const filter = sandboxFilter(options.arch, { refuseUnixSockets });
      if (!filter) return undefined;
      file = `${ensureTmp()}.${refuseUnixSockets ? "seccomp" : "seccomp-net"}`;
      writeFileSync(file, filter, { mode: 0o400, flag: "wx" });
      filterFiles.set(refuseUnixSockets, file);
    }
    return file;
  };

  /** `file args` wrapped for `backend`, which runs (probed) or is about to be probed. */
  const wrap = (
    backend: { backend: "bubblewrap" | "seatbelt"; file: string; userNamespace?: boolean },
    file: string,
    args: readonly string[],
    { cwd, env }: { cwd: string; env: Record<string, string> },
    bridge?: NetBridge,
  ): SandboxLaunch => {
    const tmp = ensureTmp();
    const caches = wanted === "workspace-write" ? (options.cachePaths ?? []) : [];
    const protectedRoots = writable();
    const roots = unique([...protectedRoots, ...caches]);
    const mounts = protectedMounts(protectedRoots, home, (file) => placeholders.isStandIn(file));
    const command = [file, ...args];
    if (backend.backend === "seatbelt") {
      // Seatbelt rules name paths, so a protected path that does not exist yet needs no stand-in.
      const plan = {
        writable: roots,
        readOnly: unique([...mounts.existing, ...mounts.missing.map((entry) => entry.path)]),
        pinned: mounts.pinned,
        tmpDir: tmp,
        network,
      };
      return {
        file: backend.file,
        args: seatbeltArgs(plan, command),
        env: { ...env, TMPDIR: tmp },
        sandboxed: true,
        release: () => undefined,
      };
    }
    const held = placeholders.acquire(mounts.missing);
    const plan: MountPlan = {
      writable: roots,
      readOnly: unique([...mounts.existing, ...held.paths]),
      pinned: mounts.pinned,
      tmpDir: tmp,
      keepVisible: visibleUnderTmp(
        [home, options.workspaceRoot, cwd, ...tmpFoldersNamedBy([file, ...args])],
        roots,
      ),
      // In the bridge's namespace already: no namespace of its own, the proxy its only way out.
      network: network || bridge !== undefined,
      userNamespace: backend.userNamespace !== false,
      cwd,
    };
    const filter = ensureFilter(!network);
    const inner = filter ? bwrapArgs({ ...plan, seccompFd: 3 }, command) : bwrapArgs(plan, command);
    // bwrap reads the filter from a file descriptor: sh opens it as fd 3, then becomes bwrap.
    const launcher = filter
      ? ["/bin/sh", "-c", 'exec 3<"$1" && shift && exec "$@"', "hx-sandbox", filter, backend.file, ...inner]
      : [backend.file, ...inner];
    const [launchFile, ...launchArgs] = bridge
      ? [bridge.nsenter, ...bridge.enterArgs, "--", ...launcher]
      : launcher;
    const mark = bridge ? gate?.refusedCount() : undefined;
    return {
      file: launchFile,
      args: launchArgs,
      env: { ...env, TMPDIR: "/tmp", ...(bridge ? proxyEnvironment(bridge.port) : {}) },
      sandboxed: true,
      release: held.release,
      ...(mark !== undefined ? { refusedHosts: () => gate?.refusedSince(mark) ?? [] } : {}),
    };
  };

  return {
    status,
    check,
    async launch(file, args, launchOptions): Promise<SandboxLaunch | SandboxRefusal> {
      const current = await check();
      const plain = {
        file,
        args: [...args],
        env: launchOptions.env,
        sandboxed: false,
        release: () => undefined,
      };
      if (current.state === "off" || current.state === "unchecked") return plain;
      if (current.state === "unavailable") {
        if (current.required) {
          return {
            refused: `commands are refused: settings say sandbox.required, and the OS sandbox cannot start (${current.reason}). Tell the user; the fix: ${current.fix}.`,
          };
        }
        if (noticeGiven) return plain;
        noticeGiven = true;
        return {
          ...plain,
          notice: `the OS sandbox cannot start (${current.reason}); commands run with the permission check alone. Fix: ${current.fix}; or set "sandbox": {"mode": "off"} in settings to stop this warning.`,
        };
      }
      const backend = result as { backend: "bubblewrap" | "seatbelt"; file: string; userNamespace?: boolean };
      let bridge: NetBridge | undefined;
      let listNotice: string | undefined;
      if (allowList && backend.backend === "bubblewrap" && !allowListProblem) {
        try {
          bridge = await networkGate(backend).ensure();
        } catch (error) {
          // Fails closed: without the bridge, commands have no network at all.
          allowListProblem = (error as Error).message;
        }
      }
      if (allowList && !bridge && !allowListNoticeGiven) {
        allowListNoticeGiven = true;
        const why =
          allowListProblem ??
          (backend.backend === "bubblewrap" ? "unknown" : "it needs Linux (bubblewrap) for now");
        listNotice = `the network allow-list cannot start (${why}); commands run without network. Fix: install what is missing, or set "sandbox": {"network": true} to open the network.`;
      }
      const wrapped = wrap(backend, file, args, launchOptions, bridge);
      const launch = listNotice ? { ...wrapped, notice: listNotice } : wrapped;
      if (current.userNamespaceRefused === undefined || noticeGiven) return launch;
      noticeGiven = true;
      return {
        ...launch,
        notice: `${current.userNamespaceRefused}; commands run in the OS sandbox without one: as your own user (root included) with no capabilities. Fix: ${ALLOW_USER_NAMESPACES}; or set "sandbox": {"required": true} to refuse commands instead.`,
      };
    },
    launchUnchecked(file, args, launchOptions): SandboxLaunch | undefined {
      const backend = result ?? found;
      if (!wanted || !backend?.ok) return undefined;
      return wrap(backend, file, args, launchOptions);
    },
    setNetwork(next) {
      network = next === true;
      allowList = typeof next === "object" ? next : undefined;
      if (allowList) gate?.setPolicy(allowList);
    },
    allowHost(host, allow) {
      if (!allowList) return;
      const target =
        gate ?? (result?.ok && result.backend === "bubblewrap" ? networkGate(result) : undefined);
      if (!target) return;
      if (allow) target.allowForSession(host);
      else target.denyForSession(host);
    },
    dispose() {
      gate?.close();
      removeTmp();
      process.off("exit", removeTmp);
    },
  };
}

const TMP_PREFIX = "hx-sandbox-";

/**
 * Private temp dirs of hx processes that are gone (killed by a signal before they could clean
 * up), removed off the main thread; never rejects.
 */
async function removeStaleTmpDirs(tempRoot: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(tempRoot);
  } catch {
    return;
  }
  for (const name of names) {
    const match = name.startsWith(TMP_PREFIX) ? /^(\d+)-/.exec(name.slice(TMP_PREFIX.length)) : null;
    if (!match || isProcessAlive(Number(match[1]))) continue;
    await rm(path.join(tempRoot, name), { recursive: true, force: true }).catch(() => {});
  }
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

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
