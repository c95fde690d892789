// MCP prompts as slash commands through the real `hx` binary: the fixture server's prompts,
// driven headless (`hx agent "/mcp__fx__review …"`), in the line mode and in the full-screen
// session; the fake model server records what the model was sent.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE_SERVER, loggedMessages, nodeServer, writeMcpConfig } from "../support/mcp.js";
import { runHx } from "../support/run-hx.js";
import { type Screen, startScreen, TMUX_AVAILABLE } from "../support/tmux-screen.js";
import { KEYS, messagesOf, useHarness } from "./harness-support.js";

const h = useHarness();
let screen: Screen | undefined;
afterEach(() => {
  screen?.close();
  screen = undefined;
});

/** `--mcp-config` with the fixture server as `fx`, logging what it receives. */
function fixture(): { flags: string[]; log: string } {
  const log = path.join(h.work, "fx.log");
  const file = writeMcpConfig(path.join(h.work, "mcp.json"), {
    fx: nodeServer(FIXTURE_SERVER, ["--log", log]),
  });
  return { flags: ["--mcp-config", file], log };
}

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC messages as logged.
const promptGets = (log: string) => loggedMessages(log).filter((m: any) => m.method === "prompts/get");
const lastUser = (n: number) => messagesOf(h.server.requests[n]).at(-1);

describe("MCP prompts as slash commands", () => {
  it("headless: /mcp__fx__review sends what the prompt returns, arguments mapped by position and name", async () => {
    const { flags, log } = fixture();
    h.server.reply().text("reviewed");
    const run = await h.agent(`/mcp__fx__review focus="error handling" src/app.ts`, flags);
    expect(run.code, run.stderr).toBe(0);
    expect(h.server.requests).toHaveLength(1);
    expect(lastUser(0)).toEqual({
      role: "user",
      content: "Review src/app.ts with a focus on error handling.",
    });
    expect(promptGets(log).map((m) => m.params)).toEqual([
      { name: "review", arguments: { file: "src/app.ts", focus: "error handling" } },
    ]);
  });

  it("headless: a missing required argument is an error naming it; nothing reaches the model", async () => {
    const { flags, log } = fixture();
    const run = await h.agent("/mcp__fx__review focus=speed", flags);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "/mcp__fx__review needs the argument 'file' (The file to review). Usage: /mcp__fx__review <file> [focus]",
    );
    expect(h.server.requests).toHaveLength(0);
    expect(promptGets(log)).toHaveLength(0);
  });

  it("headless: an unknown prompt of a configured server is refused with the server's prompts", async () => {
    const { flags } = fixture();
    const run = await h.agent("/mcp__fx__nope", flags);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "MCP server 'fx' has no prompt /mcp__fx__nope. Its prompts: /mcp__fx__review <file> [focus]",
    );
    expect(h.server.requests).toHaveLength(0);
  });

  it("line mode: /help and /mcp list the prompts with their arguments; a prompt is sent as the user's turn", async () => {
    const { flags } = fixture();
    h.server.reply().text("explained");
    const input = [
      "/help",
      "/mcp",
      "/mcp__fx__review",
      "/mcp__fx__explain recursion audience=child",
      "/exit",
      "",
    ];
    const run = await runHx([...h.args(), ...flags], { env: KEYS, input: input.join("\n") });
    expect(run.code, run.stderr).toBe(0);
    // /help
    expect(run.stdout).toMatch(
      /\/mcp__fx__review <file> \[focus\]\s+Review a file with a focus\. \(MCP server fx\)/,
    );
    expect(run.stdout).toMatch(/\/mcp__fx__empty\s+Returns no messages\./);
    // /mcp
    expect(run.stdout).toContain("fx  ready: 6 tools");
    expect(run.stdout).toMatch(
      /Prompts \(type one as a command[^\n]*\n\s+\/mcp__fx__review <file> \[focus\]/,
    );
    // the missing argument is said at once; only the complete command reached the model
    expect(run.stdout).toContain("/mcp__fx__review needs the argument 'file' (The file to review).");
    expect(h.server.requests).toHaveLength(1);
    expect(lastUser(0)).toEqual({
      role: "user",
      content: [
        "User:\nExplain recursion to a child.",
        "Assistant:\nStart from what they know.",
        "User:\n[image: image/png, 11 B; hx passes text only, so the model does not see it]",
      ].join("\n\n"),
    });
    expect(run.stdout).toContain("explained");
  });

  it.skipIf(!TMUX_AVAILABLE)(
    "full screen: Tab completion offers the prompts with their argument hint",
    async () => {
      const { flags } = fixture();
      h.server.reply().text("on it");
      screen = startScreen([...h.args(), ...flags], { cwd: h.work, env: KEYS });
      const s = screen;
      await s.waitFor("/help for commands");
      await s.waitFor("sandbox"); // the status line says it once the session is open
      s.type("/mcp__fx__");
      const listed = await s.waitFor(/mcp__fx__explain\s+<topic> \[audience\] — Explain a topic/);
      expect(listed).toMatch(/mcp__fx__review\s+<file> \[focus\] — Review a file with a focus/);
      s.type("rev");
      s.keys("Tab");
      await s.waitFor((text) => text.includes("/mcp__fx__review") && !text.includes("Explain a topic"));
      s.type(" lib/x.ts");
      await s.waitFor("lib/x.ts");
      s.keys("Enter");
      await s.waitFor("on it");
      expect(lastUser(0)).toEqual({ role: "user", content: "Review lib/x.ts with a focus on everything." });
    },
  );
});
