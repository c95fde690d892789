/**
 * The seccomp filter bubblewrap loads for every sandboxed command (`--seccomp FD`, classic
 * BPF over `struct seccomp_data`). Two jobs:
 *
 * - **The walls hold as root.** The command already runs in a user namespace with every
 *   capability dropped; the filter also refuses the calls that would change what the command
 *   sees or reach beyond it: mounting and unmounting (`mount`, `umount2`, `pivot_root`, the new
 *   mount API `open_tree` … `mount_setattr`), entering or creating namespaces (`setns`,
 *   `unshare`/`clone` with CLONE_NEWUSER; `clone3`, whose flags sit in user memory, gets ENOSYS
 *   so libc falls back to `clone`), `ptrace`, the kernel keyring, `bpf`, `perf_event_open`, and
 *   io_uring (whose requests seccomp cannot see).
 * - **No Unix sockets without the network** (`refuseUnixSockets`): a Unix socket reaches a
 *   server on the host through its file, read-only mount or not (`/var/run/docker.sock` is a
 *   root shell; D-Bus and database sockets too). `socket(AF_UNIX, …)` fails with EPERM;
 *   `socketpair`, the pipes between a command's own processes, stays allowed.
 *
 * A system call from an ABI the filter does not know is refused, and so is the whole x32 ABI
 * (nothing uses it, and its numbers differ).
 */

/** One ABI the kernel may run a command in, and its system call numbers. */
interface ArchCalls {
  /** AUDIT_ARCH_* as in seccomp_data.arch. */
  arch: number;
  /** socket(2). */
  socket: number;
  /** socketcall(2), where calls are multiplexed (i386): its first argument 1 is SYS_SOCKET. */
  socketcall?: number;
  /** clone(2) and unshare(2): refused when their flags (first argument) ask for a new user namespace. */
  newUser: number[];
  /** clone3(2): ENOSYS, so libc falls back to clone, whose flags the filter can see. */
  clone3: number;
  /** Calls refused whatever their arguments. */
  denied: number[];
}

const X32 = 0x4000_0000;
const CLONE_NEWUSER = 0x1000_0000;

/**
 * Numbers shared by every ABI below (the syscall tables gave them one number everywhere):
 * io_uring_setup/enter/register, open_tree, move_mount, fsopen, fsconfig, fsmount, fspick,
 * mount_setattr.
 */
const COMMON_DENIED = [425, 426, 427, 428, 429, 430, 431, 432, 433, 442];
const CLONE3 = 435;

/** By Node's `process.arch`: the native ABI first, then the compat one the kernel also runs. */
const ARCHES: Record<string, ArchCalls[]> = {
  x64: [
    // AUDIT_ARCH_X86_64 (x32 numbers carry bit 30 and are refused whole). mount 165,
    // umount2 166, pivot_root 155, ptrace 101, add_key 248, request_key 249, keyctl 250,
    // perf_event_open 298, setns 308, bpf 321; clone 56, unshare 272.
    {
      arch: 0xc000_003e,
      socket: 41,
      newUser: [56, 272],
      clone3: CLONE3,
      denied: [165, 166, 155, 101, 248, 249, 250, 298, 308, 321, ...COMMON_DENIED],
    },
    // AUDIT_ARCH_I386 (int 0x80): socket 359 and socketcall 102. mount 21, umount 22,
    // umount2 52, pivot_root 217, ptrace 26, add_key 286, request_key 287, keyctl 288,
    // perf_event_open 336, setns 346, bpf 357; clone 120, unshare 310.
    {
      arch: 0x4000_0003,
      socket: 359,
      socketcall: 102,
      newUser: [120, 310],
      clone3: CLONE3,
      denied: [21, 22, 52, 217, 26, 286, 287, 288, 336, 346, 357, ...COMMON_DENIED],
    },
  ],
  arm64: [
    // AUDIT_ARCH_AARCH64 (the generic table): mount 40, umount2 39, pivot_root 41, ptrace 117,
    // add_key 217, request_key 218, keyctl 219, perf_event_open 241, setns 268, bpf 280;
    // clone 220, unshare 97.
    {
      arch: 0xc000_00b7,
      socket: 198,
      newUser: [220, 97],
      clone3: CLONE3,
      denied: [40, 39, 41, 117, 217, 218, 219, 241, 268, 280, ...COMMON_DENIED],
    },
    // AUDIT_ARCH_ARM (EABI, no socketcall): mount 21, umount2 52, pivot_root 218, ptrace 26,
    // add_key 309, request_key 310, keyctl 311, perf_event_open 364, setns 375, bpf 386;
    // clone 120, unshare 337.
    {
      arch: 0x4000_0028,
      socket: 281,
      newUser: [120, 337],
      clone3: CLONE3,
      denied: [21, 52, 218, 26, 309, 310, 311, 364, 375, 386, ...COMMON_DENIED],
    },
  ],
};

// seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian hosts:
// an argument's low 32 bits come first; socket's family is an int, and CLONE_NEWUSER sits in
// the low 32 bits of clone's and unshare's flags).
const NR = 0;
const ARCH = 4;
const ARG0 = 16;
const AF_UNIX = 1;
const SYS_SOCKET = 1;
export const SECCOMP_RET_ALLOW = 0x7fff_0000;
export const SECCOMP_RET_EPERM = 0x0005_0000 | 1;
export const SECCOMP_RET_ENOSYS = 0x0005_0000 | 38;

type Op =
  | { load: number }
  | { ifEqual: number; goTo: string; otherwise?: string }
  | { ifAnyBit: number; goTo: string; otherwise?: string }
  | { ret: number }
  | { label: string };

/** The architectures hx has a filter for, by `process.arch`. */
const SECCOMP_ARCHES = Object.keys(ARCHES);

/**
 * Why this machine's commands run without the filter (no Unix-socket wall without the network,
 * and only the user namespace against mounts), or undefined when they have it (on macOS,
 * seatbelt's profile refuses Unix sockets).
 */
export function unixSocketGap(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string | undefined {
  if (platform !== "linux" || ARCHES[arch]) return undefined;
  return `hx has no seccomp filter for ${arch} (only ${SECCOMP_ARCHES.join(", ")})`;
}

/** The filter for this machine, or undefined where hx knows no system call numbers. */
export function sandboxFilter(
  arch: string = process.arch,
  { refuseUnixSockets }: { refuseUnixSockets: boolean },
): Buffer | undefined {
  const arches = ARCHES[arch];
  if (!arches) return undefined;
  const ops: Op[] = [{ load: ARCH }];
  arches.forEach((entry, i) => {
    ops.push({ ifEqual: entry.arch, goTo: `arch${i}` });
  });
  ops.push({ ret: SECCOMP_RET_EPERM });
  arches.forEach((entry, i) => {
    ops.push({ label: `arch${i}` }, { load: NR });
    // x32 shares AUDIT_ARCH_X86_64; its numbers carry bit 30.
    if (entry.arch === 0xc000_003e) ops.push({ ifAnyBit: X32, goTo: "deny" });
    if (refuseUnixSockets) ops.push({ ifEqual: entry.socket, goTo: `family${i}` });
    if (refuseUnixSockets && entry.socketcall !== undefined)
      ops.push({ ifEqual: entry.socketcall, goTo: `call${i}` });
    for (const nr of entry.newUser) ops.push({ ifEqual: nr, goTo: "flags" });
    ops.push({ ifEqual: entry.clone3, goTo: "enosys" });
    for (const nr of entry.denied) ops.push({ ifEqual: nr, goTo: "deny" });
    ops.push({ ret: SECCOMP_RET_ALLOW });
    if (!refuseUnixSockets) return;
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
  ops.push(
    { label: "flags" },
    { load: ARG0 },
    { ifAnyBit: CLONE_NEWUSER, goTo: "deny", otherwise: "allow" },
    { label: "enosys" },
    { ret: SECCOMP_RET_ENOSYS },
    { label: "allow" },
    { ret: SECCOMP_RET_ALLOW },
    { label: "deny" },
    { ret: SECCOMP_RET_EPERM },
  );
  return assemble(ops);
}

export const BPF_LD_W_ABS = 0x20;
export const BPF_JEQ_K = 0x15;
export const BPF_JSET_K = 0x45;
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
      const bit = "ifAnyBit" in op;
      out.writeUInt16LE(bit ? BPF_JSET_K : BPF_JEQ_K, base);
      out.writeUInt8(jump(op.goTo), base + 2);
      out.writeUInt8(jump(op.otherwise), base + 3);
      out.writeUInt32LE((bit ? op.ifAnyBit : op.ifEqual) >>> 0, base + 4);
    }
  });
  return out;
}
