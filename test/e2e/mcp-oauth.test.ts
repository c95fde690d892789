// OAuth for remote MCP servers through the real `hx` binary, against the HTTP fixture's own
// authorization server (test/fixtures/mcp/http-server.mjs --oauth): a headless run without a
// token fails with one line naming `hx mcp login`; `hx mcp login` authorizes (the "browser" is
// a command that follows the redirect, as in CI); later runs use the stored token; the token
// is never written anywhere but its 0600 file; `hx mcp logout` forgets it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FOLLOW_REDIRECT, loggedMessages, useHttpFixture, writeMcpConfig } from "../support/mcp.js";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { BYPASS } from "../support/wire.js";
import { toolResultsOf, useHarness } from "./harness-support.js";

const h = useHarness();
const startServer = useHttpFixture();

/** Every file under `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesContaining(full, needle));
    else if (entry.isFile() && readFileSync(full).includes(needle)) found.push(full);
  }
  return found;
}

async function setUp() {
  const log = path.join(h.work, "server.jsonl");
  const server = await startServer(["--oauth", "--log", log]);
  const home = tempDir("hx-oauth-home-");
  const config = writeMcpConfig(path.join(h.work, "mcp.json"), { web: { type: "http", url: server.url } });
  return { log, home, config, server };
}

describe("OAuth for remote MCP servers", () => {
  it("fails a headless run without a token with one line naming hx mcp login, registering nothing", async () => {
    const { log, home, config } = await setUp();
    h.server.reply().text("done");
    const run = await h.agent("x", ["--mcp-config", config], { env: { HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.split("\n").filter((line) => line.includes("'web'"));
    expect(lines).toEqual(["warning: MCP server 'web' needs authorization: run hx mcp login web."]);
    const paths = loggedMessages(log).map((entry) => entry.path);
    expect(paths).not.toContain("/register");
    expect(paths).not.toContain("/authorize");
  });

  it("logs in, then headless runs use the stored token, which is written to its 0600 file only", async () => {
    const { log, home, config } = await setUp();
    const login = await runHx(["mcp", "login", "web", "--mcp-config", config, "-C", h.work], {
      env: { HOME: home, HX_BROWSER: FOLLOW_REDIRECT },
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain("Logged in to MCP server 'web'");
    expect(login.stderr).toMatch(
      /asks you to authorize hx[^\n]*\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/,
    );
    const file = path.join(home, ".hx", "mcp-auth.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = String(
      Object.values(JSON.parse(readFileSync(file, "utf8")))
        // biome-ignore lint/suspicious/noExplicitAny: the stored record.
        .map((record: any) => record.tokens.access_token)[0],
    );
    expect(token).toMatch(/^at-/);
    const authorizations = loggedMessages(log).filter((e) => e.path === "/authorize").length;

    h.server.reply().tool("mcp__web__echo", { text: "with a token" });
    h.server.reply().text("done");
    const run = await h.agent("x", ["--mcp-config", config, ...BYPASS], { env: { HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])).toEqual(["echo: with a token"]);
    // No new authorization: the stored token was sent.
    expect(loggedMessages(log).filter((e) => e.path === "/authorize")).toHaveLength(authorizations);
    expect(
      loggedMessages(log)
        .filter((e) => e.rpc === "tools/call")
        .map((e) => e.auth),
    ).toEqual(["Bearer"]);

    // Never outside its file: not in transcripts, settings, output, or what the model was sent.
    expect(filesContaining(home, token)).toEqual([file]);
    expect(filesContaining(h.work, token)).toEqual([]);
    expect(`${login.stdout}${login.stderr}${run.stdout}${run.stderr}`).not.toContain(token);
    expect(JSON.stringify(h.server.requests.map((r) => r.body))).not.toContain(token);

    const logout = await runHx(["mcp", "logout", "web", "--mcp-config", config, "-C", h.work], {
      env: { HOME: home },
    });
    expect(logout.stdout).toContain("Logged out of MCP server 'web'");
    expect(readFileSync(file, "utf8")).not.toContain(token);
    h.server.reply().text("done");
    const after = await h.agent("x", ["--mcp-config", config], { env: { HOME: home } });
    expect(after.stderr).toContain("MCP server 'web' needs authorization: run hx mcp login web.");
  });

  it("authorizes during a headless run when a browser command is set (HX_BROWSER)", async () => {
    const { home, config } = await setUp();
    h.server.reply().tool("mcp__web__echo", { text: "authorized in the run" });
    h.server.reply().text("done");
    const run = await h.agent("x", ["--mcp-config", config, ...BYPASS], {
      env: { HOME: home, HX_BROWSER: FOLLOW_REDIRECT },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])).toEqual(["echo: authorized in the run"]);
  });

  it("refreshes an expired token with the refresh token, without the browser", async () => {
    const log = path.join(h.work, "server.jsonl");
    const server = await startServer(["--oauth", "--log", log, "--token-ttl", "1"]);
    const home = tempDir("hx-oauth-home-");
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), { web: { type: "http", url: server.url } });
    const login = await runHx(["mcp", "login", "web", "--mcp-config", config, "-C", h.work], {
      env: { HOME: home, HX_BROWSER: FOLLOW_REDIRECT },
    });
    expect(login.code, login.stderr).toBe(0);
    h.server.reply().tool("mcp__web__echo", { text: "refreshed" });
    h.server.reply().text("done");
    const run = await h.agent("x", ["--mcp-config", config, ...BYPASS], { env: { HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])).toEqual(["echo: refreshed"]);
    expect(loggedMessages(log).filter((e) => e.path === "/authorize")).toHaveLength(1); // the login's
    expect(loggedMessages(log).filter((e) => e.path === "/token").length).toBeGreaterThanOrEqual(2);
  });

  it("a step-up a headless run cannot do names hx mcp login, which then asks for the new scope", async () => {
    const log = path.join(h.work, "server.jsonl");
    const server = await startServer(["--oauth", "--step-up", "--log", log]);
    const home = tempDir("hx-oauth-home-");
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), { web: { type: "http", url: server.url } });
    const login = () =>
      runHx(["mcp", "login", "web", "--mcp-config", config, "-C", h.work], {
        env: { HOME: home, HX_BROWSER: FOLLOW_REDIRECT },
      });
    expect((await login()).code).toBe(0);
    h.server.reply().tool("mcp__web__admin", {});
    h.server.reply().text("done");
    const refused = await h.agent("x", ["--mcp-config", config, ...BYPASS], { env: { HOME: home } });
    expect(refused.code, refused.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])[0]).toBe(
      "Error: MCP server 'web' needs you to authorize again: run hx mcp login web; the call of admin was not made. Tell the user.",
    );

    const again = await login();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/authorize\?[^\n]*scope=mcp\+admin/);
    h.server.reply().tool("mcp__web__admin", {});
    h.server.reply().text("done");
    const allowed = await h.agent("x", ["--mcp-config", config, ...BYPASS], { env: { HOME: home } });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[3])[0]).toBe("admin done");
  });
});
