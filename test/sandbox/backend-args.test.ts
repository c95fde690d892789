import { describe, expect, it } from "vitest";
import { bwrapArgs, type MountPlan } from "../../src/sandbox/bwrap.js";
import { seatbeltArgs, seatbeltProfile } from "../../src/sandbox/seatbelt.js";

const plan: MountPlan = {
  writable: ["/work/project", "/home/me/.npm"],
  readOnly: ["/work/project/.hx", "/work/project/.git/config"],
  pinned: ["/work/project/.git"],
  tmpDir: "/tmp/hx-sandbox-abc",
  keepVisible: [],
  network: false,
  userNamespace: true,
  cwd: "/work/project",
};

/** The index of the first `flag value...` run in args, or -1. */
function indexOf(args: string[], ...run: string[]): number {
  return args.findIndex((_, i) => run.every((word, j) => args[i + j] === word));
}

describe("bwrapArgs", () => {
  it("mounts the root read-only, then the writable folders, then the protected paths over them", () => {
    const args = bwrapArgs(plan, ["bash", "-c", "make"]);
    const root = indexOf(args, "--ro-bind", "/", "/");
    const tmp = indexOf(args, "--bind", "/tmp/hx-sandbox-abc", "/tmp");
    const work = indexOf(args, "--bind", "/work/project", "/work/project");
    const pinned = indexOf(args, "--bind", "/work/project/.git", "/work/project/.git");
    const config = indexOf(args, "--ro-bind", "/work/project/.git/config", "/work/project/.git/config");
    const hx = indexOf(args, "--ro-bind", "/work/project/.hx", "/work/project/.hx");
    expect(root).toBeGreaterThanOrEqual(0);
    expect([root < tmp, tmp < work, work < pinned, pinned < config, work < hx]).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(indexOf(args, "--bind", "/home/me/.npm", "/home/me/.npm")).toBeGreaterThan(tmp);
  });

  it("takes the command's processes down with it: new PID namespace, --die-with-parent, its own session", () => {
    const args = bwrapArgs(plan, ["true"]);
    for (const flag of ["--unshare-pid", "--die-with-parent", "--new-session"]) expect(args).toContain(flag);
    expect(indexOf(args, "--proc", "/proc")).toBeGreaterThan(indexOf(args, "--ro-bind", "/", "/"));
    expect(indexOf(args, "--dev", "/dev")).toBeGreaterThan(indexOf(args, "--ro-bind", "/", "/"));
  });

  it("drops every capability in a user namespace of its own, or without one where the kernel refuses it", () => {
    const args = bwrapArgs(plan, ["true"]);
    expect(args).toContain("--unshare-user");
    expect(indexOf(args, "--cap-drop", "ALL")).toBeGreaterThanOrEqual(0);
    expect(indexOf(args, "--cap-drop", "ALL")).toBeLessThan(args.indexOf("--"));
    const without = bwrapArgs({ ...plan, userNamespace: false }, ["true"]);
    expect(without).not.toContain("--unshare-user");
    expect(indexOf(without, "--cap-drop", "ALL")).toBeGreaterThanOrEqual(0);
  });

  it("closes the network unless allowed", () => {
    expect(bwrapArgs(plan, ["true"])).toContain("--unshare-net");
    expect(bwrapArgs({ ...plan, network: true }, ["true"])).not.toContain("--unshare-net");
  });

  it("ends with the working folder and the command after --, untouched", () => {
    const args = bwrapArgs(plan, ["bash", "-c", "echo '$(x)' -- --bind / /"]);
    expect(args.slice(-6)).toEqual([
      "--chdir",
      "/work/project",
      "--",
      "bash",
      "-c",
      "echo '$(x)' -- --bind / /",
    ]);
  });

  it("keeps folders under /tmp visible read-only after replacing /tmp", () => {
    const args = bwrapArgs({ ...plan, keepVisible: ["/tmp/home"] }, ["true"]);
    expect(indexOf(args, "--ro-bind", "/tmp/home", "/tmp/home")).toBeGreaterThan(
      indexOf(args, "--bind", "/tmp/hx-sandbox-abc", "/tmp"),
    );
  });
});

describe("bwrapArgs with the seccomp filter against Unix sockets", () => {
  it("is passed to bwrap by file descriptor, before the command", () => {
    const args = bwrapArgs({ ...plan, seccompFd: 3 }, ["bash"]);
    expect(indexOf(args, "--seccomp", "3")).toBeGreaterThan(0);
    expect(indexOf(args, "--seccomp", "3")).toBeLessThan(args.indexOf("--"));
    expect(bwrapArgs(plan, ["bash"])).not.toContain("--seccomp");
  });
});

describe("seatbeltProfile", () => {
  const seatbelt = {
    writable: ["/Users/me/project"],
    readOnly: ["/Users/me/project/.hx", "/Users/me/project/.git/config", "/Users/me/project/.mcp.json"],
    pinned: ["/Users/me/project/.git"],
    tmpDir: "/private/var/folders/xy/T/hx-sandbox-1",
    network: false,
  };

  it("is closed by default and allows reading everything", () => {
    const { profile } = seatbeltProfile(seatbelt);
    expect(profile.startsWith("(version 1)\n(deny default)\n")).toBe(true);
    expect(profile).toContain("(allow file-read*)");
    expect(profile).toContain("(allow process-exec)");
    expect(profile).toContain("(allow process-fork)");
  });

  it("allows writes to each writable folder minus its protected paths, all passed as parameters", () => {
    const { profile, params } = seatbeltProfile(seatbelt);
    expect(params).toEqual({
      WRITABLE_0: "/Users/me/project",
      PROTECTED_1: "/Users/me/project/.hx",
      PROTECTED_2: "/Users/me/project/.git/config",
      PROTECTED_3: "/Users/me/project/.mcp.json",
      WRITABLE_1: "/private/var/folders/xy/T/hx-sandbox-1",
      PINNED_0: "/Users/me/project/.git",
    });
    expect(profile).toContain(
      '(allow file-write* (require-all (subpath (param "WRITABLE_0")) (require-not (subpath (param "PROTECTED_1")))' +
        ' (require-not (subpath (param "PROTECTED_2"))) (require-not (subpath (param "PROTECTED_3")))))',
    );
    expect(profile).toContain('(allow file-write* (subpath (param "WRITABLE_1")))');
    // After the allows, so it wins: .git cannot be moved away and rebuilt.
    expect(profile.indexOf('(deny file-write-unlink (literal (param "PINNED_0")))')).toBeGreaterThan(
      profile.indexOf('(param "WRITABLE_1")'),
    );
    // No path is spliced into the profile text.
    expect(profile).not.toContain("/Users/me");
  });

  it("has no network rule unless the network is allowed", () => {
    expect(seatbeltProfile(seatbelt).profile).not.toMatch(/network/);
    expect(seatbeltProfile({ ...seatbelt, network: true }).profile).toContain("(allow network-outbound)");
  });

  it("passes the profile, the parameters and the command to sandbox-exec", () => {
    const args = seatbeltArgs(seatbelt, ["bash", "-c", "ls"]);
    expect(args[0]).toBe("-p");
    expect(args).toContain("-DWRITABLE_0=/Users/me/project");
    expect(args.slice(-4)).toEqual(["--", "bash", "-c", "ls"]);
  });
});
