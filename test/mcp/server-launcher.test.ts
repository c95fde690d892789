// How the launcher starts a stdio server in the OS sandbox: at once, before the sandbox's probe
// answers, keeping that process when the sandbox works and replacing it when it cannot start.
// The sandbox is a stand-in whose probe answers when the test says; the servers are real.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sandboxedLauncher } from "../../src/mcp/server-launcher.js";
import type { ServerProcess } from "../../src/mcp/server-process.js";
import { resolveServerSandbox } from "../../src/mcp/server-sandbox.js";
import { isProcessAlive } from "../../src/process/alive.js";
import { ProcessGroups } from "../../src/process/process-groups.js";
import type { CommandSandbox, SandboxLaunch, SandboxStatus } from "../../src/sandbox/types.js";
import { tempDir } from "../support/temp-dir.js";

const started: ServerProcess[] = [];
afterEach(() => {
  for (const proc of started.splice(0)) proc.signal("SIGKILL");
});

/** A server that writes its pid to `file`, says so on stderr, then waits. */
function server(file: string) {
  const script = `require("fs").writeFileSync(${JSON.stringify(file)}, String(process.pid)); process.stderr.write("booted\\n"); setInterval(() => {}, 1000);`;
  return { type: "stdio" as const, command: process.execPath, args: ["-e", script], env: {} };
}

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const unavailable = (required: boolean): SandboxStatus => ({
  state: "unavailable",
  mode: "workspace-write",
  reason: "bwrap cannot create namespaces: Operation not permitted",
  fix: "allow unprivileged user namespaces",
  required,
});

/** A sandbox whose probe answers `answer(status)`; launches run the command as it is, marked. */
function probedLater() {
  const root = tempDir("hx-launcher-");
  let answer!: (status: SandboxStatus) => void;
  const probe = new Promise<SandboxStatus>((resolve) => {
    answer = resolve;
  });
  let known: SandboxStatus = { state: "unchecked", mode: "workspace-write", backend: "bubblewrap" };
  const released: string[] = [];
  const wrapped = (file: string, args: readonly string[], env: Record<string, string>): SandboxLaunch => ({
    file,
    args: [...args],
    env: { ...env, IN_SANDBOX: "1" },
    sandboxed: true,
    release: () => released.push(file),
  });
  const sandbox: CommandSandbox = {
    status: () => known,
    check: () =>
      probe.then((status) => {
        known = status;
        return status;
      }),
    async launch(file, args, { env }) {
      if (known.state === "unavailable")
        return known.required
          ? { refused: "refused: the sandbox is required" }
          : { file, args: [...args], env, sandboxed: false, release: () => {} };
      return wrapped(file, args, env);
    },
    launchUnchecked: (file, args, { env }) =>
      known.state === "unavailable" ? undefined : wrapped(file, args, env),
    setNetwork: () => {},
    allowHost: () => {},
    allowWrites: () => {},
    dispose: () => {},
  };
  const policy = (required = false) =>
    resolveServerSandbox({
      settings: { sandbox: { required } },
      workspaceRoot: root,
      home: root,
    });
  /** Launches the server `fx` through a launcher with this sandbox. */
  const start = (required = false) => {
    const pidFile = path.join(root, "pid");
    const stderr: string[] = [];
    const warnings: string[] = [];
    const launch = sandboxedLauncher({
      policy: policy(required),
      sandbox,
      groups: new ProcessGroups({ resident: true }),
      warn: (text) => warnings.push(text),
    });
    const launching = launch({
      name: "fx",
      config: server(pidFile),
      cwd: root,
      onStderr: (t) => stderr.push(t),
    });
    return { launching, pidFile, stderr, warnings };
  };
  return { root, answer, released, start };
}

describe("sandboxedLauncher", () => {
  it("starts a sandboxed server before the probe answers and keeps it when the sandbox works", async () => {
    const { root, answer, start } = probedLater();
    const { launching, pidFile, stderr } = start();
    // The server runs while the probe has not answered yet.
    await until(() => existsSync(pidFile));
    expect(stderr).toEqual([]); // held back until the sandbox is known to work
    answer({
      state: "active",
      mode: "workspace-write",
      backend: "bubblewrap",
      network: true,
      writable: [root],
    });
    const proc = await launching;
    started.push(proc);
    expect(proc.pid).toBe(Number(readFileSync(pidFile, "utf8")));
    expect(proc.placement).toMatchObject({ sandboxed: true });
    await until(() => stderr.join("").includes("booted"));
  });

  it("stops the server started early when the sandbox cannot start, and runs it as the policy says", async () => {
    const { answer, released, start } = probedLater();
    const { launching, pidFile, stderr, warnings } = start();
    await until(() => existsSync(pidFile));
    const early = Number(readFileSync(pidFile, "utf8"));
    answer(unavailable(false));
    const proc = await launching;
    started.push(proc);
    expect(proc.pid).not.toBe(early);
    expect(proc.placement).toMatchObject({ sandboxed: false });
    expect(proc.placement?.text).toContain("the OS sandbox cannot start");
    expect(warnings).toHaveLength(1);
    await until(() => !isProcessAlive(early));
    // What the early one undid: its launch was released once it was gone.
    await until(() => released.length === 1);
    // The replacement's stderr arrives; the early one's never does.
    await until(() => stderr.join("").includes("booted"));
    expect(stderr.join("").match(/booted/g)).toHaveLength(1);
  });

  it("refuses the server when the sandbox is required and cannot start, stopping the early one", async () => {
    const { answer, start } = probedLater();
    const { launching, pidFile } = start(true);
    await until(() => existsSync(pidFile));
    const early = Number(readFileSync(pidFile, "utf8"));
    answer(unavailable(true));
    await expect(launching).rejects.toThrow(
      /refused: sandbox\.required is set.*"sandbox": false in the entry of 'fx'/,
    );
    await until(() => !isProcessAlive(early));
  });
});
