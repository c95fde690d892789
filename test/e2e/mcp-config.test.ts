// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are written to config files.
// A project's `.mcp.json` through the real `hx`: approval once (asked in a terminal, never
// headless), `hx mcp list|add|remove|approve`, and `/mcp` in the interactive session.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_SERVER, loggedMessages, nodeServer, writeMcpConfig } from "../support/mcp.js";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { BYPASS } from "../support/wire.js";
import { runHxInTerminal, toolNamesOf, toolResultsOf, useHarness } from "./harness-support.js";

const h = useHarness();

/** A project with a `.git` folder and a Claude Code `.mcp.json`, plus a HOME kept across runs. */
function project(servers: Record<string, unknown>) {
  mkdirSync(path.join(h.work, ".git"), { recursive: true });
  writeMcpConfig(path.join(h.work, ".mcp.json"), servers);
  return { HOME: tempDir("hx-home-") };
}

describe("a project's .mcp.json", () => {
  it("is not started headless until approved, and says how to approve it", async () => {
    const log = path.join(h.work, "log.jsonl");
    const env = project({ fx: nodeServer(FIXTURE_SERVER, ["--log", log]) });
    h.server.reply().text("done");
    const run = await h.agent("x", BYPASS, { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "MCP server fx of this project is not approved yet and was not started. Approve with: hx mcp approve fx",
    );
    expect(toolNamesOf(h.server.requests[0]).some((n) => n.startsWith("mcp__"))).toBe(false);
    expect(existsSync(log)).toBe(false);

    const approve = await runHx(["mcp", "approve", "-C", h.work], { env });
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout).toContain("Approved 'fx'");
    h.server.reply().tool("mcp__fx__echo", { text: "approved" });
    h.server.reply().text("done");
    const again = await h.agent("x", BYPASS, { env });
    expect(again.code, again.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[2])).toEqual(["echo: approved"]);

    // A changed entry is a different server: asked (here: refused headless) again.
    writeMcpConfig(path.join(h.work, ".mcp.json"), {
      fx: nodeServer(FIXTURE_SERVER, ["--log", log, "--tools", "1"]),
    });
    h.server.reply().text("done");
    const changed = await h.agent("x", BYPASS, { env });
    expect(changed.stderr).toContain("MCP server fx of this project is not approved yet");
  });

  it("is asked about once in a terminal; the answer holds for later runs", async () => {
    const env = project({ fx: nodeServer(FIXTURE_SERVER) });
    const run = await runHxInTerminal(h.args(), {
      cwd: h.work,
      env,
      steps: [
        { expect: "Allow MCP server fx? [y] yes", send: "y\r" },
        { expect: "hx >> ", send: "/mcp\r" },
        { expect: "ready: 6 tools", send: "/exit\r" },
      ],
    });
    expect(run.error, run.output).toBeUndefined();
    expect(run.output).toContain("fx: ");
    expect(run.output).toContain("fixture-server.mjs");
    const approvals = JSON.parse(readFileSync(path.join(env.HOME, ".hx", "mcp-approvals.json"), "utf8"));
    expect(Object.values(approvals.projects)[0]).toMatchObject({ servers: { fx: { answer: "approved" } } });

    h.server.reply().tool("mcp__fx__echo", { text: "remembered" });
    h.server.reply().text("done");
    const headless = await h.agent("x", BYPASS, { env });
    expect(headless.code, headless.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests.at(-1)!)).toEqual(["echo: remembered"]);
  });

  it("declined in a terminal, it stays off without asking again until approved", async () => {
    const env = project({ fx: nodeServer(FIXTURE_SERVER) });
    const run = await runHxInTerminal(h.args(), {
      cwd: h.work,
      env,
      steps: [
        { expect: "[n] no", send: "n\r" },
        { expect: "hx >> ", send: "/mcp\r" },
        { expect: "declined for this project", send: "/exit\r" },
      ],
    });
    expect(run.error, run.output).toBeUndefined();
    h.server.reply().text("done");
    const headless = await h.agent("x", [], { env });
    expect(headless.stderr).not.toContain("not approved yet");
    expect(toolNamesOf(h.server.requests[0]).some((n) => n.startsWith("mcp__"))).toBe(false);
  });

  it("is approved for every project by enableAllProjectMcpServers in the user settings only", async () => {
    const env = project({ fx: nodeServer(FIXTURE_SERVER) });
    mkdirSync(path.join(h.work, ".hx"), { recursive: true });
    writeFileSync(
      path.join(h.work, ".hx", "settings.json"),
      JSON.stringify({ enableAllProjectMcpServers: true }),
    );
    h.server.reply().text("done");
    const denied = await h.agent("x", [], { env });
    expect(denied.stderr).toContain("not approved yet");
    mkdirSync(path.join(env.HOME, ".hx"), { recursive: true });
    writeFileSync(
      path.join(env.HOME, ".hx", "settings.json"),
      JSON.stringify({ enabledMcpjsonServers: ["fx"] }),
    );
    h.server.reply().text("done");
    const trusted = await h.agent("x", [], { env });
    expect(trusted.stderr).not.toContain("not approved yet");
    expect(toolNamesOf(h.server.requests[1])).toContain("mcp__fx__echo");
  });
});

describe("hx mcp", () => {
  it("adds, lists and removes servers; a server you add yourself needs no approval", async () => {
    const env = project({});
    const log = path.join(h.work, "log.jsonl");
    const add = await runHx(
      [
        "mcp",
        "add",
        "-C",
        h.work,
        "-e",
        "GREETING=hi",
        "fx",
        "--",
        process.execPath,
        FIXTURE_SERVER,
        "--log",
        log,
      ],
      { env },
    );
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain("Added MCP server 'fx'");
    const settings = JSON.parse(readFileSync(path.join(h.work, ".hx", "settings.local.json"), "utf8"));
    expect(settings.mcpServers.fx).toEqual({
      command: process.execPath,
      args: [FIXTURE_SERVER, "--log", log],
      env: { GREETING: "hi" },
    });
    const http = await runHx(
      [
        "mcp",
        "add",
        "-C",
        h.work,
        "--transport",
        "http",
        "--scope",
        "project",
        "-H",
        "Authorization: Bearer ${TOKEN}",
        "web",
        "http://127.0.0.1:9/mcp",
      ],
      { env },
    );
    expect(http.code, http.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(h.work, ".mcp.json"), "utf8")).mcpServers.web).toEqual({
      type: "http",
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: "Bearer ${TOKEN}" },
    });

    const list = await runHx(["mcp", "list", "-C", h.work, "--json"], { env: { ...env, TOKEN: "t" } });
    const report = JSON.parse(list.stdout);
    const byName = Object.fromEntries(report.servers.map((s: { name: string }) => [s.name, s]));
    expect(byName.fx).toMatchObject({ status: "ready", tools: 6, prompts: 3, scope: "local" });
    expect(byName.fx.schemaTokens).toBeGreaterThan(50);
    expect(byName.web).toMatchObject({ status: "failed", scope: "project" });
    expect(list.code).toBe(1);
    expect(loggedMessages(log).some((m) => m.method === "tools/list")).toBe(true);

    const text = await runHx(["mcp", "list", "-C", h.work], { env: { ...env, TOKEN: "t" } });
    expect(text.stdout).toMatch(/fx\s+ready: 6 tools \(~[\d,]+ schema tokens\), 3 prompts/);
    expect(text.stdout).toContain("schemas are sent with every request");

    const remove = await runHx(["mcp", "remove", "-C", h.work, "web"], { env });
    expect(remove.code, remove.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(h.work, ".mcp.json"), "utf8")).mcpServers).toEqual({});
    const missing = await runHx(["mcp", "remove", "-C", h.work, "web"], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no MCP server named 'web'");
  });

  it("refuses what it cannot write correctly", async () => {
    const env = project({});
    const url = await runHx(["mcp", "add", "-C", h.work, "web", "https://example.com/mcp"], { env });
    expect(url.code).toBe(2);
    expect(url.stderr).toContain("looks like a URL; add a remote server with --transport http");
    const name = await runHx(["mcp", "add", "-C", h.work, "bad name", "--", "x"], { env });
    expect(name.code).toBe(2);
    const scope = await runHx(["mcp", "add", "-C", h.work, "-s", "team", "x", "--", "x"], { env });
    expect(scope.stderr).toContain("--scope must be one of local, project, user");
    const remote = await runHx(
      ["mcp", "add", "-C", h.work, "--transport", "http", "--no-sandbox", "web", "https://example.com/mcp"],
      { env },
    );
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain("--no-sandbox is for stdio servers");
  });

  it('--no-sandbox writes "sandbox": false for that server, and hx mcp list says it runs outside', async () => {
    const env = project({});
    const add = await runHx(
      ["mcp", "add", "-C", h.work, "--no-sandbox", "fx", "--", "node", FIXTURE_SERVER],
      { env },
    );
    expect(add.code, add.stderr).toBe(0);
    const local = JSON.parse(readFileSync(path.join(h.work, ".hx", "settings.local.json"), "utf8"));
    expect(local.mcpServers.fx).toEqual({ command: "node", args: [FIXTURE_SERVER], sandbox: false });
    const plain = await runHx(["mcp", "add", "-C", h.work, "fx2", "--", "node", FIXTURE_SERVER], { env });
    expect(plain.code, plain.stderr).toBe(0);
    const again = JSON.parse(readFileSync(path.join(h.work, ".hx", "settings.local.json"), "utf8"));
    expect(again.mcpServers.fx2).toEqual({ command: "node", args: [FIXTURE_SERVER] });
    const list = JSON.parse((await runHx(["mcp", "list", "-C", h.work, "--json"], { env })).stdout);
    const fx = list.servers.find((s: { name: string }) => s.name === "fx");
    expect(fx).toMatchObject({ status: "ready", sandbox: { sandboxed: false } });
    expect(fx.sandbox.text).toContain('"sandbox": false in its entry');
  });
});
