import { type ChildProcess, spawn } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { withInheritedFiles } from "../process/inherited-files.js";
import type { ServerPlacement } from "./server-sandbox.js";
import { LineReader, OVERSIZED_MESSAGE_CODE } from "./stdio-lines.js";

/** How long after hx cancelled a call a stopping server may still read the cancellation, before SIGTERM. */
const READ_GRACE_MS = 50;
/** The SDK's stdio framing (newline-delimited JSON-RPC), handed in once the SDK is loaded. */
export interface StdioFraming {
  serializeMessage(message: JSONRPCMessage): string;
  deserializeMessage(line: string): JSONRPCMessage;
}

/**
 * A stdio server's process, spawned as soon as hx knows it will need it — before the SDK is
 * loaded, so the server boots while hx loads it. Unlike the SDK's StdioClientTransport it runs
 * in its own process group: Ctrl-C in the terminal (which cancels a turn) does not reach it,
 * and stopping it stops what it started too (`npx` and the server it runs), so nothing is
 * left behind.
 */
export class ServerProcess {
  readonly child: ChildProcess;
  /** Set when the program could not be started (ENOENT, EACCES). */
  spawnError?: NodeJS.ErrnoException;
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;
  /** Whether the OS sandbox holds it (set by the launcher). */
  placement?: ServerPlacement;
  private readonly closed: Promise<void>;
  /** The server's own process has exited (its pipes may still be open in what it started). */
  private readonly exited: Promise<void>;
  /** When hx last wrote a `notifications/cancelled` (what a stopping server should still read). */
  private lastCancelAt = Number.NEGATIVE_INFINITY;
  /** True once the program runs, false when it could not be started. */
  private readonly spawned: Promise<boolean>;

  constructor(
    command: string,
    args: string[],
    options: {
      env: Record<string, string>;
      cwd: string;
      onStderr: (text: string) => void;
      /** Opened as the child's fds 3 onward (the sandbox's seccomp filter). */
      inheritFiles?: readonly string[];
    },
  ) {
    this.child = withInheritedFiles(options.inheritFiles, (fds) =>
      spawn(command, args, {
        env: options.env,
        cwd: options.cwd,
        stdio: ["pipe", "pipe", "pipe", ...fds],
        detached: true,
        windowsHide: true,
      }),
    );
    this.spawned = new Promise((resolve) => {
      this.child.once("spawn", () => resolve(true));
      this.child.once("error", (error) => {
        this.spawnError = error as NodeJS.ErrnoException;
        resolve(false);
      });
    });
    this.child.stderr?.on("data", (chunk: Buffer) => options.onStderr(chunk.toString("utf8")));
    // A server that stops reading makes writes fail with EPIPE; the close event reports it.
    this.child.stdin?.on("error", () => {});
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        resolve();
      });
    });
    this.closed = new Promise((resolve) => {
      this.child.once("close", (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.spawnError === undefined && this.exitCode === null && this.exitSignal === null;
  }

  /** Signals the whole process group (the server and anything it started). */
  signal(name: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, name);
    } catch {
      try {
        process.kill(pid, name);
      } catch {
        // already gone
      }
    }
  }

  /**
   * Stdin closed and SIGTERM to the group, the SIGTERM held back only while hx cancelled a
   * call less than 50 ms ago (time to read the `notifications/cancelled`; a server that exits
   * on end of input goes sooner, unsignalled; requests it answered were read, and one it did
   * not answer is abandoned anyway); SIGKILL to the group after a
   * 0.5 s grace. Done when the server's process has exited: hx waits for no pipe a child of
   * it still holds (the group signal reaches those too).
   */
  async stop(): Promise<void> {
    if (this.child.pid === undefined) return;
    this.child.stdin?.end();
    if (!this.running) return;
    const grace = READ_GRACE_MS - (performance.now() - this.lastCancelAt);
    if (grace > 0 && (await settles(this.exited, grace))) return;
    this.signal("SIGTERM");
    if (await settles(this.exited, 500)) return;
    this.signal("SIGKILL");
    await settles(this.exited, 1000);
  }

  /** The SDK transport over this process's stdin/stdout. */
  transport(framing: StdioFraming, maxMessageBytes: number): Transport {
    const reader = new LineReader(maxMessageBytes, framing.deserializeMessage);
    const proc = this;
    const transport: Transport = {
      async start() {
        if (!(await proc.spawned) && proc.spawnError) throw proc.spawnError;
        if (!proc.running) throw new Error(`exited at once (${proc.describeExit()})`);
        proc.child.stdout?.on("data", (chunk: Buffer) => {
          for (const event of reader.push(chunk)) {
            if (event.type === "message") transport.onmessage?.(event.message);
            else if (event.type === "error") transport.onerror?.(event.error);
            else if (event.id !== undefined) {
              // The call it answers fails now, with what happened, instead of at its timeout.
              transport.onmessage?.({
                jsonrpc: "2.0",
                id: event.id,
                error: { code: OVERSIZED_MESSAGE_CODE, message: `${event.bytes}` },
              });
            } else {
              transport.onerror?.(new Error(`dropped a message of ${event.bytes} bytes (over the limit)`));
            }
          }
        });
        void proc.closed.then(() => transport.onclose?.());
      },
      async send(message) {
        const stdin = proc.child.stdin;
        if (!stdin || !proc.running) throw new Error("Not connected");
        if ("method" in message && message.method === "notifications/cancelled")
          proc.lastCancelAt = performance.now();
        if (!stdin.write(framing.serializeMessage(message))) {
          await new Promise((resolve) => stdin.once("drain", resolve));
        }
      },
      async close() {
        reader.clear();
        await proc.stop();
      },
    };
    return transport;
  }

  describeExit(): string {
    if (this.spawnError) return this.spawnError.message;
    return this.exitSignal ? `signal ${this.exitSignal}` : `exit code ${this.exitCode}`;
  }
}

async function settles(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return done;
}
