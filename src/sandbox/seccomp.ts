/**
 * A seccomp filter for bubblewrap's `--seccomp FD` (classic BPF, `struct sock_filter`) that
 * closes what the network namespace leaves open: a Unix socket reaches a server on the host
 * through its file, read-only mount or not (`/var/run/docker.sock` is a root shell; D-Bus and
 * database sockets too). `socket(AF_UNIX, …)` and io_uring (whose requests seccomp cannot see)
 * fail with EPERM; `socketpair`, the pipes between a command's own processes, stays allowed.
 * Used when the network is off, as seatbelt's profile refuses Unix sockets without
 * `network-outbound`. A system call from an ABI the filter does not know is refused too.
 */

/** One ABI the kernel may run a command in, and its system call numbers. */
interface ArchCalls {
  /** AUDIT_ARCH_* as in seccomp_data.arch. */
  arch: number;
  /** socket(2), under every ABI of this arch (x32 sets bit 30). */
  socket: number[];
  /** socketcall(2), where calls are multiplexed (i386): its first argument 1 is SYS_SOCKET. */
  socketcall?: number;
  /** Calls refused whatever their arguments. */
  denied: number[];
}

const X32 = 0x4000_0000;
/** io_uring_setup, io_uring_enter, io_uring_register: the same numbers on every arch below. */
const IO_URING = [425, 426, 427];

/** By Node's `process.arch`: the native ABI first, then the compat one the kernel also runs. */
const ARCHES: Record<string, ArchCalls[]> = {
  x64: [
    // AUDIT_ARCH_X86_64 covers x32 too (its numbers carry X32).
    { arch: 0xc000_003e, socket: [41, X32 | 41], denied: [...IO_URING, ...IO_URING.map((nr) => X32 | nr)] },
    // AUDIT_ARCH_I386 (int 0x80): socket is 359, and socketcall 102 reaches it too.
    { arch: 0x4000_0003, socket: [359], socketcall: 102, denied: IO_URING },
  ],
  arm64: [
    // AUDIT_ARCH_AARCH64, then AUDIT_ARCH_ARM (EABI has no socketcall).
    { arch: 0xc000_00b7, socket: [198], denied: IO_URING },
    { arch: 0x4000_0028, socket: [281], denied: IO_URING },
  ],
};

// seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian hosts:
// an argument's low 32 bits come first, and socket's family is an int).
const NR = 0;
const ARCH = 4;
const ARG0 = 16;
const AF_UNIX = 1;
const SYS_SOCKET = 1;
export const SECCOMP_RET_ALLOW = 0x7fff_0000;
export const SECCOMP_RET_EPERM = 0x0005_0000 | 1;

type Op =
  | { load: number }
  | { ifEqual: number; goTo: string; otherwise?: string }
  | { ret: number }
  | { label: string };

/** The architectures hx has a filter for, by `process.arch`. */
export const SECCOMP_ARCHES = Object.keys(ARCHES);

/**
 * Why commands of a sandbox without network still reach the host's Unix sockets on this
 * machine, or undefined when they cannot (seatbelt's profile refuses them; on Linux the filter).
 */
export function unixSocketGap(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string | undefined {
  if (platform !== "linux" || ARCHES[arch]) return undefined;
  return `hx has no seccomp filter for ${arch} (only ${SECCOMP_ARCHES.join(", ")})`;
}

/** The filter for this machine, or undefined where hx knows no system call numbers. */
export function unixSocketFilter(arch: string = process.arch): Buffer | undefined {
  const arches = ARCHES[arch];
  if (!arches) return undefined;
  const ops: Op[] = [{ load: ARCH }];
  arches.forEach((entry, i) => {
    ops.push({ ifEqual: entry.arch, goTo: `arch${i}` });
  });
  ops.push({ ret: SECCOMP_RET_EPERM });
  arches.forEach((entry, i) => {
    ops.push({ label: `arch${i}` }, { load: NR });
    for (const nr of entry.socket) ops.push({ ifEqual: nr, goTo: `family${i}` });
    if (entry.socketcall !== undefined) ops.push({ ifEqual: entry.socketcall, goTo: `call${i}` });
    for (const nr of entry.denied) ops.push({ ifEqual: nr, goTo: "deny" });
    ops.push({ ret: SECCOMP_RET_ALLOW });
    // socket's first argument is the family; socketcall's is the call (SYS_SOCKET: refused,
    // as its family sits in user memory, which seccomp cannot read).
    ops.push({ label: `family${i}` }, { load: ARG0 }, { ifEqual: AF_UNIX, goTo: "deny", otherwise: "allow" });
    if (entry.socketcall !== undefined)
      ops.push(
        { label: `call${i}` },
        { load: ARG0 },
        { ifEqual: SYS_SOCKET, goTo: "deny", otherwise: "allow" },
      );
  });
  ops.push({ label: "allow" }, { ret: SECCOMP_RET_ALLOW }, { label: "deny" }, { ret: SECCOMP_RET_EPERM });
  return assemble(ops);
}

export const BPF_LD_W_ABS = 0x20;
export const BPF_JEQ_K = 0x15;
export const BPF_RET_K = 0x06;

/** Classic BPF: 8 bytes per instruction; jumps are forward offsets from the next instruction. */
function assemble(ops: Op[]): Buffer {
  const at = new Map<string, number>();
  const code: Exclude<Op, { label: string }>[] = [];
  for (const op of ops) {
    if ("label" in op) at.set(op.label, code.length);
    else code.push(op);
  }
  const out = Buffer.alloc(code.length * 8);
  code.forEach((op, index) => {
    const jump = (label: string | undefined) => {
      if (label === undefined) return 0;
      const offset = (at.get(label) ?? -1) - index - 1;
      if (offset < 0 || offset > 255) throw new Error(`seccomp filter: cannot jump to ${label}`);
      return offset;
    };
    const base = index * 8;
    if ("load" in op) {
      out.writeUInt16LE(BPF_LD_W_ABS, base);
      out.writeUInt32LE(op.load, base + 4);
    } else if ("ret" in op) {
      out.writeUInt16LE(BPF_RET_K, base);
      out.writeUInt32LE(op.ret, base + 4);
    } else {
      out.writeUInt16LE(BPF_JEQ_K, base);
      out.writeUInt8(jump(op.goTo), base + 2);
      out.writeUInt8(jump(op.otherwise), base + 3);
      out.writeUInt32LE(op.ifEqual >>> 0, base + 4);
    }
  });
  return out;
}
