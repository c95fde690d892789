// Stopping a stdio server: stdin closed and SIGTERM sent in the same step (held back at most
// 50 ms after hx's last write, so the server can read it), SIGKILL to the group only for a
// server that ignores both.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ServerProcess } from "../../src/mcp/server-process.js";
import { isProcessAlive } from "../../src/process/alive.js";

const started: ServerProcess[] = [];
afterEach(() => {
  for (const proc of started.splice(0)) proc.signal("SIGKILL");
});

const FRAMING = {
  serializeMessage: (message: unknown) => `${JSON.stringify(message)}\n`,
  deserializeMessage: (line: string) => JSON.parse(line),
};
const stderrText = new WeakMap<ServerProcess, string[]>();
const stderrOf = (proc: ServerProcess) => (stderrText.get(proc) ?? []).join("");

function serve(script: string): ServerProcess {
  const stderr: string[] = [];
  const proc = new ServerProcess(process.execPath, ["-e", script], {
    env: { PATH: process.env.PATH ?? "" },
    cwd: process.cwd(),
    onStderr: (text) => stderr.push(text),
  });
  stderrText.set(proc, stderr);
  started.push(proc);
  return proc;
}

/** Resolves once the script printed `ready` (its handlers are in place). */
async function ready(proc: ServerProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    proc.child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
  });
}

describe("ServerProcess.stop", () => {
  it("closes stdin and sends SIGTERM in the same step when nothing was written lately", async () => {
    // Ignores end of input; exits on SIGTERM.
    const proc = serve(`process.stdin.resume(); setInterval(() => {}, 1000); process.stdout.write("ready");`);
    await ready(proc);
    const signal = vi.spyOn(proc, "signal");
    const stopping = proc.stop();
    expect(proc.child.stdin?.writableEnded).toBe(true);
    expect(signal.mock.calls).toEqual([["SIGTERM"]]);
    await stopping;
    expect(proc.exitSignal).toBe("SIGTERM");
    expect(signal.mock.calls).toEqual([["SIGTERM"]]);
  });

  it("after a cancellation, lets the server read it for the short grace before SIGTERM", async () => {
    // Writes what it read to stderr; ignores end of input; exits on SIGTERM.
    const proc = serve(
      `process.stdin.on("data", (d) => process.stderr.write(d)); setInterval(() => {}, 1000); process.stdout.write("ready");`,
    );
    const transport = proc.transport(FRAMING, 1024 * 1024);
    await transport.start();
    await ready(proc);
    const signal = vi.spyOn(proc, "signal");
    await transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    const stopping = proc.stop();
    expect(proc.child.stdin?.writableEnded).toBe(true);
    expect(signal.mock.calls).toEqual([]); // it may still read what was written last
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(signal.mock.calls).toEqual([["SIGTERM"]]); // well before the 0.5 s SIGKILL grace
    await stopping;
    expect(proc.exitSignal).toBe("SIGTERM");
    expect(stderrOf(proc)).toContain("notifications/cancelled");
  });

  it("sends SIGTERM at once right after a request or another notification (only a cancellation waits)", async () => {
    const proc = serve(`process.stdin.resume(); setInterval(() => {}, 1000);`);
    const transport = proc.transport(FRAMING, 1024 * 1024);
    await transport.start();
    const signal = vi.spyOn(proc, "signal");
    await transport.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} });
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const stopping = proc.stop();
    expect(signal.mock.calls).toEqual([["SIGTERM"]]);
    await stopping;
    expect(proc.exitSignal).toBe("SIGTERM");
  });

  it("kills a server that ignores stdin closing and SIGTERM", async () => {
    const proc = serve(
      `process.on("SIGTERM", () => {}); process.stdin.resume(); setInterval(() => {}, 1000); process.stdout.write("ready");`,
    );
    await ready(proc);
    const pid = proc.pid as number;
    await proc.stop();
    expect(proc.exitSignal).toBe("SIGKILL");
    expect(isProcessAlive(pid)).toBe(false);
  });

  it("signals nothing for a server that is already gone", async () => {
    const proc = serve(`process.exit(0)`);
    await new Promise((resolve) => proc.child.once("close", resolve));
    const signal = vi.spyOn(proc, "signal");
    await proc.stop();
    expect(signal).not.toHaveBeenCalled();
    expect(proc.exitCode).toBe(0);
  });
});
