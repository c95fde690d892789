// Stopping a stdio server: stdin closed and SIGTERM sent in the same step (no fixed wait
// before the signal), SIGKILL to the group only for a server that ignores both.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ServerProcess } from "../../src/mcp/server-process.js";
import { isProcessAlive } from "../../src/process/alive.js";

const started: ServerProcess[] = [];
afterEach(() => {
  for (const proc of started.splice(0)) proc.signal("SIGKILL");
});

function serve(script: string): ServerProcess {
  const proc = new ServerProcess(process.execPath, ["-e", script], {
    env: { PATH: process.env.PATH ?? "" },
    cwd: process.cwd(),
    onStderr: () => {},
  });
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
  it("closes stdin at once and sends SIGTERM after the short read grace, not a 0.5 s wait", async () => {
    // Ignores end of input; exits on SIGTERM.
    const proc = serve(`process.stdin.resume(); setInterval(() => {}, 1000); process.stdout.write("ready");`);
    await ready(proc);
    const signal = vi.spyOn(proc, "signal");
    const stopping = proc.stop();
    expect(proc.child.stdin?.writableEnded).toBe(true);
    expect(signal.mock.calls).toEqual([]); // it may still read what was written last
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(signal.mock.calls).toEqual([["SIGTERM"]]); // well before the 0.5 s SIGKILL grace
    await stopping;
    expect(proc.exitSignal).toBe("SIGTERM");
    expect(signal.mock.calls).toEqual([["SIGTERM"]]);
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
