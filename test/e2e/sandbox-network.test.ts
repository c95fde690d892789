// End to end: the network allow-list through the real binary. The model's commands reach a
// listed host (a local server on 127.0.0.1) through hx's proxy, and a host not on the list
// fails at once with a message that names it; `/sandbox` changes the network for the session.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backend, skipReason } from "../sandbox/sandbox-support.js";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { startInTerminal } from "../support/terminal.js";
import { toolResultsOf, useHarness } from "./harness-support.js";

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

const h = useHarness();
const bypass = ["--permission-mode", "bypassPermissions"];
let port = 0;
let hits: string[] = [];
let close: () => void = () => {};
beforeEach(async () => {
  hits = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    res.end(`hello from ${req.url}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
  close = () => server.close();
});
afterEach(() => close());

/** A home folder whose ~/.hx/settings.json says `settings` (the user's own settings). */
function homeWith(settings: unknown): string {
  const home = tempDir("hx-home-net-");
  mkdirSync(path.join(home, ".hx"));
  writeFileSync(path.join(home, ".hx/settings.json"), JSON.stringify(settings));
  return home;
}

const viaProxy = (url: string) => `curl -sS --noproxy '' --max-time 20 ${url}`;

describe(`the network allow-list through hx${why}`, () => {
  it.skipIf(skip)("headless: a listed host answers, another is refused at once with the fix", async () => {
    const home = homeWith({ sandbox: { network: { allowedDomains: ["127.0.0.1"], deniedDomains: [] } } });
    h.server.reply().tool("bash", {
      command: `${viaProxy(`http://127.0.0.1:${port}/listed`)}; ${viaProxy("https://registry.example.org/")}`,
    });
    h.server.reply().text("done");
    const run = await h.agent("fetch", bypass, { env: { HOME: home } });
    expect(run.code).toBe(0);
    const result = toolResultsOf(h.server.requests[1])[0];
    expect(result).toContain("hello from /listed");
    expect(result).toContain("CONNECT tunnel failed, response 403");
    expect(result).toContain("[hx sandbox: the network proxy refused registry.example.org");
    expect(hits).toEqual(["/listed"]);
    // The model was told what its network is.
    const bash = h.server.requests[0].body.tools.find(
      (tool: { function: { name: string } }) => tool.function.name === "bash",
    );
    expect(bash.function.description).toContain(
      "network only through hx's proxy (HTTP_PROXY is set) to 127.0.0.1",
    );
  });

  it.skipIf(skip)("/sandbox shows the network and allows a host for the session", async () => {
    h.server
      .reply()
      .tool("bash", { command: `${viaProxy(`http://127.0.0.1:${port}/after`)} || echo no-network` });
    h.server.reply().text("fetched");
    const run = await runHx([...bypass, ...h.args()], {
      env: { OPENAI_API_KEY: "sk-test" },
      input: "/sandbox\n/sandbox allow 127.0.0.1\nfetch it\n/exit\n",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/sandbox: workspace-write \(bubblewrap\), network off/);
    expect(run.stdout).toContain(
      "for this session: sandbox: workspace-write (bubblewrap), network only 127.0.0.1 (this session) (through hx's proxy)",
    );
    expect(toolResultsOf(h.server.requests[1])[0]).toContain("hello from /after");
    expect(hits).toEqual(["/after"]);
  });

  it.skipIf(skip)(
    "in a terminal, a host not on the list is asked about; always saves it",
    async () => {
      const home = homeWith({ sandbox: { network: { allowedDomains: [], deniedDomains: [] } } });
      h.server
        .reply()
        .tool("bash", { command: `${viaProxy(`http://127.0.0.1:${port}/asked`)} || echo failed` });
      h.server.reply().text("fetched it");
      const term = startInTerminal([...bypass, ...h.args()], {
        cwd: h.work,
        env: { OPENAI_API_KEY: "sk-test", HOME: home },
      });
      try {
        await term.waitFor("hx >> ");
        term.type("fetch\r");
        await term.waitFor(
          `Allow commands to reach 127.0.0.1 (port ${port})? [o] once  [s] this session  [a] always  [n] no`,
          {
            timeoutMs: 15_000,
          },
        );
        term.type("a\r");
        await term.waitFor("fetched it", { timeoutMs: 15_000 });
        term.type("/exit\r");
        await term.exited();
      } finally {
        term.kill();
      }
      expect(toolResultsOf(h.server.requests[1])[0]).toContain("hello from /asked");
      expect(hits).toEqual(["/asked"]);
      const saved = JSON.parse(readFileSync(path.join(h.work, ".hx/settings.local.json"), "utf8"));
      expect(saved.sandbox.network).toEqual({ allowedDomains: ["127.0.0.1"], deniedDomains: [] });
    },
    60_000,
  );
});
