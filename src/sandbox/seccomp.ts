/**
 * A seccomp filter for bubblewrap's `--seccomp FD` (classic BPF, `struct sock_filter`) that
 * closes what the network namespace leaves open: a Unix socket reaches a server on the host
 * through its file, read-only mount or not (`/var/run/docker.sock` is a root shell; D-Bus and
 * database sockets too). `socket(AF_UNIX, …)` and io_uring (whose requests seccomp cannot see)
 * fail with EPERM; `socketpair`, the pipes between a command's own processes, stays allowed.
 * Used when the network is off, as seatbelt's profile refuses Unix sockets without
 * `network-outbound`.
 */

/** One architecture the kernel may run a command in, and its system call numbers. */
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
const IO_URING_SETUP = 425;

/** By Node's `process.arch`: the native arch first, then the compat one the kernel also runs. */
const ARCHES: Record<string, ArchCalls[]> = {
  x64: [
    { arch: 0xc000_003e, socket: [41, X32 | 41], denied: [IO_URING_SETUP, X32 | IO_URING_SETUP] },
    { arch: 0x4000_0003, socket: [359], socketcall: 102, denied: [IO_URING_SETUP] },
  ],
  arm64: [
    { arch: 0xc000_00b7, socket: [198], denied: [IO_URING_SETUP] },
    { arch: 0x4000_0028, socket: [281], denied: [IO_URING_SETUP] },
  ],
};

// seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian hosts).
const NR = 0;
const ARCH = 4;
const ARG0 = 16;
const AF_UNIX = 1;
const SYS_SOCKET = 1;
const RET_ALLOW = 0x7fff_0000;
const RET_EPERM = 0x0005_0000 | 1;

type Op =
  | { load: number }
  | { ifEqual: number; then: string; else?: string }
  | { ret: number }
  | { label: string };

/** The filter for this machine, or undefined where hx knows no system call numbers. */
export function unixSocketFilter(arch: string = process.arch): Buffer | undefined {
  const arches = ARCHES[arch];
  if (!arches) return undefined;
  const ops: Op[] = [{ load: ARCH }];
  arches.forEach((entry, i) => ops.push({ ifEqual: entry.arch, then: `arch${i}` }));
  ops.push({ ret: RET_ALLOW });
  arches.forEach((entry, i) => {
    ops.push({ label: `arch${i}` }, { load: NR });
    for (const nr of entry.socket) ops.push({ ifEqual: nr, then: `family${i}` });
    if (entry.socketcall !== undefined) ops.push({ ifEqual: entry.socketcall, then: `call${i}` });
    for (const nr of entry.denied) ops.push({ ifEqual: nr, then: "deny" });
    ops.push({ ret: RET_ALLOW });
    // socket's first argument is the family; socketcall's is the call (SYS_SOCKET: refused,
    // as its family cannot be read from here).
    ops.push({ label: `family${i}` }, { load: ARG0 }, { ifEqual: AF_UNIX, then: "deny", else: "allow" });
    if (entry.socketcall !== undefined)
      ops.push({ label: `call${i}` }, { load: ARG0 }, { ifEqual: SYS_SOCKET, then: "deny", else: "allow" });
  });
  ops.push({ label: "allow" }, { ret: RET_ALLOW }, { label: "deny" }, { ret: RET_EPERM });
  return assemble(ops);
}

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;

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
      out.writeUInt16LE(LD_W_ABS, base);
      out.writeUInt32LE(op.load, base + 4);
    } else if ("ret" in op) {
      out.writeUInt16LE(RET_K, base);
      out.writeUInt32LE(op.ret, base + 4);
    } else {
      out.writeUInt16LE(JEQ_K, base);
      out.writeUInt8(jump(op.then), base + 2);
      out.writeUInt8(jump(op.else), base + 3);
      out.writeUInt32LE(op.ifEqual >>> 0, base + 4);
    }
  });
  return out;
}
