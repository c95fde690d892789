import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";

/**
 * The sandbox's own network for the allow-list: a network namespace that holds only a loopback
 * device and a bridge listening on 127.0.0.1:PORT, which forwards each connection to hx's
 * proxy over its Unix socket. Commands join that namespace (`nsenter --net`, and `--user` for
 * the user namespace that owns it) before bubblewrap, so their only way out is the proxy. The
 * bridge is a few lines of Node run by the same Node as hx (nothing to install), in bubblewrap
 * with every capability dropped, started once per session on first need.
 *
 * The namespaces are held open by hx (file descriptors on `/proc/PID/ns/*`), and commands
 * enter them through hx's own `/proc/self/fd` links: if the bridge dies, its pid cannot be
 * reused to send a command into another process's namespaces, and the command's network
 * stays closed (nothing listens on the port).
 *
 * Why not a bridge inside each command's sandbox (as sandbox-runtime does with socat): the
 * command's seccomp filter refuses Unix sockets, and loading it after the bridge starts needs
 * a native helper hx does not ship.
 */
export interface NetBridge {
  /** A process in the namespace (the bridge), for `nsenter --target`. */
  pid: number;
  /** Where the proxy listens inside the namespace. */
  port: number;
  /** The `nsenter` program and the words that put a command in the namespace, before `--`. */
  nsenter: string;
  enterArgs: string[];
  /** Stops the bridge. */
  close(): void;
}

export const BRIDGE_PORT = 3128;
const READY_TIMEOUT_MS = 15_000;

const BRIDGE_SCRIPT = `
const net = require("node:net");
const [socketPath, port] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  const stop = () => { client.destroy(); upstream.destroy(); };
  client.on("error", stop); upstream.on("error", stop);
  client.on("close", stop); upstream.on("close", stop);
  client.pipe(upstream); upstream.pipe(client);
});
server.on("error", (error) => { process.stderr.write(String(error.message) + "\\n"); process.exit(1); });
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready " + process.pid + "\\n"));
`;

/** Starts the bridge; rejects with the reason when it does not come up. */
export function startNetBridge(options: {
  bwrap: string;
  nsenter: string;
  socketPath: string;
  userNamespace: boolean;
  node?: string;
}): Promise<NetBridge> {
  const args = [
    "--new-session",
    "--die-with-parent",
    ...(options.userNamespace ? ["--unshare-user"] : []),
    "--unshare-net",
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
    "--",
    options.node ?? process.execPath,
    "-e",
    BRIDGE_SCRIPT,
    options.socketPath,
    String(BRIDGE_PORT),
  ];
  const child: ChildProcess = spawn(options.bwrap, args, { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(why));
    };
    const timer = setTimeout(() => fail("the network bridge did not start in time"), READY_TIMEOUT_MS);
    child.stderr?.on("data", (chunk: Buffer) => {
      if (err.length < 2000) err += chunk.toString("utf8");
    });
    child.on("error", (error) => fail(`the network bridge cannot start: ${error.message}`));
    child.on("exit", () =>
      fail(`the network bridge exited: ${err.trim().split("\n")[0] || "no reason given"}`),
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const match = /^ready (\d+)\n/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.unref();
      (child.stdout as NodeJS.ReadableStream & { unref?: () => void }).unref?.();
      (child.stderr as NodeJS.ReadableStream & { unref?: () => void }).unref?.();
      const pid = Number(match[1]);
      let held: number[];
      try {
        held = (options.userNamespace ? ["user", "net"] : ["net"]).map((kind) =>
          openSync(`/proc/${pid}/ns/${kind}`, "r"),
        );
      } catch (error) {
        fail(`the network bridge's namespace cannot be opened: ${(error as Error).message}`);
        return;
      }
      const link = (fd: number) => `/proc/${process.pid}/fd/${fd}`;
      resolve({
        pid,
        port: BRIDGE_PORT,
        nsenter: options.nsenter,
        enterArgs: options.userNamespace
          ? [`--user=${link(held[0])}`, "--preserve-credentials", `--net=${link(held[1])}`]
          : [`--net=${link(held[0])}`],
        close: () => {
          child.kill("SIGKILL");
          for (const fd of held.splice(0)) closeSync(fd);
        },
      });
    });
  });
}
