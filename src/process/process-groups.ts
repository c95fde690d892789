import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/** The variable every child carries, so processes that left their group can still be found. */
export const PROCESS_TAG_VARIABLE = "HX_PROCESS_TAG";

const EXIT_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Marks the signal listeners of process groups, so they do not count as someone handling the signal. */
const GROUPS_LISTENER = Symbol("hx.processGroups");

export interface ProcessGroupsOptions {
  /**
   * Groups that live as long as the session (MCP servers): a signal hx handles itself (Ctrl-C
   * cancelling a turn) leaves them running; exit, and a signal nobody handles, kill them.
   */
  resident?: boolean;
}

/**
 * The process groups one session started and has not reaped yet. Each child runs as the
 * leader of its own group (`detached`), so one signal to the group reaches everything it
 * started. While any group is alive, hx's exit and SIGINT/SIGTERM/SIGHUP kill them all;
 * the listeners go away with the last group, so an idle hx keeps the default signal handling.
 *
 * A process can leave its group (`setsid`, a daemonizing server). On Linux such processes are
 * still found by the tag in their environment (`HX_PROCESS_TAG`), unless they cleared it;
 * elsewhere, and after `kill -9` of hx, only the OS sandbox's PID namespace catches them.
 */
export class ProcessGroups {
  private readonly live = new Set<number>();
  private readonly sessionTag = randomBytes(6).toString("hex");
  private sequence = 0;
  private listening = false;
  private readonly onExit = () => this.killAll();
  private readonly onSignal = Object.assign(
    (signal: NodeJS.Signals) => {
      if (this.options.resident && handledElsewhere(signal)) return;
      this.killAll();
      this.stopListening();
      // Nobody else handles it: die of the signal as Node would have without us.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    },
    { [GROUPS_LISTENER]: true },
  );

  constructor(private readonly options: ProcessGroupsOptions = {}) {}

  /** A fresh tag for one child's environment. */
  nextTag(): string {
    this.sequence += 1;
    return `${this.sessionTag}.${this.sequence}`;
  }

  add(pgid: number): void {
    this.live.add(pgid);
    if (!this.listening) {
      this.listening = true;
      process.on("exit", this.onExit);
      for (const signal of EXIT_SIGNALS) process.on(signal, this.onSignal);
    }
  }

  /** Kills the group (whatever is left of it) and forgets it. */
  release(pgid: number): void {
    killGroup(pgid);
    this.live.delete(pgid);
    if (this.live.size === 0) this.stopListening();
  }

  /** Kills every live group, and on Linux every process still carrying one of this session's tags. */
  killAll(): void {
    for (const pgid of this.live) killGroup(pgid);
    this.live.clear();
    if (this.sequence > 0) killTagged(`${this.sessionTag}.`, "prefix");
  }

  get size(): number {
    return this.live.size;
  }

  private stopListening(): void {
    if (!this.listening) return;
    this.listening = false;
    process.off("exit", this.onExit);
    for (const signal of EXIT_SIGNALS) process.off(signal, this.onSignal);
  }
}

/** True when a listener other than a process-groups one handles `signal` (hx will not die of it). */
function handledElsewhere(signal: NodeJS.Signals): boolean {
  return process.listeners(signal).some((listener) => !(GROUPS_LISTENER in listener));
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/**
 * SIGKILLs every process whose environment holds `HX_PROCESS_TAG=<tag>` (or a tag starting with it; Linux only:
 * reads /proc). Returns how many were killed. Processes of other users cannot be read and are
 * skipped; so is hx itself.
 */
export function killTagged(tag: string, match: "exact" | "prefix"): number {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return 0;
  }
  const entry = `${PROCESS_TAG_VARIABLE}=${tag}${match === "exact" ? "\0" : ""}`;
  const needle = Buffer.from(`\0${entry}`);
  const first = Buffer.from(entry);
  let killed = 0;
  for (const name of entries) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue;
    }
    if (environ.indexOf(needle) === -1 && !environ.subarray(0, first.length).equals(first)) continue;
    try {
      process.kill(pid, "SIGKILL");
      killed += 1;
    } catch {
      // Gone meanwhile.
    }
  }
  return killed;
}
