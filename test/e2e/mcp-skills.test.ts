// Skills over MCP (the Skills extension, SEP-2640) through the real `hx` binary: the fixture
// server's skills join the catalog, load_skill fetches and checks them, a wrong digest is
// refused, a project skill of the same name wins. The fake model server records each request.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { FIXTURE_SERVER, loggedMessages, nodeServer, writeMcpConfig } from "../support/mcp.js";
import { runHx } from "../support/run-hx.js";
import { BYPASS } from "../support/wire.js";
import { KEYS, messagesOf, statsLine, toolResultsOf, useHarness, writeSettings } from "./harness-support.js";

const h = useHarness();

// These tests read the first request's catalog: the server must be up by then, even on a busy
// machine (the default mcp.startupWait lets a slow server join later; one test below says so).
beforeEach(() => writeSettings(h.work, { mcp: { startupWait: 30_000 } }));

/** `--mcp-config` with the fixture server as `fx` serving skills, logging what it receives. */
function fixture(...extra: string[]): { flags: string[]; log: string } {
  const log = path.join(h.work, "fx.log");
  const file = writeMcpConfig(path.join(h.work, "mcp.json"), {
    fx: nodeServer(FIXTURE_SERVER, ["--skills", "--log", log, ...extra]),
  });
  return { flags: ["--mcp-config", file], log };
}

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC messages as logged.
const methods = (log: string) => loggedMessages(log).flatMap((m: any) => (m.method ? [m.method] : []));
const reads = (log: string) =>
  // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC messages as logged.
  loggedMessages(log).flatMap((m: any) => (m.method === "resources/read" ? [m.params.uri] : []));
const systemPrompt = (n: number) => String(messagesOf(h.server.requests[n])[0]?.content);

const RELEASE_NOTES_LOADED = [
  '<skill name="release-notes">\n# Release notes\nUse the template in templates/notes.md.\n</skill>',
  `This skill comes from the MCP server 'fx'; its files are not on this machine. Its other files (read one with read_mcp_resource {"server": "fx", "uri": "…"} when the instructions refer to it; relative paths in them start at skill://release-notes/):\n- skill://release-notes/templates/notes.md`,
].join("\n\n");

describe("skills over MCP", () => {
  it("joins the catalog with its origin; load_skill fetches SKILL.md then and wraps it as skills are", async () => {
    const { flags, log } = fixture();
    h.server.reply().tool("load_skill", { name: "release-notes" });
    h.server
      .reply()
      .tool("read_mcp_resource", { server: "fx", uri: "skill://release-notes/templates/notes.md" });
    h.server.reply().text("done");
    const run = await h.agent("write the release notes", flags);
    expect(run.code, run.stderr).toBe(0);
    const catalog = systemPrompt(0);
    expect(catalog).toContain("- docs-style: (from MCP server fx) Acme's documentation style.");
    expect(catalog).toContain(
      "- release-notes: (from MCP server fx) How this server wants release notes written.",
    );
    expect(catalog).not.toContain("Bad_Name");
    expect(run.stderr).toContain(
      "warning: MCP server 'fx': skill skill://Bad_Name/SKILL.md left out: Skill name 'Bad_Name' must be lowercase",
    );
    expect(toolResultsOf(h.server.requests[1])).toEqual([RELEASE_NOTES_LOADED]);
    expect(toolResultsOf(h.server.requests[2])[1]).toBe(
      "[resource skill://release-notes/templates/notes.md (text/markdown)]\n## Changes\n- ...\n",
    );
    // Listed at the start; each file read only when it was needed.
    expect(methods(log).indexOf("skills/list")).toBeGreaterThan(-1);
    expect(reads(log)).toEqual([
      "skill://release-notes/SKILL.md",
      "skill://release-notes/templates/notes.md",
    ]);
    // Skill loads count as skills in the transcript's meta: the stats line counts the tool calls.
    expect(statsLine(run.stderr)).toMatch(/^turns=3 tool_calls=2 blocked=0 /);
  });

  it("a SKILL.md that does not match its digest is refused, also after asking the server again", async () => {
    const { flags, log } = fixture("--bad-digest");
    h.server.reply().tool("load_skill", { name: "release-notes" });
    h.server.reply().text("could not load it");
    const run = await h.agent("write the release notes", flags);
    expect(run.code, run.stderr).toBe(0);
    const [result] = toolResultsOf(h.server.requests[1]);
    expect(result).toMatch(
      /^Error: Skill 'release-notes' from MCP server 'fx' was not loaded: its SKILL.md is not what the server's manifest describes \(the server listed (\d+) bytes with sha256:[0-9a-f]{64}; it sent \1 bytes with sha256:[0-9a-f]{64}\), also after asking the server again\. The content may have been changed or tampered with: do not use it; tell the user/,
    );
    expect(result).not.toContain("# Release notes");
    expect(methods(log)).toContain("skills/get");
  });

  it("a stale listing is refreshed with skills/get; a supporting file with a wrong digest is refused", async () => {
    const { flags, log } = fixture("--stale-digest", "--bad-file-digest");
    h.server.reply().tool("load_skill", { name: "release-notes" });
    h.server
      .reply()
      .tool("read_mcp_resource", { server: "fx", uri: "skill://release-notes/templates/notes.md" });
    h.server
      .reply()
      .tool("read_mcp_resource", { server: "fx", uri: "skill://release-notes/templates/unlisted.md" });
    h.server.reply().text("done");
    const run = await h.agent("write the release notes", flags);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[1])).toEqual([RELEASE_NOTES_LOADED]);
    expect(methods(log).filter((m) => m === "skills/get")).toHaveLength(1);
    const results = toolResultsOf(h.server.requests[3]);
    expect(results[1]).toMatch(
      /^Error: skill:\/\/release-notes\/templates\/notes\.md of the skill 'release-notes' is not what the server's manifest describes/,
    );
    expect(results[2]).toBe(
      "Error: skill://release-notes/templates/unlisted.md is not in the manifest of the skill 'release-notes' from MCP server 'fx', so it cannot be checked: use only the files load_skill listed.",
    );
  });

  it("a file of a server's skill read from another server is refused: only the skill's own server is checked", async () => {
    const log = path.join(h.work, "fx.log");
    const otherLog = path.join(h.work, "other.log");
    const file = writeMcpConfig(path.join(h.work, "mcp.json"), {
      fx: nodeServer(FIXTURE_SERVER, ["--skills", "--log", log]),
      other: nodeServer(FIXTURE_SERVER, ["--log", otherLog]),
    });
    h.server.reply().tool("load_skill", { name: "release-notes" });
    h.server
      .reply()
      .tool("read_mcp_resource", { server: "other", uri: "skill://release-notes/templates/notes.md" });
    h.server.reply().text("done");
    const run = await h.agent("write the release notes", ["--mcp-config", file]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultsOf(h.server.requests[2])[1]).toBe(
      `Error: skill://release-notes/templates/notes.md belongs to the skill 'release-notes' of MCP server 'fx'; read it from that server (read_mcp_resource {"server": "fx", "uri": "skill://release-notes/templates/notes.md"}) so it can be checked against the skill's manifest.`,
    );
  });

  it("a project skill of the same name shadows the server's, with a warning", async () => {
    const dir = path.join(h.work, ".agents", "skills", "release-notes");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "SKILL.md"),
      "---\nname: release-notes\ndescription: Our own release notes rules.\n---\nWrite them by hand.\n",
    );
    const { flags, log } = fixture();
    h.server.reply().tool("load_skill", { name: "release-notes" });
    h.server.reply().text("done");
    const run = await h.agent("write the release notes", flags);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `warning: skill://release-notes/SKILL.md: skill 'release-notes' of mcp:fx is shadowed by ${path.join(dir, "SKILL.md")} (project); using that one.`,
    );
    expect(systemPrompt(0)).toContain("- release-notes: Our own release notes rules.");
    expect(systemPrompt(0)).not.toContain("How this server wants release notes written.");
    expect(toolResultsOf(h.server.requests[1])[0]).toMatch(
      /^<skill name="release-notes">\nWrite them by hand\.\n<\/skill>/,
    );
    expect(reads(log)).toEqual([]);
  });

  it("hx mcp list counts each server's skills and names the ones left out", async () => {
    const { flags } = fixture();
    const list = await runHx(["mcp", "list", "--json", "-C", h.work, ...flags], { env: KEYS });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).servers[0]).toMatchObject({ name: "fx", status: "ready", skills: 2 });
    expect(list.stderr).toContain("skill skill://Bad_Name/SKILL.md left out");
  });

  it("hx skills list --mcp starts the servers and lists their skills; without --mcp none is started", async () => {
    const { log } = fixture();
    const file = path.join(h.work, "mcp.json");
    const home = path.join(h.work, "home");
    mkdirSync(path.join(home, ".hx"), { recursive: true });
    writeFileSync(
      path.join(home, ".hx", "settings.json"),
      JSON.stringify({ mcpServers: JSON.parse(readFileSync(file, "utf8")).mcpServers }),
    );
    const plain = await runHx(["skills", "list", "--json", "-C", h.work], { env: { ...KEYS, HOME: home } });
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout).skills).toEqual([]);
    expect(existsSync(log)).toBe(false);

    const list = await runHx(["skills", "list", "--json", "--mcp", "-C", h.work], {
      env: { ...KEYS, HOME: home },
    });
    expect(list.code, list.stderr).toBe(0);
    const skills = JSON.parse(list.stdout).skills;
    expect(skills.map((s: { name: string; source: string }) => [s.name, s.source])).toEqual([
      ["docs-style", "mcp:fx"],
      ["release-notes", "mcp:fx"],
    ]);
    expect(list.stderr).toContain("skill skill://Bad_Name/SKILL.md left out");
    expect(methods(log)).toContain("skills/list");
  });

  it("line mode: /skills lists a server's skills with their origin, /mcp counts them", async () => {
    const { flags } = fixture();
    const run = await runHx([...h.args(), ...flags], { env: KEYS, input: "/skills\n/mcp\n/exit\n" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("/docs-style [page]  (from MCP server fx) Acme's documentation style.");
    expect(run.stdout).toMatch(/fx\s+ready: 6 tools \(~[\d,]+ schema tokens\), 3 prompts, [^\n]*2 skills/);
  });

  it("/skill invokes a server's skill headless; its allowed-tools grants nothing", async () => {
    const { flags } = fixture();
    h.server.reply().tool("bash", { command: "touch granted.txt" });
    h.server.reply().text("done");
    const run = await h.agent("/docs-style the API page", flags);
    expect(run.code, run.stderr).toBe(0);
    const user = messagesOf(h.server.requests[0]).at(-1);
    expect(String(user?.content)).toMatch(
      /^<skill name="docs-style">\nWrite short sentences about the API page\.\n<\/skill>\n\nThis skill comes from the MCP server 'fx'/,
    );
    // `allowed-tools: bash` from a server is ignored: headless, bash is still refused.
    expect(toolResultsOf(h.server.requests[1])[0]).toMatch(/not allowed|denied|refused/i);
    expect(statsLine(run.stderr)).toMatch(/blocked=1 /);
    expect(existsSync(path.join(h.work, "granted.txt"))).toBe(false);
  });
});

describe("skills of a server that finishes starting late", () => {
  it("join after it is ready: announced in an appended message (the system prompt stays), then loadable", async () => {
    const log = path.join(h.work, "late.log");
    const file = writeMcpConfig(path.join(h.work, "mcp.json"), {
      late: nodeServer(FIXTURE_SERVER, ["--skills", "--slow-start", "1500", "--log", log]),
    });
    writeSettings(h.work, { mcp: { startupWait: 100 } });
    // Until the skills are announced, the model waits a little with a harmless command.
    h.server.replyWith((request, reply) => {
      const announced = messagesOf(request).some(
        (m) => m.role === "user" && String(m.content).includes("<skills-update>"),
      );
      if (toolResultsOf(request).some((r) => r.startsWith('<skill name="release-notes">')))
        reply.text("done");
      else if (announced) reply.tool("load_skill", { name: "release-notes" });
      else reply.tool("bash", { command: "sleep 0.3" });
    });
    const run = await h.agent("write the release notes", ["--mcp-config", file, ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    const requests = h.server.requests;
    expect(systemPrompt(0)).not.toContain("release-notes");
    for (const request of requests) expect(messagesOf(request)[0]).toEqual(messagesOf(requests[0])[0]);
    const update = messagesOf(requests.at(-1)!).find((m) => String(m.content).startsWith("<skills-update>"));
    expect(update.content).toContain(
      "- added: release-notes: (from MCP server late) How this server wants release notes written.",
    );
    expect(toolResultsOf(requests.at(-1)!).at(-1)).toContain(
      "# Release notes\nUse the template in templates/notes.md.",
    );
    expect(methods(log).filter((m) => m === "skills/list")).toHaveLength(1);
  });
});
