import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withInheritedFiles } from "../../src/process/inherited-files.js";
import type { SandboxOptions } from "../../src/sandbox/index.js";
import { tempDir } from "../support/temp-dir.js";
import { backend, processesMatching, sandboxedBash, skipReason, uniqueSleep } from "./sandbox-support.js";

const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

function sandboxed(overrides: Partial<SandboxOptions> = {}) {
  return sandboxedBash(disposers, overrides);
}

describe(`the bubblewrap sandbox around bash${skipReason}`, () => {
  it.skipIf(!backend.ok)("writes inside the workspace, and nowhere else", async () => {
    const { root, run, sandbox } = sandboxed();
    const outside = realpathSync(tempDir("hx-outside-"));
    const out = await run(`echo ok > inside.txt; echo bad > '${outside}/x'; echo bad > ~/hx-sbx-marker`);
    expect(readFileSync(path.join(root, "inside.txt"), "utf8")).toBe("ok\n");
    expect(existsSync(path.join(outside, "x"))).toBe(false);
    expect(out).toContain("Read-only file system");
    // The model is told what happened.
    expect(out).toContain("[hx sandbox: writes outside the workspace");
    expect(sandbox.status()).toMatchObject({ state: "active", backend: "bubblewrap", network: false });
  });

  it.skipIf(!backend.ok)(
    "keeps protected paths read-only, existing or not, and cannot move .git away",
    async () => {
      const { root, run } = sandboxed();
      mkdirSync(path.join(root, ".git/hooks"), { recursive: true });
      writeFileSync(path.join(root, ".git/config"), "[core]\n");
      const out = await run(
        [
          "echo '[core] fsmonitor = touch M' >> .git/config",
          "echo x > .git/hooks/pre-commit",
          "mkdir -p .hx && echo '{}' > .hx/settings.json",
          "echo '{}' > .mcp.json",
          "mkdir -p .claude/x",
          "mv .git .git-old",
          "echo ok > .git/HEAD-test && echo git-still-writable",
        ].join("; "),
      );
      expect(readFileSync(path.join(root, ".git/config"), "utf8")).toBe("[core]\n");
      expect(existsSync(path.join(root, ".git/hooks/pre-commit"))).toBe(false);
      expect(existsSync(path.join(root, ".git-old"))).toBe(false);
      expect(out).toContain("git-still-writable");
      // The stand-ins that kept .hx, .mcp.json and .claude from being created are gone again.
      for (const name of [".hx", ".mcp.json", ".claude"])
        expect(existsSync(path.join(root, name))).toBe(false);
    },
  );

  it.skipIf(!backend.ok)(
    "where there is no .git, a command cannot make one with a config or hooks of its own",
    async () => {
      // A .git/config with core.fsmonitor runs its command at the next `git status` outside the
      // sandbox: the user's, or a hook's.
      const { root, run } = sandboxed();
      const out = await run(
        [
          "git init -q . 2>&1",
          "mkdir -p .git/hooks 2>&1",
          "echo '[core] fsmonitor = touch M' > .git/config 2>&1",
          "echo done",
        ].join("; "),
      );
      expect(out).toContain("done");
      expect(existsSync(path.join(root, ".git/config"))).toBe(false);
      expect(existsSync(path.join(root, ".git/hooks"))).toBe(false);
      // The stand-in that kept .git from being created is gone again.
      expect(existsSync(path.join(root, ".git"))).toBe(false);
    },
  );

  it.skipIf(!backend.ok)("has no network unless settings allow it", async () => {
    const server = createServer((socket) => socket.end("hello\n"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3 || echo no-connection`;
      expect(await sandboxed().run(probe)).toContain("no-connection");
      expect(await sandboxed({ network: true }).run(probe)).toBe("hello");
    } finally {
      server.close();
    }
  });

  it.skipIf(!backend.ok)(
    "reaches no Unix socket of the host unless the network is allowed (docker.sock would be a root shell)",
    async () => {
      const root = realpathSync(tempDir("hx-sbx-sock-"));
      const socketPath = path.join(root, "host.sock");
      const server = createServer((socket) => socket.end("hello from the host\n"));
      await new Promise<void>((resolve) => server.listen(socketPath, resolve));
      const client = `node -e "require('net').connect(process.argv[1]).on('data', (d) => { console.log(String(d).trim()); process.exit(0); }).on('error', (e) => { console.log('refused: ' + e.code); process.exit(0); })" '${socketPath}'`;
      // A command's own pipes (socketpair) still work: node's child processes use them.
      const pipes = `node -e "require('child_process').execFileSync('true'); console.log('pipes ok')"`;
      try {
        const closed = await sandboxed({ workspaceRoot: root }).run(`${client}; ${pipes}`);
        expect(closed).toContain("refused: EPERM");
        expect(closed).toContain("pipes ok");
        expect(await sandboxed({ workspaceRoot: root, network: true }).run(client)).toBe(
          "hello from the host",
        );
      } finally {
        server.close();
      }
    },
  );

  it.skipIf(!backend.ok)(
    "hands bwrap the seccomp filter as fd 3 for the launcher to open (no shell in between); the command never holds it",
    async () => {
      const { root, sandbox, run } = sandboxed();
      const launch = await sandbox.launch("bash", ["-c", "true"], { cwd: root, env: {} });
      if ("refused" in launch) throw new Error(launch.refused);
      launch.release();
      expect(path.basename(launch.file)).toBe("bwrap");
      expect(launch.inheritFiles).toHaveLength(1);
      expect(
        launch.args.slice(launch.args.indexOf("--seccomp"), launch.args.indexOf("--seccomp") + 2),
      ).toEqual(["--seccomp", "3"]);
      // The filter is in force (no Unix socket) and bwrap closed its fd before the command ran.
      const out = await run(
        `node -e "require('net').connect('/nonexistent.sock').on('error', (e) => console.log('socket: ' + e.code))"; for fd in /proc/$$/fd/*; do echo "fd $(readlink $fd)"; done`,
      );
      expect(out).toContain("socket: EPERM");
      expect(out).toMatch(/^fd /m);
      expect(out).not.toContain(path.basename(launch.inheritFiles?.[0] ?? "seccomp"));
    },
  );

  it.skipIf(!backend.ok)("gives each session a private /tmp that lasts between its commands", async () => {
    const { run } = sandboxed();
    const name = `hx-private-${process.pid}-${Date.now()}`;
    await run(`echo kept > /tmp/${name}; echo "TMPDIR=$TMPDIR"`);
    expect(await run(`cat /tmp/${name}`)).toBe("kept");
    expect(existsSync(path.join("/tmp", name))).toBe(false);
  });

  it.skipIf(!backend.ok)(
    "a stand-in another sandboxed process holds (a long-lived MCP server) stays read-only for the next command",
    async () => {
      const { root, sandbox, run } = sandboxed();
      // The first launch (an MCP server, say) holds a stand-in for the missing .git.
      const held = await sandbox.launch("true", [], { cwd: root, env: {} });
      expect(existsSync(path.join(root, ".git"))).toBe(true);
      expect(await run("mkdir .git/objects && echo made")).toMatch(/Read-only file system/);
      expect(await run("echo x > .git/HEAD && echo made")).toMatch(/Read-only file system/);
      if ("release" in held) held.release();
      expect(existsSync(path.join(root, ".git"))).toBe(false);
    },
  );

  it.skipIf(!backend.ok)(
    "a script under /tmp that a command names by path stays visible; other folders of /tmp stay hidden",
    async () => {
      const { root, sandbox } = sandboxed();
      const folder = tempDir("hx-sbx-script-");
      const script = path.join(folder, "server.sh");
      writeFileSync(script, "echo from-script\n");
      const other = tempDir("hx-sbx-other-");
      writeFileSync(path.join(other, "secret"), "hidden\n");
      const run = async (args: string[]) => {
        const launch = await sandbox.launch("bash", args, {
          cwd: root,
          env: { PATH: process.env.PATH ?? "" },
        });
        if ("refused" in launch) throw new Error(launch.refused);
        const result = withInheritedFiles(launch.inheritFiles, (fds) =>
          spawnSync(launch.file, launch.args, {
            env: launch.env,
            encoding: "utf8",
            stdio: ["ignore", "pipe", "pipe", ...fds],
          }),
        );
        launch.release();
        return `${result.stdout}${result.stderr}`;
      };
      if (!script.startsWith("/tmp/")) return; // the private /tmp hides nothing else
      expect(await run([script])).toContain("from-script");
      expect(await run(["-c", `cat '${other}/secret' || echo gone`])).toContain("gone");
    },
  );

  it.skipIf(!backend.ok)("removes private temp dirs of hx processes that are gone", async () => {
    const tempRoot = realpathSync(tempDir("hx-sbx-tmp-"));
    const stale = path.join(tempRoot, "hx-sandbox-999999999-abc");
    const live = path.join(tempRoot, `hx-sandbox-${process.ppid}-abc`);
    mkdirSync(stale);
    mkdirSync(live);
    await sandboxed({ tempRoot }).run("true");
    await expect.poll(() => existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it.skipIf(!backend.ok)("stops background jobs when the command ends, however they detach", async () => {
    const { run } = sandboxed();
    const a = uniqueSleep();
    const b = uniqueSleep();
    const c = uniqueSleep();
    const out = await run(
      `nohup sleep ${a} >/dev/null 2>&1 & setsid sleep ${b} & (sleep ${c} &) ; disown -a; echo started`,
    );
    expect(out).toBe("started");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([
      ...processesMatching(`sleep ${a}`),
      ...processesMatching(`sleep ${b}`),
      ...processesMatching(`sleep ${c}`),
    ]).toEqual([]);
  });

  it.skipIf(!backend.ok)("a timeout kills the sandboxed command and everything it started", async () => {
    const { run } = sandboxed();
    const [a, b] = [uniqueSleep(), uniqueSleep()];
    const output = await run(`sleep ${a} & echo started; sleep ${b}`, 1);
    expect(output).toMatch(/^Error: the command timed out after 1 s.*\n\nstarted$/s);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...processesMatching(`sleep ${a}`), ...processesMatching(`sleep ${b}`)]).toEqual([]);
  });

  it.skipIf(!backend.ok)("read-only mode refuses writes to the workspace too", async () => {
    const { root, run } = sandboxed({ mode: "read-only" });
    const out = await run("echo x > file.txt; cat /etc/hostname >/dev/null && echo can-read");
    expect(existsSync(path.join(root, "file.txt"))).toBe(false);
    expect(out).toContain("can-read");
  });

  it.skipIf(!backend.ok)("writablePaths adds folders, whose protected paths stay read-only", async () => {
    const extra = realpathSync(tempDir("hx-extra-"));
    mkdirSync(path.join(extra, ".hx"));
    const { run } = sandboxed({ writablePaths: [extra] });
    await run(`echo ok > '${extra}/a'; echo bad > '${extra}/.hx/settings.json'`);
    expect(readFileSync(path.join(extra, "a"), "utf8")).toBe("ok\n");
    expect(existsSync(path.join(extra, ".hx/settings.json"))).toBe(false);
  });
});

describe(`launching before the probe answers (MCP servers at start-up)${skipReason}`, () => {
  it.skipIf(!backend.ok)("wraps a command as a probed launch does, and it runs in the sandbox", async () => {
    const { root, sandbox } = sandboxed();
    const outside = realpathSync(tempDir("hx-outside-"));
    const command = ["-c", `echo ok > inside.txt; echo bad > '${outside}/x'; true`] as const;
    const early = sandbox.launchUnchecked("bash", command, {
      cwd: root,
      env: { PATH: process.env.PATH ?? "" },
    });
    expect(sandbox.status().state).toBe("unchecked");
    if (!early) throw new Error("expected a launch");
    withInheritedFiles(early.inheritFiles, (fds) =>
      spawnSync(early.file, early.args, {
        env: early.env,
        cwd: root,
        stdio: ["ignore", "pipe", "pipe", ...fds],
      }),
    );
    early.release();
    expect(readFileSync(path.join(root, "inside.txt"), "utf8")).toBe("ok\n");
    expect(existsSync(path.join(outside, "x"))).toBe(false);
    const probed = await sandbox.launch("bash", command, {
      cwd: root,
      env: { PATH: process.env.PATH ?? "" },
    });
    expect("refused" in probed ? undefined : probed.args).toEqual(early.args);
    if (!("refused" in probed)) probed.release();
  });
});

describe("when the sandbox cannot start", () => {
  it("launches nothing before the probe where no backend exists", () => {
    const { root, sandbox } = sandboxed({ platform: "aix" });
    expect(sandbox.launchUnchecked("bash", ["-c", "true"], { cwd: root, env: {} })).toBeUndefined();
  });

  it("says so once, with the fix, and runs commands with the permission check alone", async () => {
    const { run, notices, sandbox } = sandboxed({ platform: "aix" });
    expect(await run("echo one")).toBe("one");
    expect(await run("echo two")).toBe("two");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^the OS sandbox cannot start \(hx has no OS sandbox for aix\); commands run with the permission check alone\. Fix: /,
    );
    expect(sandbox.status()).toMatchObject({ state: "unavailable", required: false });
  });

  it("refuses commands when settings say sandbox.required", async () => {
    const { root, run } = sandboxed({ platform: "aix", required: true });
    await expect(run("touch ran")).rejects.toThrow(/commands are refused: settings say sandbox\.required/);
    expect(existsSync(path.join(root, "ran"))).toBe(false);
  });
});
