import { bwrapNamespaceArgs } from "./detect.js";

/** What a bubblewrap sandbox holds for one command. All paths absolute and real. */
export interface MountPlan {
  /** Folders commands may write to (the workspace in workspace-write mode, settings' writablePaths). */
  writable: string[];
  /** Paths kept read-only inside the writable folders (protected paths, placeholders included). */
  readOnly: string[];
  /** Writable folders that must not be renamed (`.git` around `.git/config`): bound on themselves. */
  pinned: string[];
  /** The session's private temp dir, seen as /tmp inside. */
  tmpDir: string;
  /** Folders under /tmp that must stay visible (read-only) although /tmp is replaced, e.g. $HOME in tests. */
  keepVisible: string[];
  network: boolean;
  /** A user namespace of its own (false only where the kernel refuses one: `detect.ts`). */
  userNamespace: boolean;
  cwd: string;
  /** An open file descriptor holding a seccomp filter (`seccomp.ts`) for the command. */
  seccompFd?: number;
}

/**
 * The bubblewrap arguments for `command` (Codex's linux-sandbox and Claude Code's
 * sandbox-runtime do the same): the whole filesystem read-only, a minimal /dev, a fresh /proc
 * for a new PID namespace, a private /tmp, the writable folders bound read-write, then the
 * protected paths bound read-only over them (later mounts win). `--die-with-parent` and the
 * PID namespace take every process of the command down with it, or with hx. Without
 * `network`, a new network namespace holds only a loopback device, and a seccomp filter
 * refuses Unix sockets, which reach the host's servers through the filesystem.
 *
 * As root too: the command runs in a user namespace of its own with every capability dropped
 * (`--cap-drop ALL`; bwrap also sets no_new_privs, so no setuid or file-capability program
 * gives them back), and the seccomp filter refuses mount calls, new user namespaces, ptrace.
 * Its uid is the caller's (0 maps to 0), so what it writes in the workspace is owned by the
 * user who runs hx.
 */
export function bwrapArgs(plan: MountPlan, command: readonly string[]): string[] {
  const args = bwrapNamespaceArgs(plan.userNamespace);
  if (!plan.network) args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", plan.tmpDir, "/tmp");
  for (const dir of plan.keepVisible) args.push("--ro-bind", dir, dir);
  for (const dir of plan.writable) args.push("--bind", dir, dir);
  // A mount point cannot be renamed or removed: binding `.git` on itself stops `mv .git x`.
  for (const dir of plan.pinned) args.push("--bind", dir, dir);
  for (const file of plan.readOnly) args.push("--ro-bind", file, file);
  if (plan.seccompFd !== undefined) args.push("--seccomp", String(plan.seccompFd));
  args.push("--chdir", plan.cwd, "--", ...command);
  return args;
}
