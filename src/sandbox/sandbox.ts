import os from "node:os";
import path from "node:path";
import { ALLOW_USER_NAMESPACES, type BackendProbe, findBackend, probeBackend } from "./detect.js";
import type { DomainPolicy } from "./domains.js";
import type { NetBridge } from "./net-bridge.js";
import { createNetworkGate, type NetworkAsker, type NetworkGate } from "./network.js";
import { Placeholders } from "./placeholders.js";
import { protectedMounts } from "./protected-mounts.js";
import { SandboxFiles } from "./sandbox-files.js";
import { unique, wrapForBubblewrap, wrapForSeatbelt } from "./sandbox-wrap.js";
import { unixSocketGap } from "./seccomp.js";
import type {
  CommandSandbox,
  LaunchOptions,
  SandboxLaunch,
  SandboxMode,
  SandboxRefusal,
  SandboxStatus,
} from "./types.js";

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

/** A backend that runs (probed) or is about to be probed. */
type Backend = { backend: "bubblewrap" | "seatbelt"; file: string; userNamespace?: boolean };
type Probed = Extract<BackendProbe, { ok: true }>;

/**
 * The OS sandbox of one session. The backend is found and tried on first use (or `check`);
 * when it cannot start, commands run without it after one notice that says how to fix it —
 * or are refused when `required`. Each launch computes the protected mounts afresh, since
 * `.git` or `.hx` may appear between commands.
 */
export function createSandbox(options: SandboxOptions): CommandSandbox {
  const sandbox = new SessionSandbox(options);
  return {
    status: () => sandbox.status(),
    check: () => sandbox.check(),
    launch: (file, args, launchOptions) => sandbox.launch(file, args, launchOptions),
    launchUnchecked: (file, args, launchOptions) => sandbox.launchUnchecked(file, args, launchOptions),
    setNetwork: (next) => sandbox.setNetwork(next),
    allowHost: (host, allow) => sandbox.allowHost(host, allow),
    allowWrites: (folder) => sandbox.allowWrites(folder),
    dispose: () => sandbox.dispose(),
  };
}

class SessionSandbox {
  private readonly home: string;
  private readonly tempRoot: string;
  private readonly wanted: Exclude<SandboxMode, "off"> | undefined;
  private readonly found: BackendProbe | undefined;
  private readonly placeholders: Placeholders;
  private readonly files: SandboxFiles;
  private probed: Promise<BackendProbe> | undefined;
  private result: BackendProbe | undefined;
  private noticeGiven = false;
  private network: boolean;
  private allowList: DomainPolicy | undefined;
  private gate: NetworkGate | undefined;
  private allowListNoticeGiven = false;
  private allowListProblem: string | undefined;
  /** Folders the user let commands write for this session (allowWrites). */
  private readonly sessionWritable: string[] = [];

  constructor(private readonly options: SandboxOptions) {
    this.home = options.home ?? os.homedir();
    this.tempRoot = options.tempRoot ?? os.tmpdir();
    this.wanted = options.mode === "off" ? undefined : options.mode;
    this.found = this.wanted ? findBackend(options.platform) : undefined;
    this.network = options.network;
    this.allowList = options.network ? undefined : options.allowList;
    this.placeholders = new Placeholders(path.join(this.tempRoot, "hx-sandbox-placeholders"));
    this.files = new SandboxFiles(this.tempRoot, options.arch);
  }

  status(): SandboxStatus {
    const { wanted, found, options } = this;
    if (!wanted || !found) return { state: "off" };
    const known = this.result ?? (found.ok ? undefined : found);
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
    return this.activeStatus(wanted, known);
  }

  private activeStatus(wanted: Exclude<SandboxMode, "off">, known: Probed): SandboxStatus {
    const { network, allowList, options } = this;
    const bubblewrap = known.backend === "bubblewrap";
    const gap = network || !bubblewrap ? undefined : unixSocketGap("linux", options.arch);
    const listState = allowList
      ? (this.gate?.state() ?? { ...allowList, sessionAllowed: [], sessionDenied: [] })
      : undefined;
    const listProblem =
      allowList && !bubblewrap
        ? "the network allow-list needs Linux (bubblewrap) for now"
        : this.allowListProblem;
    return {
      state: "active",
      mode: wanted,
      backend: known.backend,
      network,
      ...(listState ? { allowList: listState } : {}),
      ...(allowList && listProblem ? { allowListProblem: listProblem } : {}),
      writable: this.writable(),
      ...(gap ? { unixSocketGap: gap } : {}),
      ...(bubblewrap
        ? {
            userNamespace: known.userNamespace !== false,
            seccomp: unixSocketGap("linux", options.arch) === undefined,
            ...(known.userNamespaceRefused ? { userNamespaceRefused: known.userNamespaceRefused } : {}),
          }
        : {}),
    };
  }

  async check(): Promise<SandboxStatus> {
    const { wanted, found } = this;
    if (wanted && found) {
      this.probed ??= (this.options.probe ?? probeBackend)(found).then((probe) => {
        this.result = probe;
        if (probe.ok) this.placeholders.sweepStale();
        return probe;
      });
      await this.probed;
    }
    return this.status();
  }

  async launch(
    file: string,
    args: readonly string[],
    launchOptions: LaunchOptions,
  ): Promise<SandboxLaunch | SandboxRefusal> {
    const current = await this.check();
    const plain = {
      file,
      args: [...args],
      env: launchOptions.env,
      sandboxed: false,
      release: () => undefined,
    };
    if (current.state === "off" || current.state === "unchecked") return plain;
    if (current.state === "unavailable") return this.unavailable(current, plain);
    const backend = this.result as Backend;
    const bridge = await this.allowListBridge(backend);
    const listNotice = this.allowListNotice(backend, bridge);
    const wrapped = this.wrap(backend, file, args, launchOptions, bridge);
    const launch = listNotice ? { ...wrapped, notice: listNotice } : wrapped;
    if (current.userNamespaceRefused === undefined || this.noticeGiven) return launch;
    this.noticeGiven = true;
    return {
      ...launch,
      notice: `${current.userNamespaceRefused}; commands run in the OS sandbox without one: as your own user (root included) with no capabilities. Fix: ${ALLOW_USER_NAMESPACES}; or set "sandbox": {"required": true} to refuse commands instead.`,
    };
  }

  /** The sandbox cannot start: refused when required, else run plain after one notice. */
  private unavailable(
    current: Extract<SandboxStatus, { state: "unavailable" }>,
    plain: SandboxLaunch,
  ): SandboxLaunch | SandboxRefusal {
    if (current.required) {
      return {
        refused: `commands are refused: settings say sandbox.required, and the OS sandbox cannot start (${current.reason}). Tell the user; the fix: ${current.fix}.`,
      };
    }
    if (this.noticeGiven) return plain;
    this.noticeGiven = true;
    return {
      ...plain,
      notice: `the OS sandbox cannot start (${current.reason}); commands run with the permission check alone. Fix: ${current.fix}; or set "sandbox": {"mode": "off"} in settings to stop this warning.`,
    };
  }

  /** The allow-list's bridge (started on first need); fails closed: without it, no network. */
  private async allowListBridge(backend: Backend): Promise<NetBridge | undefined> {
    if (!this.allowList || backend.backend !== "bubblewrap" || this.allowListProblem) return undefined;
    try {
      return await this.networkGate(backend).ensure();
    } catch (error) {
      this.allowListProblem = (error as Error).message;
      return undefined;
    }
  }

  /** Once: the allow-list could not start, so commands run without network. */
  private allowListNotice(backend: Backend, bridge: NetBridge | undefined): string | undefined {
    if (!this.allowList || bridge || this.allowListNoticeGiven) return undefined;
    this.allowListNoticeGiven = true;
    const why =
      this.allowListProblem ??
      (backend.backend === "bubblewrap" ? "unknown" : "it needs Linux (bubblewrap) for now");
    return `the network allow-list cannot start (${why}); commands run without network. Fix: install what is missing, or set "sandbox": {"network": true} to open the network.`;
  }

  launchUnchecked(
    file: string,
    args: readonly string[],
    launchOptions: LaunchOptions,
  ): SandboxLaunch | undefined {
    const backend = this.result ?? this.found;
    if (!this.wanted || !backend?.ok) return undefined;
    return this.wrap(backend, file, args, launchOptions);
  }

  setNetwork(next: boolean | DomainPolicy): void {
    this.network = next === true;
    this.allowList = typeof next === "object" ? next : undefined;
    if (this.allowList) this.gate?.setPolicy(this.allowList);
  }

  allowHost(host: string, allow: boolean): void {
    if (!this.allowList) return;
    const { result } = this;
    const target =
      this.gate ?? (result?.ok && result.backend === "bubblewrap" ? this.networkGate(result) : undefined);
    if (!target) return;
    if (allow) target.allowForSession(host);
    else target.denyForSession(host);
  }

  allowWrites(folder: string): void {
    if (path.isAbsolute(folder)) this.sessionWritable.push(path.resolve(folder));
  }

  dispose(): void {
    this.gate?.close();
    this.files.dispose();
  }

  /** The allow-list's proxy and bridge, for bubblewrap (started on first need). */
  private networkGate(backend: { file: string; userNamespace?: boolean }): NetworkGate {
    const { options } = this;
    this.gate ??= createNetworkGate({
      policy: this.allowList ?? { allowedDomains: [], deniedDomains: [] },
      ask: options.askNetwork,
      saveAllowedDomain: options.saveAllowedDomain,
      tempRoot: this.tempRoot,
      bwrap: backend.file,
      userNamespace: backend.userNamespace !== false,
      nsenter: options.nsenter,
    });
    return this.gate;
  }

  private writable(): string[] {
    return this.wanted === "workspace-write"
      ? unique([this.options.workspaceRoot, ...this.options.writablePaths, ...this.sessionWritable])
      : [];
  }

  /** `file args` wrapped for `backend`, which runs (probed) or is about to be probed. */
  private wrap(
    backend: Backend,
    file: string,
    args: readonly string[],
    { cwd, env }: LaunchOptions,
    bridge?: NetBridge,
  ): SandboxLaunch {
    const { options } = this;
    const tmpDir = this.files.tmp();
    const caches = this.wanted === "workspace-write" ? (options.cachePaths ?? []) : [];
    const protectedRoots = this.writable();
    const request = {
      program: backend.file,
      command: [file, ...args],
      cwd,
      env,
      roots: unique([...protectedRoots, ...caches]),
      mounts: protectedMounts(protectedRoots, this.home, (f) => this.placeholders.isStandIn(f)),
      tmpDir,
      network: this.network,
    };
    if (backend.backend === "seatbelt") return wrapForSeatbelt(request);
    const gate = this.gate;
    const mark = bridge ? gate?.refusedCount() : undefined;
    return wrapForBubblewrap({
      ...request,
      placeholders: this.placeholders,
      visible: [this.home, options.workspaceRoot, cwd],
      userNamespace: backend.userNamespace !== false,
      filter: this.files.filter(!this.network),
      bridge,
      ...(mark !== undefined ? { refusedSince: () => gate?.refusedSince(mark) ?? [] } : {}),
    });
  }
}
