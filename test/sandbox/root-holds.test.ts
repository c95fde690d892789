// The sandbox holds as root: commands run in a user namespace with no capabilities, and the
// seccomp filter refuses mounts, new user namespaces and the like. Every escape is attempted
// inside the sandbox, where it is refused; what would show it worked is a harmless marker
// file in a temp folder outside the workspace.
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type BackendProbe, probeBackend } from "../../src/sandbox/detect.js";
import type { SandboxOptions } from "../../src/sandbox/index.js";
import { tempDir } from "../support/temp-dir.js";
import { backend, sandboxedBash, skipReason } from "./sandbox-support.js";

const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

const uid = process.getuid?.() ?? -1;
const asWho = uid === 0 ? "as root" : `as uid ${uid}`;

function sandboxed(overrides: Partial<SandboxOptions> = {}) {
  return sandboxedBash(disposers, overrides);
}

/** The capability sets of the sandboxed shell, from /proc/self/status. */
function capabilities(out: string): Record<string, string> {
  return Object.fromEntries([...out.matchAll(/^(Cap\w+):\s*([0-9a-f]+)$/gm)].map((m) => [m[1], m[2]]));
}

describe(`the sandbox holds ${asWho}${skipReason}`, () => {
  it.skipIf(!backend.ok)("commands have no capabilities and cannot gain any", async () => {
    const { run, sandbox } = sandboxed();
    const out = await run("grep -E '^(Cap|NoNewPrivs)' /proc/self/status; id -u");
    expect(capabilities(out)).toEqual({
      CapInh: "0000000000000000",
      CapPrm: "0000000000000000",
      CapEff: "0000000000000000",
      CapBnd: "0000000000000000",
      CapAmb: "0000000000000000",
    });
    expect(out).toMatch(/^NoNewPrivs:\s*1$/m);
    // The same uid as hx (0 maps to 0): the user namespace changes no file's owner.
    expect(out.trim().split("\n").at(-1)).toBe(String(uid));
    expect(sandbox.status()).toMatchObject({ state: "active", userNamespace: true, seccomp: true });
  });

  it.skipIf(!backend.ok)(
    "cannot unmount a protected path, remount / writable, or escape into a new user namespace",
    async () => {
      const { root, run } = sandboxed();
      mkdirSync(path.join(root, ".git/hooks"), { recursive: true });
      writeFileSync(path.join(root, ".git/config"), "[core]\n");
      const outside = realpathSync(tempDir("hx-root-outside-"));
      const marker = path.join(outside, "marker");
      const out = await run(
        [
          "umount .git/hooks && echo UNMOUNTED",
          "umount -l .git/config && echo UNMOUNTED",
          "mount -o remount,bind,rw / && echo REMOUNTED",
          `mount -o remount,bind,rw '${outside}' && echo REMOUNTED`,
          `mount --bind /tmp '${outside}' && echo MOUNTED`,
          "mount -t tmpfs none .git/hooks && echo MOUNTED",
          `unshare -U -r sh -c "mount -o remount,bind,rw / && echo REMOUNTED; echo escaped > '${marker}'" || echo unshare-refused`,
          "unshare -U true || echo unshare-user-refused",
          "nsenter -t 1 -m true || echo setns-refused",
          `echo escaped > '${marker}'`,
          "echo planted > .git/hooks/pre-commit",
          "echo '[core] fsmonitor = touch M' >> .git/config",
          "echo done",
        ].join("; "),
      );
      expect(out).not.toMatch(/UNMOUNTED|REMOUNTED|MOUNTED/);
      expect(out).toContain("unshare-refused");
      expect(out).toContain("unshare-user-refused");
      expect(out).toContain("setns-refused");
      expect(out).toContain("done");
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(path.join(root, ".git/hooks/pre-commit"))).toBe(false);
      expect(readFileSync(path.join(root, ".git/config"), "utf8")).toBe("[core]\n");
    },
  );

  it.skipIf(!backend.ok)("files written in the workspace belong to the user who runs hx", async () => {
    const { root, run } = sandboxed();
    expect(await run("mkdir -p sub && echo hi > sub/f && echo ok")).toBe("ok");
    for (const file of ["sub", "sub/f"]) {
      const stat = statSync(path.join(root, file));
      expect([stat.uid, stat.gid]).toEqual([uid, process.getgid?.()]);
    }
  });

  it.skipIf(!backend.ok)(
    "ordinary programs still run: threads (clone3 falls back to clone), fork, node",
    async () => {
      const { run } = sandboxed();
      const out = await run(
        `node -e "new (require('worker_threads').Worker)('process.exit(0)', { eval: true }).on('exit', () => console.log('worker ok'))"; (echo forked) & wait`,
      );
      expect(out).toContain("worker ok");
      expect(out).toContain("forked");
    },
  );
});

describe(`where the kernel refuses user namespaces${skipReason}`, () => {
  /** bwrap as it runs, except that creating a user namespace fails as such a kernel makes it. */
  const refusing = (found: BackendProbe) =>
    probeBackend(found, async (file, args) => {
      if (args.includes("--unshare-user"))
        return { code: 1, stderr: "bwrap: No permissions to create new namespace\n" };
      const { spawnSync } = await import("node:child_process");
      const result = spawnSync(file, args, { encoding: "utf8" });
      return { code: result.status, stderr: result.stderr };
    });

  it.skipIf(!backend.ok || uid !== 0)(
    "as root, commands still run without capabilities, after one plain notice",
    async () => {
      const { run, notices, sandbox } = sandboxed({ probe: refusing });
      const out = await run("grep CapEff /proc/self/status; mount -o remount,bind,rw / && echo REMOUNTED");
      expect(capabilities(out).CapEff).toBe("0000000000000000");
      expect(out).not.toContain("REMOUNTED");
      await run("true");
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(
        /^the kernel refuses user namespaces: bwrap: No permissions to create new namespace; commands run in the OS sandbox without one/,
      );
      expect(sandbox.status()).toMatchObject({ state: "active", userNamespace: false });
    },
  );

  it.skipIf(!backend.ok)("with sandbox.required, commands are refused and the fix is named", async () => {
    const { root, run, sandbox } = sandboxed({ probe: refusing, required: true });
    await expect(run("touch ran")).rejects.toThrow(/commands are refused: settings say sandbox\.required/);
    expect(existsSync(path.join(root, "ran"))).toBe(false);
    const status = sandbox.status();
    expect(status.state).toBe("unavailable");
    if (status.state === "unavailable") expect(status.fix).toMatch(/user\.max_user_namespaces/);
  });
});
