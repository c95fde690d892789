import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeSandbox } from "../../src/sandbox/describe.js";
import { sandboxNoteForModel } from "../../src/sandbox/policy.js";
import { createSandbox } from "../../src/sandbox/sandbox.js";
import {
  BPF_JEQ_K,
  BPF_JSET_K,
  BPF_LD_W_ABS,
  BPF_RET_K,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_ENOSYS,
  SECCOMP_RET_EPERM,
  sandboxFilter,
  unixSocketGap,
} from "../../src/sandbox/seccomp.js";
import { tempDir } from "../support/temp-dir.js";

/** What the kernel hands the filter: the call, the ABI (AUDIT_ARCH_*) and the first argument. */
interface Call {
  nr: number;
  arch: number;
  arg0?: number;
}

/**
 * Runs a classic BPF program as the kernel would over `struct seccomp_data`, refusing any
 * instruction the filter should not contain (so a wrong opcode fails here, not in bwrap).
 */
function runFilter(filter: Buffer, call: Call): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr | 0, 0);
  data.writeUInt32LE(call.arch >>> 0, 4);
  data.writeUInt32LE((call.arg0 ?? 0) >>> 0, 16);
  let accumulator = 0;
  for (let pc = 0; pc < filter.length / 8; ) {
    const base = pc * 8;
    const code = filter.readUInt16LE(base);
    const jt = filter.readUInt8(base + 2);
    const jf = filter.readUInt8(base + 3);
    const k = filter.readUInt32LE(base + 4);
    if (code === BPF_LD_W_ABS) {
      if (k % 4 !== 0 || k + 4 > data.length) throw new Error(`bad load offset ${k}`);
      accumulator = data.readUInt32LE(k);
      pc += 1;
    } else if (code === BPF_JEQ_K) {
      pc += 1 + (accumulator === k ? jt : jf);
    } else if (code === BPF_JSET_K) {
      pc += 1 + ((accumulator & k) !== 0 ? jt : jf);
    } else if (code === BPF_RET_K) {
      return k;
    } else throw new Error(`unexpected opcode ${code}`);
  }
  throw new Error("the filter ran off its end");
}

const X86_64 = 0xc000_003e;
const I386 = 0x4000_0003;
const AARCH64 = 0xc000_00b7;
const ARM = 0x4000_0028;
const X32 = 0x4000_0000;
const AF_UNIX = 1;
const AF_INET = 2;
const CLONE_NEWUSER = 0x1000_0000;
const CLONE_NEWNS = 0x0002_0000;
const SIGCHLD = 17;
const EPERM = SECCOMP_RET_EPERM;
const ENOSYS = SECCOMP_RET_ENOSYS;
const ALLOW = SECCOMP_RET_ALLOW;

/** Per ABI: the calls refused whatever their arguments, clone and unshare, clone3, socket. */
const TABLES = {
  x64: {
    arch: X86_64,
    // mount umount2 pivot_root ptrace add_key request_key keyctl perf_event_open setns bpf,
    // io_uring x3, open_tree move_mount fsopen fsconfig fsmount fspick mount_setattr
    denied: [
      165, 166, 155, 101, 248, 249, 250, 298, 308, 321, 425, 426, 427, 428, 429, 430, 431, 432, 433, 442,
    ],
    clone: 56,
    unshare: 272,
    socket: 41,
  },
  i386: {
    arch: I386,
    denied: [
      21, 22, 52, 217, 26, 286, 287, 288, 336, 346, 357, 425, 426, 427, 428, 429, 430, 431, 432, 433, 442,
    ],
    clone: 120,
    unshare: 310,
    socket: 359,
  },
  arm64: {
    arch: AARCH64,
    denied: [40, 39, 41, 117, 217, 218, 219, 241, 268, 280, 425, 426, 427, 428, 429, 430, 431, 432, 433, 442],
    clone: 220,
    unshare: 97,
    socket: 198,
  },
  arm: {
    arch: ARM,
    denied: [21, 52, 218, 26, 309, 310, 311, 364, 375, 386, 425, 426, 427, 428, 429, 430, 431, 432, 433, 442],
    clone: 120,
    unshare: 337,
    socket: 281,
  },
};

describe.each([
  ["x64", [TABLES.x64, TABLES.i386]],
  ["arm64", [TABLES.arm64, TABLES.arm]],
] as const)("the seccomp filter on %s", (arch, abis) => {
  const closed = sandboxFilter(arch, { refuseUnixSockets: true })!;
  const open = sandboxFilter(arch, { refuseUnixSockets: false })!;

  it.each(abis.map((abi) => [abi.arch.toString(16), abi] as const))(
    "ABI %s: refuses mounts, namespaces, ptrace, keys, bpf, perf and io_uring, with or without the network",
    (_, abi) => {
      for (const filter of [closed, open]) {
        const run = (call: Call) => runFilter(filter, call);
        for (const nr of abi.denied) expect(run({ arch: abi.arch, nr }), `call ${nr}`).toBe(EPERM);
        // clone3's flags are in user memory: ENOSYS makes libc fall back to clone.
        expect(run({ arch: abi.arch, nr: 435 })).toBe(ENOSYS);
        expect(run({ arch: abi.arch, nr: abi.clone, arg0: CLONE_NEWUSER | SIGCHLD })).toBe(EPERM);
        expect(run({ arch: abi.arch, nr: abi.unshare, arg0: CLONE_NEWUSER })).toBe(EPERM);
        expect(run({ arch: abi.arch, nr: abi.unshare, arg0: CLONE_NEWUSER | CLONE_NEWNS })).toBe(EPERM);
        // fork, threads and other namespaces (which need capabilities the command lacks) pass.
        expect(run({ arch: abi.arch, nr: abi.clone, arg0: SIGCHLD })).toBe(ALLOW);
        expect(run({ arch: abi.arch, nr: abi.clone, arg0: 0x003d_0f00 /* pthread_create */ })).toBe(ALLOW);
        expect(run({ arch: abi.arch, nr: abi.unshare, arg0: CLONE_NEWNS })).toBe(ALLOW);
        expect(run({ arch: abi.arch, nr: abi.socket, arg0: AF_INET })).toBe(ALLOW);
      }
      expect(runFilter(closed, { arch: abi.arch, nr: abi.socket, arg0: AF_UNIX })).toBe(EPERM);
      expect(runFilter(open, { arch: abi.arch, nr: abi.socket, arg0: AF_UNIX })).toBe(ALLOW);
    },
  );

  it("refuses every call of an ABI it does not know (fails closed)", () => {
    const other = arch === "x64" ? AARCH64 : X86_64;
    expect(runFilter(closed, { arch: other, nr: 63 })).toBe(EPERM);
    expect(runFilter(open, { arch: 0, nr: 0 })).toBe(EPERM);
  });

  it("allows any other call of a known ABI (property)", () => {
    for (const abi of abis) {
      const special = new Set([...abi.denied, 435, abi.clone, abi.unshare, abi.socket, 102]);
      fc.assert(
        fc.property(fc.integer({ min: 0, max: X32 - 1 }), fc.integer(), (nr, arg0) => {
          fc.pre(!special.has(nr));
          expect(runFilter(closed, { arch: abi.arch, nr, arg0 })).toBe(ALLOW);
        }),
      );
      fc.assert(
        fc.property(fc.integer(), (arg0) => {
          expect(runFilter(closed, { arch: abi.arch, nr: abi.socket, arg0 })).toBe(
            arg0 === AF_UNIX ? EPERM : ALLOW,
          );
          expect(runFilter(closed, { arch: abi.arch, nr: abi.clone, arg0 })).toBe(
            arg0 & CLONE_NEWUSER ? EPERM : ALLOW,
          );
        }),
      );
    }
  });
});

describe("the seccomp filter on x86-64: the other ABIs", () => {
  const filter = sandboxFilter("x64", { refuseUnixSockets: true })!;
  const run = (call: Call) => runFilter(filter, call);

  it("refuses the whole x32 ABI", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), (nr) => {
        expect(run({ arch: X86_64, nr: X32 | nr })).toBe(EPERM);
      }),
    );
  });

  it("closes i386's socketcall(SYS_SOCKET) too, whose family sits in user memory", () => {
    expect(run({ arch: I386, nr: 102, arg0: 1 /* SYS_SOCKET */ })).toBe(EPERM);
    expect(run({ arch: I386, nr: 102, arg0: 8 /* SYS_SOCKETPAIR */ })).toBe(ALLOW);
    // 41 is not socket on i386 (it is dup).
    expect(run({ arch: I386, nr: 41, arg0: AF_UNIX })).toBe(ALLOW);
    const open = sandboxFilter("x64", { refuseUnixSockets: false })!;
    expect(runFilter(open, { arch: I386, nr: 102, arg0: 1 })).toBe(ALLOW);
  });

  it("keeps socketpair, connect and ordinary calls", () => {
    expect(run({ arch: X86_64, nr: 53 /* socketpair */, arg0: AF_UNIX })).toBe(ALLOW);
    expect(run({ arch: X86_64, nr: 42 /* connect */, arg0: 3 })).toBe(ALLOW);
    expect(run({ arch: X86_64, nr: 59 /* execve */ })).toBe(ALLOW);
  });
});

describe("an architecture hx has no filter for", () => {
  it("gets no filter, and the gap is said: in the status, the status line and the model's note", async () => {
    expect(sandboxFilter("ppc64", { refuseUnixSockets: true })).toBeUndefined();
    expect(unixSocketGap("linux", "ppc64")).toMatch(/no seccomp filter for ppc64/);
    expect(unixSocketGap("linux", "x64")).toBeUndefined();
    expect(unixSocketGap("darwin", "ppc64")).toBeUndefined();

    const options = {
      mode: "workspace-write" as const,
      network: false,
      required: false,
      workspaceRoot: tempDir("hx-seccomp-"),
      writablePaths: [],
      platform: "linux" as const,
      arch: "ppc64",
    };
    expect(sandboxNoteForModel(options)).toMatch(/; no network\.$/);
    expect(sandboxNoteForModel({ ...options, arch: "x64" })).toMatch(/no network, no Unix sockets\.$/);

    const sandbox = createSandbox({ ...options, tempRoot: tempDir("hx-seccomp-tmp-") });
    const status = await sandbox.check();
    sandbox.dispose();
    if (status.state !== "active") return; // no bwrap here: the bubblewrap tests say why
    expect(status.unixSocketGap).toMatch(/ppc64/);
    expect(describeSandbox(status)).toMatch(
      /network off, Unix sockets of the host reachable \(hx has no seccomp/,
    );
  });
});
