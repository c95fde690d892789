// What servers ask, answered by a person in the line mode (a pseudo-terminal): a form asked
// one field per line (defaults, choices, types), a URL offered to open, and sampling allowed
// at the permission question; plus resource templates listed and read through
// read_mcp_resource. The real `hx` with hx's fixture server (--client-tools).
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { FIXTURE_SERVER, nodeServer, writeMcpConfig } from "../support/mcp.js";
import { tempDir } from "../support/temp-dir.js";
import { startInTerminal } from "../support/terminal.js";
import { startScreen, TMUX_AVAILABLE } from "../support/tmux-screen.js";
import { BYPASS } from "../support/wire.js";
import { toolResultsOf, useHarness } from "./harness-support.js";

let server: FakeModelServer;
let work: string;
beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-mcp-tty-");
});
afterEach(async () => {
  await server.close();
});

function lineMode(extra: string[] = []) {
  const config = writeMcpConfig(path.join(work, "mcp.json"), {
    fx: nodeServer(FIXTURE_SERVER, ["--client-tools"]),
  });
  const args = ["--provider", "openai", "--base-url", `${server.url}/v1`, "--model", "m", "-C", work];
  return startInTerminal([...args, "--mcp-config", config, ...extra], {
    cwd: work,
    env: { OPENAI_API_KEY: "sk-test" },
  });
}

describe("MCP servers asking a person (line mode)", () => {
  it("asks a form one field per line and sends the answers", async () => {
    server.reply().tool("mcp__fx__ask", { message: "Who is there?" });
    server.reply().text("thanks");
    const term = lineMode(BYPASS);
    try {
      await term.waitFor("hx >> ");
      term.type("go\r");
      await term.waitFor("MCP server 'fx' asks: Who is there?");
      await term.waitFor("name (Name: Who you are) string (required): ");
      term.type("Ada\r");
      await term.waitFor("level 1) low 2) high [low]: ");
      term.type("2\r");
      await term.waitFor("count integer [2]: ");
      term.type("\r");
      await term.waitFor("sure yes/no (Enter to skip): ");
      term.type("y\r");
      await term.waitFor("Send these answers? [y]es / [n]o (decline) / [c]ancel ");
      term.type("y\r");
      await term.waitFor("thanks");
      term.type("\x04");
      await term.exited();
    } finally {
      term.kill();
    }
    expect(JSON.parse(toolResultsOf(server.requests[1])[0])).toEqual({
      action: "accept",
      content: { name: "Ada", level: "high", count: 2, sure: true },
    });
  });

  it("asks before a server uses the model (sampling), and passes the answer back", async () => {
    server.reply().tool("mcp__fx__sample", { prompt: "Name a colour" });
    server.reply().text("teal");
    server.reply().text("done");
    const term = lineMode(BYPASS);
    try {
      await term.waitFor("hx >> ");
      term.type("go\r");
      await term.waitFor("MCP server fx to use the model (sampling): Name a colour");
      term.type("y\r");
      await term.waitFor("done");
      term.type("\x04");
      await term.exited();
    } finally {
      term.kill();
    }
    expect(server.requests[1].body.tools ?? []).toEqual([]);
    expect(JSON.parse(toolResultsOf(server.requests[2])[0])).toMatchObject({
      role: "assistant",
      content: { type: "text", text: "teal" },
    });
  });
});

describe.skipIf(!TMUX_AVAILABLE)("MCP servers asking a person (full screen)", () => {
  it("asks a form one field at a time in the prompt's place and sends the answers", async () => {
    server.reply().tool("mcp__fx__ask", { message: "Who is there?" });
    server.reply().text("thanks");
    const config = writeMcpConfig(path.join(work, "mcp.json"), {
      fx: nodeServer(FIXTURE_SERVER, ["--client-tools"]),
    });
    const args = ["--provider", "openai", "--base-url", `${server.url}/v1`, "--model", "m", "-C", work];
    const screen = startScreen([...args, "--mcp-config", config, ...BYPASS], {
      cwd: work,
      env: { OPENAI_API_KEY: "sk-test" },
    });
    try {
      await screen.waitFor("/help for commands");
      screen.type("go");
      screen.keys("Enter");
      await screen.waitFor("name (Name: Who you are) string (required):");
      screen.type("Grace");
      screen.keys("Enter");
      await screen.waitFor("level 1) low 2) high [low]:");
      screen.keys("Enter");
      await screen.waitFor("count integer [2]:");
      screen.type("5");
      screen.keys("Enter");
      await screen.waitFor("sure yes/no (Enter to skip):");
      screen.keys("Enter");
      await screen.waitFor("Send these answers?");
      screen.type("y");
      screen.keys("Enter");
      await screen.waitFor("thanks");
    } finally {
      screen.close();
    }
    expect(JSON.parse(toolResultsOf(server.requests[1])[0])).toEqual({
      action: "accept",
      content: { name: "Grace", level: "low", count: 5 },
    });
  });
});

describe("resource templates", () => {
  const h = useHarness();
  it("lists a server's URI templates and reads one filled in", async () => {
    const config = writeMcpConfig(path.join(h.work, "mcp.json"), {
      fx: nodeServer(FIXTURE_SERVER, ["--client-tools"]),
    });
    h.server.reply().tool("read_mcp_resource", { server: "fx" });
    h.server.reply().tool("read_mcp_resource", { server: "fx", uri: "note://42" });
    h.server.reply().text("done");
    const run = await h.agent("x", ["--mcp-config", config, ...BYPASS]);
    expect(run.code, run.stderr).toBe(0);
    const [listed, read] = toolResultsOf(h.server.requests[2]);
    expect(listed).toContain(
      "URI templates of fx (replace each {name} and read the URI):\n- note://{id} (note: A note by its id)",
    );
    expect(read).toContain("note 42");
  });
});
