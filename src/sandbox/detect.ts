import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";
import type { SandboxBackend } from "./types.js";

export type BackendProbe =
  | {
      ok: true;
      backend: SandboxBackend;
      file: string;
      /**
       * bubblewrap: whether commands get a user namespace of their own (`--unshare-user`).
       * False only where the kernel refuses one and bwrap still runs without (as root): then
       * `userNamespaceRefused` says why.
       */
      userNamespace?: boolean;
      userNamespaceRefused?: string;
    }
  | { ok: false; reason: string; fix: string };

/** What to do where the kernel refuses user namespaces. */
export const ALLOW_USER_NAMESPACES =
  "allow user namespaces (sudo sysctl -w user.max_user_namespaces=15000; Debian: sudo sysctl -w kernel.unprivileged_userns_clone=1; Ubuntu 24.04+: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0), or in a container run it with --privileged";

const SANDBOX_EXEC = "/usr/bin/sandbox-exec";
const PROBE_TIMEOUT_MS = 5_000;

const INSTALL_BWRAP =
  "install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)";

/** The first executable `name` on PATH. */
export function findOnPath(name: string, searchPath = process.env.PATH ?? ""): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Which backend this platform has, before trying it. */
export function findBackend(platform: NodeJS.Platform = process.platform): BackendProbe {
  if (platform === "linux") {
    const file = findOnPath("bwrap");
    if (!file) return { ok: false, reason: "bubblewrap (bwrap) is not installed", fix: INSTALL_BWRAP };
    return { ok: true, backend: "bubblewrap", file };
  }
  if (platform === "darwin") {
    try {
      accessSync(SANDBOX_EXEC, constants.X_OK);
      return { ok: true, backend: "seatbelt", file: SANDBOX_EXEC };
    } catch {
      return {
        ok: false,
        reason: `${SANDBOX_EXEC} is missing`,
        fix: "it ships with macOS; check the system install",
      };
    }
  }
  return {
    ok: false,
    reason: `hx has no OS sandbox for ${platform}`,
    fix: "run hx in WSL2 or Linux with bubblewrap installed",
  };
}

/** The bubblewrap flags every command gets before its mounts: `bwrap.ts` and the probe share them. */
export function bwrapNamespaceArgs(userNamespace: boolean): string[] {
  return [
    "--new-session",
    "--die-with-parent",
    ...(userNamespace ? ["--unshare-user"] : []),
    "--cap-drop",
    "ALL",
    "--unshare-pid",
  ];
}

/**
 * Tries the backend once with the flags commands will use, so a kernel without user
 * namespaces (or a container that forbids mounting /proc) is found before the first command.
 * bubblewrap is tried with a user namespace first; where the kernel refuses one and bwrap
 * runs without (as root), the probe says so and commands run without it.
 */
export async function probeBackend(
  found: BackendProbe,
  run: (file: string, args: string[]) => Promise<{ code: number | null; stderr: string }> = runQuietly,
): Promise<BackendProbe> {
  if (!found.ok) return found;
  if (found.backend === "seatbelt") {
    const result = await run(found.file, ["-p", "(version 1)(allow default)", "--", "/usr/bin/true"]);
    return result.code === 0 ? found : { ok: false, ...explainProbeFailure(found.backend, result.stderr) };
  }
  const tail = ["--unshare-net", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "true"];
  const withUser = await run(found.file, [...bwrapNamespaceArgs(true), ...tail]);
  if (withUser.code === 0) return { ...found, userNamespace: true };
  const without = await run(found.file, [...bwrapNamespaceArgs(false), ...tail]);
  if (without.code !== 0) return { ok: false, ...explainProbeFailure(found.backend, withUser.stderr) };
  const message = withUser.stderr.trim().split("\n")[0] || "it exited with an error";
  return {
    ...found,
    userNamespace: false,
    userNamespaceRefused: `the kernel refuses user namespaces: ${message}`,
  };
}

/** Why the probe failed and what to do, from the backend's message. */
function explainProbeFailure(backend: SandboxBackend, stderr: string): { reason: string; fix: string } {
  const message = stderr.trim().split("\n")[0] || "it exited with an error";
  if (backend === "seatbelt")
    return { reason: `sandbox-exec failed: ${message}`, fix: "check that sandbox-exec runs outside hx" };
  if (/namespace|uid map|Operation not permitted|Permission denied/i.test(message)) {
    return {
      reason: `bwrap cannot create namespaces: ${message}`,
      fix: ALLOW_USER_NAMESPACES,
    };
  }
  if (/proc/i.test(message)) {
    return {
      reason: `bwrap cannot mount /proc: ${message}`,
      fix: "this container forbids mounting /proc; run it with --privileged (or --security-opt systempaths=unconfined)",
    };
  }
  return {
    reason: `bwrap failed: ${message}`,
    fix: "run the same bwrap command by hand to see why (hx doctor shows the details)",
  };
}

function runQuietly(file: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    let stderr = "";
    const child = spawn(file, args, { stdio: ["ignore", "ignore", "pipe"] });
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_TIMEOUT_MS);
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: error.message });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}
