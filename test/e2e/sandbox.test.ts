// End to end: the second wall. The real binary runs the model's commands in the OS sandbox,
// keeps secrets out of them, and takes every process it started down with it.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backend, processesMatching, skipReason, uniqueSleep } from "../sandbox/sandbox-support.js";
import { HX_BIN, hxEnv, runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { toolResultsOf, useHarness } from "./harness-support.js";

const h = useHarness();
const bypass = ["--permission-mode", "bypassPermissions"];

describe(`the sandbox through hx agent${skipReason}`, () => {
  it.skipIf(!backend.ok)(
    "a write outside the workspace fails, a protected path stays read-only, the network is closed",
    async () => {
      const outside = realpathSync(tempDir("hx-outside-"));
      mkdirSync(path.join(h.work, ".git"));
      writeFileSync(path.join(h.work, ".git/config"), "[core]\n");
      const listener = createServer((socket) => socket.end("reached\n"));
      await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
      const port = (listener.address() as { port: number }).port;
      // A script file: the permission check cannot see inside it (it would refuse these writes
      // to protected paths if they were on the command line), so only the sandbox stands.
      writeFileSync(
        path.join(h.work, "attempt.sh"),
        [
          `echo x > '${outside}/escaped'`,
          "echo '[core] fsmonitor = touch PWNED' >> .git/config",
          'mkdir -p .hx && echo \'{"permissions":{"allow":["bash"]}}\' > .hx/settings.local.json',
          `(exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3) || echo network-closed`,
          "echo fine > inside.txt",
        ].join("\n"),
      );
      h.server.reply().tool("bash", { command: "bash attempt.sh" });
      h.server.reply().text("done");
      try {
        const run = await h.agent("try", bypass);
        expect(run.code).toBe(0);
      } finally {
        listener.close();
      }
      const result = toolResultsOf(h.server.requests[1])[0];
      expect(existsSync(path.join(outside, "escaped"))).toBe(false);
      expect(readFileSync(path.join(h.work, ".git/config"), "utf8")).toBe("[core]\n");
      expect(existsSync(path.join(h.work, ".hx/settings.local.json"))).toBe(false);
      expect(result).toContain("network-closed");
      expect(result).not.toContain("reached");
      expect(readFileSync(path.join(h.work, "inside.txt"), "utf8")).toBe("fine\n");
    },
  );

  it.skipIf(!backend.ok)("--sandbox off runs commands unsandboxed; a bad mode is a usage error", async () => {
    const outside = realpathSync(tempDir("hx-outside-"));
    h.server.reply().tool("bash", { command: `echo x > '${outside}/written'` });
    h.server.reply().text("done");
    expect((await h.agent("go", [...bypass, "--sandbox", "off"])).code).toBe(0);
    expect(existsSync(path.join(outside, "written"))).toBe(true);
    const bad = await h.agent("go", ["--sandbox", "loose"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--sandbox must be one of workspace-write, read-only, off (got 'loose').");
  });
});

describe("secrets stay out of commands, results and transcripts", () => {
  const key = "sk-e2e-secret-0123456789";
  it.each([["workspace-write"], ["off"]])("with --sandbox %s", async (mode) => {
    const home = tempDir("hx-home-");
    h.server.reply().tool("bash", {
      command:
        'echo "key=[$OPENAI_API_KEY]"; tr "\\0" "\\n" < /proc/$PPID/environ 2>/dev/null | grep -c OPENAI_API_KEY= || true; tr "\\0" "\\n" < /proc/$PPID/environ 2>/dev/null | grep OPENAI_API_KEY= || true',
    });
    h.server.reply().text("done");
    const run = await h.agent("show me", [...bypass, "--sandbox", mode], {
      env: { OPENAI_API_KEY: key, HOME: home },
    });
    expect(run.code).toBe(0);
    const result = toolResultsOf(h.server.requests[1])[0];
    expect(result.startsWith("key=[]")).toBe(true);
    // Unsandboxed, bash can read hx's own environment; the key is redacted before anyone sees it.
    expect(result).not.toContain(key);
    const sessions = path.join(home, ".hx", "sessions");
    const files = readdirSync(sessions, { recursive: true, withFileTypes: true }).filter((entry) =>
      entry.isFile(),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files)
      expect(readFileSync(path.join(file.parentPath, file.name), "utf8")).not.toContain(key);
  });

  it("a password in --base-url is never echoed", async () => {
    const run = await runHx(
      ["agent", "hi", "--provider", "openai", "--base-url", "http://user:s3cret-pw@127.0.0.1:9/v1", "-v"],
      {
        cwd: h.work,
        env: { OPENAI_API_KEY: "sk-x", HX_MAX_RETRIES: "0" },
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("http://user:***@127.0.0.1:9/v1");
    expect(run.stderr + run.stdout).not.toContain("s3cret-pw");
    const bad = await runHx(["agent", "hi", "--base-url", "ftp://user:s3cret-pw@x"], { cwd: h.work });
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain("s3cret-pw");
  });
});

/** Starts `hx agent` against the fake server and resolves once `marker` exists in the workspace. */
async function startAgentAndWait(
  args: string[],
  marker: string,
): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [HX_BIN, "agent", "go", ...args, ...h.args()], {
    cwd: h.work,
    env: hxEnv({ OPENAI_API_KEY: "sk-test" }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.resume();
  child.stderr?.resume();
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const deadline = Date.now() + 15_000;
  while (!existsSync(path.join(h.work, marker))) {
    if (Date.now() > deadline) throw new Error(`${marker} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, exited };
}

async function gone(...sleeps: string[]): Promise<number[]> {
  // Give the kernel a moment to deliver the kills.
  for (let i = 0; i < 20; i++) {
    const left = sleeps.flatMap((n) => processesMatching(`sleep ${n}`));
    if (left.length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return sleeps.flatMap((n) => processesMatching(`sleep ${n}`));
}

describe("processes die with hx", () => {
  const modes: Array<[string, boolean]> = [
    ["off", true],
    ["workspace-write", backend.ok],
  ];
  for (const [mode, runs] of modes) {
    for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) {
      it.skipIf(!runs)(
        `${signal} while a command runs (--sandbox ${mode}): no nohup or setsid child survives`,
        async () => {
          const [a, b, c] = [uniqueSleep(), uniqueSleep(), uniqueSleep()];
          h.server.reply().tool("bash", {
            command: `nohup sleep ${a} >/dev/null 2>&1 & setsid sleep ${b} >/dev/null 2>&1 & touch started; sleep ${c}`,
          });
          h.server.reply().text("done");
          const { child, exited } = await startAgentAndWait([...bypass, "--sandbox", mode], "started");
          // All three run while the command does.
          for (const n of [a, b, c]) expect(processesMatching(`sleep ${n}`).length).toBeGreaterThan(0);
          child.kill(signal);
          await exited;
          expect(await gone(a, b, c)).toEqual([]);
        },
      );
    }
  }

  it.skipIf(!backend.ok)(
    "kill -9 of hx: the sandboxed command and its background jobs die with it",
    async () => {
      const [a, b] = [uniqueSleep(), uniqueSleep()];
      h.server
        .reply()
        .tool("bash", { command: `nohup sleep ${a} >/dev/null 2>&1 & touch started; sleep ${b}` });
      const { child, exited } = await startAgentAndWait([...bypass], "started");
      child.kill("SIGKILL");
      await exited;
      expect(await gone(a, b)).toEqual([]);
    },
  );

  it("a hook still running when hx gets SIGTERM is killed too", async () => {
    const a = uniqueSleep();
    mkdirSync(path.join(h.work, ".hx"), { recursive: true });
    writeFileSync(
      path.join(h.work, ".hx/settings.json"),
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: "command", command: `touch started; sleep ${a}` }] }] },
      }),
    );
    h.server.reply().tool("bash", { command: "true" });
    h.server.reply().text("done");
    const { child, exited } = await startAgentAndWait(bypass, "started");
    expect(processesMatching(`sleep ${a}`).length).toBeGreaterThan(0);
    child.kill("SIGTERM");
    await exited;
    expect(await gone(a)).toEqual([]);
  });
});
