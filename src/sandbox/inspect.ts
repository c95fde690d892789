import { spawn } from "node:child_process";
import { withInheritedFiles } from "../process/inherited-files.js";
import type { CommandSandbox } from "./types.js";

/** What a command sees of its own privileges inside the sandbox, as `hx doctor` reports it. */
export interface SandboxInside {
  /** The uid a command runs as (the same as hx's: the user namespace maps it to itself). */
  uid: number;
  /** `CapEff` from the command's /proc/self/status (hex), or "unknown" where there is none (macOS). */
  capEff: string;
  /**
   * Whether the walls hold for the user who runs hx, root included: no capabilities, a user
   * namespace of its own, and the seccomp filter against mounts and new user namespaces.
   */
  holds: boolean;
  /** Why not, when `holds` is false. */
  why?: string;
}

const INSPECT_TIMEOUT_MS = 5_000;

/**
 * Runs `id -u` and reads `CapEff` in the sandbox, as a command would. Undefined when commands
 * do not run in it (off, unavailable) or the inspection itself fails.
 */
export async function inspectSandbox(
  sandbox: CommandSandbox,
  cwd: string,
): Promise<SandboxInside | undefined> {
  const status = await sandbox.check();
  if (status.state !== "active") return undefined;
  const launch = await sandbox.launch(
    "/bin/sh",
    ["-c", "id -u; sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status 2>/dev/null || true"],
    { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
  );
  if ("refused" in launch) return undefined;
  const out = await new Promise<string | undefined>((resolve) => {
    let text = "";
    const child = withInheritedFiles(launch.inheritFiles, (fds) =>
      spawn(launch.file, launch.args, { cwd, env: launch.env, stdio: ["ignore", "pipe", "ignore", ...fds] }),
    );
    const timer = setTimeout(() => child.kill("SIGKILL"), INSPECT_TIMEOUT_MS);
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    child.on("error", () => resolve(undefined));
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? text : undefined);
    });
  });
  launch.release();
  if (out === undefined) return undefined;
  const [uidLine, capLine] = out.trim().split("\n");
  const uid = Number(uidLine);
  if (!Number.isInteger(uid)) return undefined;
  const capEff = capLine?.trim() || "unknown";
  if (status.backend !== "bubblewrap") return { uid, capEff, holds: true };
  const reasons: string[] = [];
  if (!/^0+$/.test(capEff)) reasons.push(`commands keep capabilities (CapEff ${capEff})`);
  if (status.userNamespace === false)
    reasons.push(`no user namespace of their own (${status.userNamespaceRefused ?? "refused"})`);
  if (status.seccomp === false) reasons.push("no seccomp filter for this architecture");
  return reasons.length === 0
    ? { uid, capEff, holds: true }
    : { uid, capEff, holds: false, why: reasons.join("; ") };
}

/** One line for `hx doctor`. */
export function describeInside(inside: SandboxInside): string {
  const who = inside.uid === 0 ? "root" : `uid ${inside.uid}`;
  const caps = /^0+$/.test(inside.capEff)
    ? `no capabilities (CapEff ${inside.capEff})`
    : `CapEff ${inside.capEff}`;
  return inside.holds
    ? `inside: ${who}, ${caps}: the sandbox holds as ${who === "root" ? "root" : "this user"}`
    : `inside: ${who}, ${caps}: the sandbox does not fully hold as ${who === "root" ? "root" : "this user"}: ${inside.why}`;
}
