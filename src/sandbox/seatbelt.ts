/** What a macOS seatbelt sandbox allows for one command. Paths absolute and real (`/private/...`). */
export interface SeatbeltPlan {
  writable: string[];
  /** Protected paths inside the writable folders: kept read-only whether they exist or not. */
  readOnly: string[];
  /** Folders around protected paths that must not be renamed (`.git` around `.git/config`). */
  pinned: string[];
  /** The session's private temp dir (TMPDIR inside). */
  tmpDir: string;
  network: boolean;
}

/**
 * The base of the profile, after Codex's `seatbelt_base_policy.sbpl` (itself after Chrome's):
 * closed by default, then what ordinary programs need to start — forking, signals within the
 * sandbox, sysctl reads, user lookups, /dev/null, PTYs.
 */
const BASE_POLICY = `(version 1)
(deny default)
(allow process-exec)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow user-preference-read)
(allow mach-host*)
(allow sysctl-read)
(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))
(allow mach-lookup (global-name "com.apple.PowerManagement.control"))
(allow ipc-posix-sem)
(allow ipc-posix-shm)
(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))
(allow file-read*)
(allow file-write-data (require-all (path "/dev/null") (vnode-type CHARACTER-DEVICE)))
(allow file-read* file-write* file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper"))
(allow pseudo-tty)
(allow file-read* file-write* file-ioctl (literal "/dev/ptmx"))
(allow file-read* file-write* file-ioctl (regex #"^/dev/ttys[0-9]+"))`;

/** With `sandbox.network`: sockets, plus the services name resolution and TLS need (Codex's network policy, after Chrome's). */
const NETWORK_POLICY = `(allow network-outbound)
(allow network-inbound)
(allow system-socket)
(allow mach-lookup
  (global-name "com.apple.bsd.dirhelper")
  (global-name "com.apple.system.opendirectoryd.membership")
  (global-name "com.apple.SecurityServer")
  (global-name "com.apple.networkd")
  (global-name "com.apple.ocspd")
  (global-name "com.apple.trustd.agent")
  (global-name "com.apple.SystemConfiguration.DNSConfiguration")
  (global-name "com.apple.SystemConfiguration.configd"))
(allow sysctl-read (sysctl-name-regex #"^net.routetable"))`;

/**
 * The profile and its parameters for `sandbox-exec -p PROFILE -DNAME=VALUE ...`. Paths go in
 * as parameters (`(param "WRITABLE_0")`), never spliced into the profile text, so no path can
 * change the profile's meaning. Each writable folder is allowed minus its protected paths
 * (`require-not`), so a protected path stays read-only even before it exists.
 */
export function seatbeltProfile(plan: SeatbeltPlan): { profile: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const roots = [...plan.writable, plan.tmpDir];
  const lines: string[] = [BASE_POLICY];
  roots.forEach((root, index) => {
    const name = `WRITABLE_${index}`;
    params[name] = root;
    // `subpath` covers the path itself and, for a folder, everything below it.
    const excluded = plan.readOnly
      .filter((file) => file.startsWith(`${root}/`))
      .map((file) => {
        const key = `PROTECTED_${Object.keys(params).length}`;
        params[key] = file;
        return `(require-not (subpath (param "${key}")))`;
      });
    const filter =
      excluded.length === 0
        ? `(subpath (param "${name}"))`
        : `(require-all (subpath (param "${name}")) ${excluded.join(" ")})`;
    lines.push(`(allow file-write* ${filter})`);
  });
  // Later rules win: moving `.git` away (and building a new one) is refused.
  plan.pinned.forEach((dir, index) => {
    const key = `PINNED_${index}`;
    params[key] = dir;
    lines.push(`(deny file-write-unlink (literal (param "${key}")))`);
  });
  if (plan.network) lines.push(NETWORK_POLICY);
  return { profile: `${lines.join("\n")}\n`, params };
}

/** `sandbox-exec` arguments running `command` under the profile. */
export function seatbeltArgs(plan: SeatbeltPlan, command: readonly string[]): string[] {
  const { profile, params } = seatbeltProfile(plan);
  return [
    "-p",
    profile,
    ...Object.entries(params).map(([key, value]) => `-D${key}=${value}`),
    "--",
    ...command,
  ];
}
