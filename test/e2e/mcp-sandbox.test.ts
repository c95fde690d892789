// Stdio MCP servers in the OS sandbox, through the real `hx` binary and the fake model server:
// what a sandboxed server may write and reach, the opt-outs, the fallback where bubblewrap
// cannot run, the environment it gets, and that no server process outlives hx — however hx
// ends. Each test asserts what the model was sent and what happened on disk or to processes.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backend, processesMatching, skipReason } from "../sandbox/sandbox-support.js";
import { FIXTURE_SERVER, loggedMessages, nodeServer, writeMcpConfig } from "../support/mcp.js";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { trustFolder } from "../support/trust.js";
import { BYPASS } from "../support/wire.js";
import { toolResultsOf, useHarness, writeSettings } from "./harness-support.js";

const h = useHarness();
const linux = process.platform === "linux";

/** `--mcp-config <work>/mcp.json` with the fixture server (and its io tools) as `fx`. */
function fixtureConfig(log: string, entry: Record<string, unknown> = {}, extra: string[] = []): string[] {
  const fx = { ...nodeServer(FIXTURE_SERVER, ["--log", log, "--io-tools", ...extra]), ...entry };
  return ["--mcp-config", writeMcpConfig(path.join(h.work, "mcp.json"), { fx })];
}

const port = () => Number(new URL(h.server.url).port);

describe(`stdio MCP servers in the OS sandbox${skipReason}`, () => {
  it.skipIf(!backend.ok)(
    "writes only in the workspace (protected paths read-only) and reaches the network",
    async () => {
      const log = path.join(h.work, "log.jsonl");
      const home = tempDir("hx-home-");
      const inside = path.join(h.work, "inside.txt");
      const outside = path.join(home, "outside.txt");
      h.server
        .reply()
        .tool("mcp__fx__write", { path: inside, text: "in" })
        .tool("mcp__fx__write", { path: outside, text: "out" })
        .tool("mcp__fx__write", { path: path.join(h.work, ".hx", "settings.json"), text: "{}" })
        .tool("mcp__fx__connect", { port: port() })
        .tool("mcp__fx__write", { path: path.join(home, ".npm", "cached"), text: "npx cache" });
      h.server.reply().text("done");
      const run = await h.agent("x", [...fixtureConfig(log), ...BYPASS], { env: { HOME: home } });
      expect(run.code, run.stderr).toBe(0);
      expect(toolResultsOf(h.server.requests[1])).toEqual([
        `wrote ${inside}`,
        expect.stringContaining("cannot write: EROFS"),
        expect.stringContaining("cannot write: EROFS"),
        "connected",
        `wrote ${path.join(home, ".npm", "cached")}`,
      ]);
      // The package cache gets no protected stand-ins (nothing left in it but what was written).
      expect(readdirSync(path.join(home, ".npm"))).toEqual(["cached"]);
      expect(readFileSync(inside, "utf8")).toBe("in");
      expect(existsSync(outside)).toBe(false);
      expect(existsSync(path.join(h.work, ".hx", "settings.json"))).toBe(false);
      expect(run.stderr).not.toContain("sandbox cannot start");
    },
  );

  it.skipIf(!backend.ok)(
    "may write the package caches but not ~/.hx/cache, where hx keeps the code cache it runs",
    async () => {
      const log = path.join(h.work, "log.jsonl");
      const home = tempDir("hx-home-");
      mkdirSync(path.join(home, ".hx", "cache"), { recursive: true });
      const codeCache = path.join(home, ".hx", "cache", "agent-poisoned.bin");
      const packageCache = path.join(home, ".cache", "agent-poisoned.bin");
      h.server
        .reply()
        .tool("mcp__fx__write", { path: codeCache, text: "not V8 data" })
        .tool("mcp__fx__write", { path: packageCache, text: "not V8 data" });
      h.server.reply().text("done");
      const run = await h.agent("x", [...fixtureConfig(log), ...BYPASS], { env: { HOME: home } });
      expect(run.code, run.stderr).toBe(0);
      const [toCodeCache, toPackageCache] = toolResultsOf(h.server.requests[1]);
      expect(toCodeCache).toContain("cannot write: EROFS");
      expect(existsSync(codeCache)).toBe(false);
      // ~/.cache is writable for npx and uv, which is why hx's cache is not kept there.
      expect(toPackageCache).toBe(`wrote ${packageCache}`);
    },
  );

  it.skipIf(!backend.ok)("mcp.sandboxNetwork false cuts a server off the network", async () => {
    const log = path.join(h.work, "log.jsonl");
    writeSettings(h.work, { mcp: { sandboxNetwork: false } });
    h.server.reply().tool("mcp__fx__connect", { port: port() });
    h.server.reply().text("done");
    const run = await h.agent("x", [...fixtureConfig(log), ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])[0]).toContain("cannot connect: ECONNREFUSED");
  });

  it.skipIf(!backend.ok)(
    'runs outside the sandbox with "sandbox": false, mcp.sandbox false or --sandbox off',
    async () => {
      const cases: Array<{
        entry?: Record<string, unknown>;
        settings?: object;
        flags?: string[];
        says: string;
      }> = [
        { entry: { sandbox: false }, says: 'not sandboxed ("sandbox": false in its entry)' },
        {
          settings: { mcp: { sandbox: false } },
          says: "not sandboxed (mcp.sandbox is false in the settings)",
        },
        { flags: ["--sandbox", "off"], says: "not sandboxed (the sandbox mode is off)" },
      ];
      for (const [i, c] of cases.entries()) {
        const home = tempDir("hx-home-");
        const outside = path.join(home, `outside-${i}.txt`);
        const log = path.join(h.work, `log-${i}.jsonl`);
        writeSettings(h.work, c.settings ?? {});
        h.server.reply().tool("mcp__fx__write", { path: outside, text: "out" });
        h.server.reply().text("done");
        const config = fixtureConfig(log, c.entry);
        trustFolder(home, h.work); // mcp.sandbox false applies from a trusted folder only
        const run = await h.agent("x", [...config, ...BYPASS, ...(c.flags ?? [])], { env: { HOME: home } });
        expect(run.code, run.stderr).toBe(0);
        expect(toolResultsOf(h.server.requests.at(-1)!)).toEqual([`wrote ${outside}`]);
        const env = c.flags ? { HOME: home, HX_SANDBOX: "off" } : { HOME: home };
        const list = await runHx(["mcp", "list", ...config, "-C", h.work], { env });
        expect(list.stdout).toContain(c.says);
      }
    },
  );

  it.skipIf(!backend.ok)("hx mcp list and hx doctor say which servers are sandboxed", async () => {
    const log = path.join(h.work, "log.jsonl");
    writeMcpConfig(path.join(h.work, ".mcp.json"), {
      fx: nodeServer(FIXTURE_SERVER, ["--log", log]),
      raw: { ...nodeServer(FIXTURE_SERVER), sandbox: false },
      web: { type: "http", url: "http://127.0.0.1:9/mcp" },
    });
    const doctor = await runHx(["doctor", "-C", h.work]);
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(/MCP servers \(3, as they would start; sandboxed ones may also write/);
    expect(doctor.stdout).toMatch(/fx\s+sandboxed \(bubblewrap, workspace-write\), network on\s+\[project\]/);
    expect(doctor.stdout).toMatch(/raw\s+not sandboxed \("sandbox": false in its entry\)/);
    expect(doctor.stdout).toMatch(/web\s+remote: no local process/);
    const json = JSON.parse((await runHx(["doctor", "--json", "-C", h.work])).stdout);
    expect(json.mcpServers.map((s: { sandboxed: boolean }) => s.sandboxed)).toEqual([true, false, false]);
    // Doctor does not start servers.
    expect(loggedMessages(log)).toEqual([]);

    const list = await runHx(["mcp", "list", "--json", "--mcp-config", path.join(h.work, ".mcp.json")]);
    const byName = Object.fromEntries(
      JSON.parse(list.stdout).servers.map((s: { name: string; sandbox?: object }) => [s.name, s.sandbox]),
    );
    expect(byName.fx).toEqual({
      sandboxed: true,
      text: "sandboxed (bubblewrap, workspace-write), network on",
    });
    expect(byName.raw).toEqual({ sandboxed: false, text: 'not sandboxed ("sandbox": false in its entry)' });
  });
});

describe("stdio MCP servers where the sandbox cannot start", () => {
  // With an empty PATH there is no bwrap, whatever this machine has (the servers' command is absolute).
  const noBwrap = { PATH: tempDir("hx-empty-path-") };

  it("run without it after one warning naming the fix", async () => {
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      one: nodeServer(FIXTURE_SERVER),
      two: nodeServer(FIXTURE_SERVER),
    });
    h.server.reply().tool("mcp__one__echo", { text: "a" }).tool("mcp__two__echo", { text: "b" });
    h.server.reply().text("done");
    const run = await h.agent("x", ["--mcp-config", config, ...BYPASS], { env: noBwrap });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])).toEqual(["echo: a", "echo: b"]);
    const warnings = run.stderr.split("\n").filter((line) => line.includes("MCP servers run without it"));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warning: the OS sandbox cannot start \(bubblewrap \(bwrap\) is not installed\); MCP servers run without it\. Fix: install bubblewrap/,
      ),
    ]);
  });

  it.skipIf(!linux)(
    "started in a bwrap that cannot create namespaces, they run without it after one warning",
    async () => {
      // A bwrap as on a kernel without user namespaces: it fails before it runs anything. The
      // servers are launched in it at once (before its probe answers), then again without it.
      const bin = tempDir("hx-failing-bwrap-");
      const calls = path.join(bin, "calls.log");
      writeFileSync(
        path.join(bin, "bwrap"),
        `#!/bin/sh\necho "$*" >> '${calls}'\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n`,
        { mode: 0o755 },
      );
      const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
        one: nodeServer(FIXTURE_SERVER),
        two: nodeServer(FIXTURE_SERVER),
      });
      h.server.reply().tool("mcp__one__echo", { text: "a" }).tool("mcp__two__echo", { text: "b" });
      h.server.reply().text("done");
      const run = await h.agent("x", ["--mcp-config", config, ...BYPASS], { env: { PATH: bin } });
      expect(run.code, run.stderr).toBe(0);
      expect(toolResultsOf(h.server.requests[1])).toEqual(["echo: a", "echo: b"]);
      const launches = readFileSync(calls, "utf8")
        .split("\n")
        .filter((line) => line.includes(FIXTURE_SERVER));
      expect(launches).toHaveLength(2);
      const warnings = run.stderr.split("\n").filter((line) => line.includes("MCP servers run without it"));
      expect(warnings).toEqual([
        expect.stringMatching(/^warning: the OS sandbox cannot start \(bwrap cannot create namespaces: /),
      ]);
    },
  );

  it("are refused when sandbox.required, with the fix", async () => {
    writeSettings(h.work, { sandbox: { required: true } });
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      fx: nodeServer(FIXTURE_SERVER),
      raw: { ...nodeServer(FIXTURE_SERVER), sandbox: false },
    });
    h.server.reply().tool("mcp__raw__echo", { text: "explicitly unsandboxed" });
    h.server.reply().text("done");
    const run = await h.agent("x", ["--mcp-config", config, ...BYPASS], { env: noBwrap });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /MCP server 'fx' .* failed to start: refused: sandbox\.required is set and the OS sandbox cannot start \(bubblewrap \(bwrap\) is not installed\)\. Fix: install bubblewrap.*; or set "sandbox": false in the entry of 'fx'/,
    );
    const tools = h.server.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(tools.some((name: string) => name.startsWith("mcp__fx__"))).toBe(false);
    expect(toolResultsOf(h.server.requests[1])).toEqual(["echo: explicitly unsandboxed"]);
  });
});

describe("what a stdio server's environment holds", () => {
  it("its entry's env, never hx's provider keys or other secrets", async () => {
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      fx: nodeServer(FIXTURE_SERVER, [], { SERVICE_TOKEN: "from-the-entry" }),
    });
    h.server
      .reply()
      .tool("mcp__fx__env", { name: "SERVICE_TOKEN" })
      .tool("mcp__fx__env", { name: "OPENAI_API_KEY" })
      .tool("mcp__fx__env", { name: "GITHUB_TOKEN" });
    h.server.reply().text("done");
    const run = await h.agent("x", ["--mcp-config", config, ...BYPASS], {
      env: { GITHUB_TOKEN: "ghp_not_for_servers" },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])).toEqual(["set", "unset", "unset"]);
  });
});

describe.skipIf(!linux)("no MCP server outlives hx", () => {
  const hangingCall = async (log: string, sandbox: boolean, signal: NodeJS.Signals) => {
    h.server.reply().tool("mcp__fx__hang", {});
    const config = fixtureConfig(log, sandbox ? {} : { sandbox: false }, ["--stubborn"]);
    const agent = h.start("x", [...config, ...BYPASS]);
    await expect
      .poll(() => loggedMessages(log).some((m) => m.method === "tools/call"), { timeout: 15_000 })
      .toBe(true);
    expect(processesMatching(log).length).toBeGreaterThan(0);
    agent.child.kill(signal);
    await agent.done;
    await expect.poll(() => processesMatching(log), { timeout: 5_000 }).toEqual([]);
  };

  it("SIGTERM to hx during a call kills a server that ignores stdin closing and SIGTERM", async () => {
    await hangingCall(path.join(h.work, "log.jsonl"), false, "SIGTERM");
  });

  it.skipIf(!backend.ok)("kill -9 of hx takes a sandboxed server with it", async () => {
    await hangingCall(path.join(h.work, "log.jsonl"), true, "SIGKILL");
  });
});
