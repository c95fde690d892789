// The network allow-list: commands reach listed hosts only, through hx's proxy; a host not on
// the list fails at once with a message naming it; interactive sessions ask (once / session /
// always), headless ones refuse. Only 127.0.0.1 is ever reached.
import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolOutput } from "../../src/core/tool.js";
import { domainPatternProblem, judgeHost, matchesDomain } from "../../src/sandbox/domains.js";
import { createSandbox, resolveSandboxOptions, type SandboxOptions } from "../../src/sandbox/index.js";
import { formatNetworkQuestion, type NetworkAnswer, parseNetworkAnswer } from "../../src/sandbox/network.js";
import { resolveAllowList } from "../../src/sandbox/policy.js";
import { parseTarget } from "../../src/sandbox/proxy.js";
import { networkAskerFrom, saveAllowedDomain } from "../../src/shell/sandbox-command.js";
import { createBashTool } from "../../src/tools/bash.js";
import { Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";
import { backend, sandboxedBash, skipReason } from "./sandbox-support.js";

const hasCurl = (() => {
  try {
    execFileSync("curl", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const skip = !backend.ok || !hasCurl || process.platform !== "linux";
const why = skipReason || (hasCurl ? "" : " (skipped: curl is not installed)");

describe("allow-list patterns", () => {
  it("matches hosts exactly, wildcards subdomains only, case and trailing dots ignored", () => {
    expect(matchesDomain("registry.npmjs.org", "*.npmjs.org")).toBe(true);
    expect(matchesDomain("a.b.npmjs.org", "*.npmjs.org")).toBe(true);
    expect(matchesDomain("npmjs.org", "*.npmjs.org")).toBe(false);
    expect(matchesDomain("evilnpmjs.org", "*.npmjs.org")).toBe(false);
    expect(matchesDomain("GitHub.com.", "github.com")).toBe(true);
    expect(matchesDomain("api.github.com", "github.com")).toBe(false);
    expect(matchesDomain("[::1]", "::1")).toBe(true);
  });

  it("denied wins over allowed; anything else is asked", () => {
    const policy = { allowedDomains: ["*.example.com"], deniedDomains: ["secret.example.com"] };
    expect(judgeHost("www.example.com", policy)).toBe("allow");
    expect(judgeHost("secret.example.com", policy)).toBe("deny");
    expect(judgeHost("other.org", policy)).toBe("ask");
    expect(judgeHost("other.org", policy, ["other.org"])).toBe("allow");
  });

  it("refuses patterns that are not hosts, with a warning, and keeps the rest", () => {
    for (const bad of ["", "*", "*.com", "https://x.org", "x.org/path", "x.org:443", "a.*.org", 3])
      expect(domainPatternProblem(bad), String(bad)).toBeDefined();
    for (const good of ["localhost", "127.0.0.1", "::1", "*.npmjs.org", "a-b.c_d.io"])
      expect(domainPatternProblem(good), good).toBeUndefined();
    const warnings: string[] = [];
    expect(
      resolveAllowList(
        { allowedDomains: ["GitHub.com", "https://x.org", "*.npmjs.org"], deniedDomains: ["*"] },
        warnings,
      ),
    ).toEqual({ allowedDomains: ["github.com", "*.npmjs.org"], deniedDomains: [] });
    expect(warnings).toHaveLength(2);
    expect(resolveAllowList(true, [])).toBeUndefined();
    const options = resolveSandboxOptions({
      workspaceRoot: tempDir("hx-net-"),
      settings: { network: { allowedDomains: ["github.com"] } },
    }).options;
    expect(options).toMatchObject({
      network: false,
      allowList: { allowedDomains: ["github.com"], deniedDomains: [] },
    });
  });

  it("reads proxy requests: CONNECT host:port and absolute-form HTTP; anything else is refused", () => {
    expect(parseTarget("CONNECT Registry.npmjs.org:443 HTTP/1.1")).toMatchObject({
      connect: true,
      host: "registry.npmjs.org",
      port: 443,
    });
    expect(parseTarget("CONNECT [::1]:8443 HTTP/1.1")).toMatchObject({ host: "::1", port: 8443 });
    expect(parseTarget("GET http://example.com:8080/a?b=1 HTTP/1.1")).toMatchObject({
      connect: false,
      host: "example.com",
      port: 8080,
      path: "/a?b=1",
    });
    for (const bad of [
      "GET /local HTTP/1.1",
      "CONNECT example.com HTTP/1.1",
      "CONNECT a:99999 HTTP/1.1",
      "GET https://x/ HTTP/1.1",
      "GET http://u:p@x/ HTTP/1.1",
      "garbage",
    ])
      expect(parseTarget(bad), bad).toBeUndefined();
  });

  it("asks once / session / always / no; an empty answer is no", () => {
    expect(formatNetworkQuestion({ host: "example.com", port: 443 })).toBe(
      "Allow commands to reach example.com? [o] once  [s] this session  [a] always  [n] no ",
    );
    expect(formatNetworkQuestion({ host: "x.org", port: 8080 })).toContain("x.org (port 8080)?");
    expect(["o", "s", "y", "always", "", "n", "whatever", undefined].map(parseNetworkAnswer)).toEqual([
      "once",
      "session",
      "session",
      "always",
      "no",
      "no",
      "no",
      "no",
    ]);
  });
});

describe("the network question in the full screen, and saving an always answer", () => {
  it("asks it as a permission question: yes is this session, always is always", async () => {
    const asked: string[] = [];
    const answers = ["yes", "always", "no", { instead: "use the mirror" }] as const;
    let i = 0;
    const ask = networkAskerFrom(async (request) => {
      asked.push(`${request.tool} ${request.rule}`);
      return answers[i++];
    });
    const got = [];
    for (let n = 0; n < 4; n++) got.push(await ask({ host: "example.org", port: n === 0 ? 443 : 8080 }));
    expect(got).toEqual(["session", "always", "no", "no"]);
    expect(asked[0]).toBe("network commands to reach example.org");
    expect(asked[1]).toBe("network commands to reach example.org:8080");
  });

  it("saves the lists in force plus the host, keeping the file's other keys", async () => {
    const file = path.join(tempDir("hx-net-save-"), ".hx/settings.local.json");
    await saveAllowedDomain(
      file,
      { allowedDomains: ["github.com"], deniedDomains: ["x.org"] },
      "registry.npmjs.org",
    );
    const { readFileSync, writeFileSync } = await import("node:fs");
    const first = JSON.parse(readFileSync(file, "utf8"));
    expect(first.sandbox.network).toEqual({
      allowedDomains: ["github.com", "registry.npmjs.org"],
      deniedDomains: ["x.org"],
    });
    writeFileSync(file, JSON.stringify({ ...first, permissions: { allow: ["bash(ls)"] } }));
    await saveAllowedDomain(file, { allowedDomains: [], deniedDomains: [] }, "x.org");
    const second = JSON.parse(readFileSync(file, "utf8"));
    expect(second.permissions).toEqual({ allow: ["bash(ls)"] });
    expect(second.sandbox.network).toEqual({
      allowedDomains: ["github.com", "registry.npmjs.org", "x.org"],
      deniedDomains: [],
    });
  });
});

const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

async function localServer(): Promise<{ port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    res.end(`hello from ${req.url}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  disposers.push(() => server.close());
  return { port: (server.address() as { port: number }).port, hits };
}

function sandboxed(overrides: Partial<SandboxOptions> = {}) {
  return sandboxedBash(disposers, overrides);
}

/** curl through the proxy even for 127.0.0.1 (NO_PROXY lists it for servers inside the sandbox). */
const viaProxy = (url: string) => `curl -sS --noproxy '' --max-time 20 ${url}`;

describe(`the allow-listed network${why}`, () => {
  it.skipIf(skip)(
    "lets a listed host through the proxy and refuses others at once, naming the host",
    async () => {
      const { port, hits } = await localServer();
      const { run, sandbox } = sandboxed({ allowList: { allowedDomains: ["127.0.0.1"], deniedDomains: [] } });
      const out = await run(
        `${viaProxy(`http://127.0.0.1:${port}/ok`)}; ${viaProxy("http://blocked.example.com/")}; ${viaProxy("https://blocked.example.com/")}; echo "proxy=$HTTPS_PROXY"`,
      );
      expect(out).toContain("hello from /ok");
      expect(hits).toEqual(["/ok"]);
      expect(out).toContain(
        'hx sandbox: blocked.example.com is not in sandbox.network.allowedDomains, so commands cannot reach it. To allow it, add "blocked.example.com"',
      );
      expect(out).toContain("CONNECT tunnel failed, response 403");
      expect(out).toContain("proxy=http://127.0.0.1:3128");
      // The model is told not to retry, and how the user allows it.
      expect(out).toContain("[hx sandbox: the network proxy refused blocked.example.com");
      expect(out).toContain("/sandbox allow blocked.example.com");
      const status = sandbox.status();
      expect(status).toMatchObject({
        state: "active",
        network: false,
        allowList: { allowedDomains: ["127.0.0.1"] },
      });
    },
  );

  it.skipIf(skip)(
    "has no other way out: no direct connection, no host Unix socket, still no capabilities",
    async () => {
      const { port, hits } = await localServer();
      const socketDir = realpathSync(tempDir("hx-net-sock-"));
      const socketPath = path.join(socketDir, "host.sock");
      const unix = createServer((socket) => socket.end("reached-unix\n"));
      await new Promise<void>((resolve) => unix.listen(socketPath, resolve));
      disposers.push(() => unix.close());
      const { run } = sandboxed({ allowList: { allowedDomains: ["127.0.0.1"], deniedDomains: [] } });
      const out = await run(
        [
          `curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${port}/direct || echo direct-refused`,
          `node -e "require('net').connect(process.argv[1]).on('data', (d) => console.log(String(d).trim())).on('error', (e) => console.log('unix-' + e.code))" '${socketPath}'`,
          "grep CapEff /proc/self/status",
        ].join("; "),
      );
      expect(out).toContain("direct-refused");
      expect(hits).toEqual([]);
      expect(out).toContain("unix-EPERM");
      expect(out).not.toContain("reached-unix");
      expect(out).toMatch(/CapEff:\s*0000000000000000/);
    },
  );

  it.skipIf(skip)("denied domains win; headless sessions never ask", async () => {
    const { port } = await localServer();
    const { run } = sandboxed({
      allowList: { allowedDomains: ["127.0.0.1", "localhost"], deniedDomains: ["localhost"] },
    });
    const out = await run(`${viaProxy(`http://localhost:${port}/`)}`);
    expect(out).toContain("hx sandbox: localhost is in sandbox.network.deniedDomains");
  });

  it.skipIf(skip)(
    "asks about an unlisted host once per answer: once, session, always (saved), no",
    async () => {
      const { port, hits } = await localServer();
      const questions: string[] = [];
      let next: NetworkAnswer = "once";
      const saved: string[] = [];
      const { run, sandbox } = sandboxed({
        allowList: { allowedDomains: [], deniedDomains: [] },
        askNetwork: async ({ host }) => {
          questions.push(host);
          return next;
        },
        saveAllowedDomain: async (host) => {
          saved.push(host);
        },
      });
      const url = `http://127.0.0.1:${port}/`;
      expect(await run(viaProxy(`${url}a`))).toContain("hello from /a");
      expect(await run(viaProxy(`${url}b`))).toContain("hello from /b");
      expect(questions).toEqual(["127.0.0.1", "127.0.0.1"]); // "once" lets one connection through
      next = "session";
      await run(`${viaProxy(`${url}c`)}; ${viaProxy(`${url}d`)}`);
      expect(questions).toHaveLength(3);
      expect(hits).toEqual(["/a", "/b", "/c", "/d"]);
      next = "no";
      expect(await run(`${viaProxy("http://localhost:1/")}; ${viaProxy("http://localhost:1/")}`)).toContain(
        "the user refused localhost",
      );
      expect(questions).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1", "localhost"]);
      next = "always";
      sandbox.allowHost("localhost", true); // /sandbox allow localhost
      expect(await run(viaProxy(`http://localhost:${port}/e`))).toContain("hello from /e");
      expect(saved).toEqual([]);
      await run(viaProxy("http://other.test/"));
      expect(saved).toEqual(["other.test"]);
      expect(sandbox.status()).toMatchObject({
        allowList: { sessionAllowed: ["127.0.0.1", "localhost", "other.test"], sessionDenied: [] },
      });
    },
  );

  it.skipIf(skip)("/sandbox changes the network for the session: on, off, back to the list", async () => {
    const { port } = await localServer();
    const { run, sandbox } = sandboxed({ allowList: { allowedDomains: ["127.0.0.1"], deniedDomains: [] } });
    expect(await run(viaProxy(`http://127.0.0.1:${port}/1`))).toContain("hello from /1");
    sandbox.setNetwork(false);
    expect(await run(`${viaProxy(`http://127.0.0.1:${port}/2`)} || echo closed`)).toContain("closed");
    sandbox.setNetwork({ allowedDomains: ["127.0.0.1"], deniedDomains: [] });
    expect(await run(viaProxy(`http://127.0.0.1:${port}/3`))).toContain("hello from /3");
  });

  it.skipIf(skip)(
    "where the bridge cannot start (no nsenter), says so once and keeps the network closed",
    async () => {
      const { port, hits } = await localServer();
      const notices: string[] = [];
      const root = realpathSync(tempDir("hx-net-ws-"));
      const sandbox = createSandbox({
        ...resolveSandboxOptions({ workspaceRoot: root }).options,
        tempRoot: realpathSync(tempDir("hx-net-tmp-")),
        allowList: { allowedDomains: ["127.0.0.1"], deniedDomains: [] },
        nsenter: "/nonexistent/nsenter",
      });
      disposers.push(() => sandbox.dispose());
      const tool = createBashTool({ sandbox });
      const run = async (command: string) =>
        (
          (await tool.execute(
            { command },
            {
              workspace: new Workspace(root),
              signal: new AbortController().signal,
              callId: "c1",
              emit: (event) => {
                if (event.type === "notice") notices.push(event.text);
              },
            },
          )) as ToolOutput
        ).content;
      expect(await run(`${viaProxy(`http://127.0.0.1:${port}/x`)} || echo closed`)).toContain("closed");
      expect(
        await run(`curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${port}/y || echo closed`),
      ).toContain("closed");
      expect(sandbox.status()).toMatchObject({ state: "active", network: false });
      await run("true");
      expect(hits).toEqual([]);
      expect(notices).toEqual([
        'the network allow-list cannot start (nsenter is not installed (Debian/Ubuntu: util-linux)); commands run without network. Fix: install what is missing, or set "sandbox": {"network": true} to open the network.',
      ]);
      expect(sandbox.status()).toMatchObject({ allowListProblem: expect.stringContaining("nsenter") });
    },
  );
});
