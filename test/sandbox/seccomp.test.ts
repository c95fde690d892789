import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeSandbox } from "../../src/sandbox/describe.js";
import { sandboxNoteForModel } from "../../src/sandbox/policy.js";
import { createSandbox } from "../../src/sandbox/sandbox.js";
import {
  BPF_JEQ_K,
  BPF_LD_W_ABS,
  BPF_RET_K,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_EPERM,
  unixSocketFilter,
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
const EPERM = SECCOMP_RET_EPERM;
const ALLOW = SECCOMP_RET_ALLOW;

describe("the seccomp filter against Unix sockets (x86-64)", () => {
  const filter = unixSocketFilter("x64")!;
  const run = (call: Call) => runFilter(filter, call);

  it("refuses socket(AF_UNIX) under the x86-64 and x32 ABIs, and allows other families", () => {
    expect(run({ arch: X86_64, nr: 41, arg0: AF_UNIX })).toBe(EPERM);
    expect(run({ arch: X86_64, nr: X32 | 41, arg0: AF_UNIX })).toBe(EPERM);
    expect(run({ arch: X86_64, nr: 41, arg0: AF_INET })).toBe(ALLOW);
    expect(run({ arch: X86_64, nr: 41, arg0: 10 /* AF_INET6 */ })).toBe(ALLOW);
  });

  it("keeps socketpair, connect and ordinary calls", () => {
    expect(run({ arch: X86_64, nr: 53 /* socketpair */, arg0: AF_UNIX })).toBe(ALLOW);
    expect(run({ arch: X86_64, nr: 42 /* connect */, arg0: 3 })).toBe(ALLOW);
    expect(run({ arch: X86_64, nr: 0 /* read */, arg0: AF_UNIX })).toBe(ALLOW);
    expect(run({ arch: X86_64, nr: 59 /* execve */ })).toBe(ALLOW);
  });

  it("refuses io_uring, whose requests the filter cannot see", () => {
    for (const nr of [425, 426, 427]) {
      expect(run({ arch: X86_64, nr })).toBe(EPERM);
      expect(run({ arch: X86_64, nr: X32 | nr })).toBe(EPERM);
      expect(run({ arch: I386, nr })).toBe(EPERM);
    }
  });

  it("closes the i386 ABI too (int 0x80): socket and socketcall(SYS_SOCKET)", () => {
    expect(run({ arch: I386, nr: 359, arg0: AF_UNIX })).toBe(EPERM);
    expect(run({ arch: I386, nr: 359, arg0: AF_INET })).toBe(ALLOW);
    // socketcall's family is in user memory: SYS_SOCKET is refused whatever the family.
    expect(run({ arch: I386, nr: 102, arg0: 1 /* SYS_SOCKET */ })).toBe(EPERM);
    expect(run({ arch: I386, nr: 102, arg0: 8 /* SYS_SOCKETPAIR */ })).toBe(ALLOW);
    // 41 is not socket on i386 (it is dup).
    expect(run({ arch: I386, nr: 41, arg0: AF_UNIX })).toBe(ALLOW);
  });

  it("refuses every call of an ABI it does not know (fails closed)", () => {
    expect(run({ arch: AARCH64, nr: 63 })).toBe(EPERM);
    expect(run({ arch: 0, nr: 0 })).toBe(EPERM);
  });

  it("allows any other call of a known ABI (property)", () => {
    const refused = new Set([41, 425, 426, 427, X32 | 41, X32 | 425, X32 | 426, X32 | 427]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x7fff_ffff }), fc.integer(), (nr, arg0) => {
        fc.pre(!refused.has(nr));
        expect(run({ arch: X86_64, nr, arg0 })).toBe(ALLOW);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x7fff_ffff }), fc.integer(), (arg0, nr) => {
        expect(run({ arch: X86_64, nr: 41, arg0 })).toBe(arg0 === AF_UNIX ? EPERM : ALLOW);
        fc.pre(![359, 102, 425, 426, 427].includes(nr));
        expect(run({ arch: I386, nr, arg0 })).toBe(ALLOW);
      }),
    );
  });
});

describe("the seccomp filter on arm64", () => {
  const filter = unixSocketFilter("arm64")!;
  const run = (call: Call) => runFilter(filter, call);

  it("refuses socket(AF_UNIX) and io_uring under aarch64 and 32-bit arm", () => {
    expect(run({ arch: AARCH64, nr: 198, arg0: AF_UNIX })).toBe(EPERM);
    expect(run({ arch: AARCH64, nr: 198, arg0: AF_INET })).toBe(ALLOW);
    expect(run({ arch: AARCH64, nr: 199 /* socketpair */, arg0: AF_UNIX })).toBe(ALLOW);
    expect(run({ arch: AARCH64, nr: 425 })).toBe(EPERM);
    expect(run({ arch: ARM, nr: 281, arg0: AF_UNIX })).toBe(EPERM);
    expect(run({ arch: ARM, nr: 425 })).toBe(EPERM);
    expect(run({ arch: X86_64, nr: 41, arg0: AF_UNIX })).toBe(EPERM);
  });
});

describe("an architecture hx has no filter for", () => {
  it("gets no filter, and the gap is said: in the status, the status line and the model's note", async () => {
    expect(unixSocketFilter("ppc64")).toBeUndefined();
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
