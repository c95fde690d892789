// End to end: the real built `hx` against the fake model server on 127.0.0.1.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { HX_BIN, hxEnv, REPO_ROOT, runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

let server: FakeModelServer;
let work: string;

beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-e2e-");
});
afterEach(async () => {
  await server.close();
});

const openai = () => [
  "--provider",
  "openai",
  "--base-url",
  `${server.url}/v1`,
  "--model",
  "test-model",
  "-C",
  work,
];
const keys = { OPENAI_API_KEY: "sk-test" };
/** Tests that write and run commands headless say so, as a user would in a script. */
const bypass = ["--permission-mode", "bypassPermissions"];

describe("hx basics", () => {
  it("prints help and version, exit 0", async () => {
    const help = await runHx(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("agent [options] [task...]");
    const version = await runHx(["--version"]);
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
    expect(version.stdout.trim()).toBe(pkg.version);
  });

  it("stops quietly when its output pipe closes early (hx --help | head -1)", async () => {
    const child = spawn(process.execPath, [HX_BIN, "--help"], { env: hxEnv() });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.stdout.destroy(); // the reader is gone before hx writes a byte
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(code).toBe(0);
  });

  it("exits 2 on usage errors with one line naming the problem", async () => {
    const noTask = await runHx(["agent"]);
    expect(noTask.code).toBe(2);
    expect(noTask.stderr.trim()).toBe(
      'hx: missing task: hx agent "<task>", or pipe it: echo "<task>" | hx agent -',
    );
    const badTurns = await runHx(["agent", "x", "--max-turns", "zero", ...openai()], { env: keys });
    expect(badTurns.code).toBe(2);
    expect(badTurns.stderr.trim()).toBe("hx: --max-turns must be a positive whole number (got 'zero').");
    const badCwd = await runHx(["agent", "x", "-C", path.join(work, "missing")]);
    expect(badCwd.code).toBe(2);
    const badProvider = await runHx(["agent", "x", "--provider", "gemini"], { env: keys });
    expect(badProvider.code).toBe(2);
    expect(badProvider.stderr.trim()).toBe(
      "hx: --provider must be one of deepseek, openai, anthropic, scripted (got 'gemini').",
    );
    const badEnvProvider = await runHx(["agent", "x"], { env: { ...keys, HX_PROVIDER: "gemini" } });
    expect(badEnvProvider.code).toBe(2);
    expect(badEnvProvider.stderr).toContain("HX_PROVIDER must be one of");
  });

  it("names the missing key variable in one line, exit 1, no stack trace", async () => {
    const run = await runHx(["agent", "hello", "-C", work]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^hx: DEEPSEEK_API_KEY is not set\.\n/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(server.requests).toHaveLength(0);
  });
});

describe("hx agent against an OpenAI-compatible server", () => {
  it("writes files, runs commands and answers; the trace and stats go to stderr", async () => {
    server
      .reply()
      .text("Writing it.")
      .tool("write_file", { path: "notes/a.txt", content: "alpha\n" }, { chunks: 4 })
      .tool("bash", { command: "cat notes/a.txt" });
    server.reply().text("All done: alpha.");
    mkdirSync(path.join(work, ".hx"));
    writeFileSync(
      path.join(work, ".hx/settings.json"),
      JSON.stringify({ permissions: { allow: ["bash(cat *)"] } }),
    );
    const run = await runHx(["agent", "make", "a", "note", "--permission-mode", "acceptEdits", ...openai()], {
      env: keys,
    });

    expect(run.stderr).toContain("> write_file path=notes/a.txt content=alpha");
    expect(run.stderr).toContain('> bash command="cat notes/a.txt"');
    expect(run.stderr).toMatch(/turns=2 tool_calls=2 blocked=0 tokens: input=\d+ cached=\d+ output=\d+/);
    expect(run.stdout).toBe("All done: alpha.\n");
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(work, "notes/a.txt"), "utf8")).toBe("alpha\n");

    const [first, second] = server.requests;
    expect(first.body.model).toBe("test-model");
    expect(first.body.messages[0].role).toBe("system");
    expect(first.body.messages[1]).toEqual({ role: "user", content: "make a note" });
    expect(first.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(
      expect.arrayContaining(["bash", "read_file", "write_file", "edit_file", "glob", "grep"]),
    );
    const toolMessages = second.body.messages.filter((m: { role: string }) => m.role === "tool");
    expect(toolMessages).toHaveLength(2);
    expect(toolMessages[1].content).toContain("alpha");
    expect(second.body.messages[0]).toEqual(first.body.messages[0]);
  });

  it("denies a write at once when nobody can be asked, and says how to allow it", async () => {
    server
      .reply()
      .tool("write_file", { path: "x.txt", content: "x" })
      .tool("bash", { command: "touch y.txt" });
    server.reply().text("could not write");
    const run = await runHx(["agent", "write", ...openai()], { env: keys, timeoutMs: 10_000 });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/turns=2 tool_calls=2 blocked=2/);
    expect(existsSync(path.join(work, "x.txt"))).toBe(false);
    expect(existsSync(path.join(work, "y.txt"))).toBe(false);
    const results = server.requests[1].body.messages.filter((m: { role: string }) => m.role === "tool");
    expect(results[0].content).toMatch(/^Permission denied: /);
    expect(results[0].content).toMatch(/permission-mode|settings/);
  });

  it("survives bad tool input and a path outside the workspace; the model reads each error", async () => {
    server
      .reply()
      .tool("read_file", '{"path": ')
      .tool("no_such_tool", {})
      .tool("edit_file", { path: "x.txt" })
      .tool("read_file", { path: "../../etc/passwd" });
    server.reply().text("recovered");
    const run = await runHx(["agent", "try", ...openai()], { env: keys });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("recovered\n");
    const results = server.requests[1].body.messages.filter((m: { role: string }) => m.role === "tool");
    expect(results.map((m: { content: string }) => m.content.split("\n")[0])).toEqual([
      expect.stringMatching(/^Error: the arguments for read_file are not valid JSON/),
      expect.stringMatching(/^Error: Unknown tool 'no_such_tool'\. Available tools: bash, read_file/),
      expect.stringMatching(/^Error: invalid arguments for edit_file/),
      expect.stringMatching(/outside the workspace/),
    ]);
  });

  it("retries a 429 and a dropped stream, then answers", async () => {
    server.httpError(429, { error: { message: "slow down" } }, { "retry-after-ms": "20" });
    server.dropAfter(2).text("this stream breaks", { chunks: 5 });
    server.reply().text("made it");
    const run = await runHx(["agent", "hi", ...openai()], { env: keys });
    expect(run.stdout).toBe("made it\n");
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(3);
    expect(run.stderr).toMatch(/retrying/);
  });

  it("gives up on a server that keeps failing with a clear message, exit 1", async () => {
    for (let i = 0; i < 4; i++) server.httpError(500, { error: { message: "internal trouble" } });
    const run = await runHx(["agent", "hi", ...openai()], { env: keys });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/hx: .*internal trouble/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("names an unreachable server and the fix when nothing listens at --base-url", async () => {
    const closed = await startFakeModelServer();
    const url = closed.url;
    await closed.close();
    const run = await runHx(["agent", "hi", "--provider", "openai", "--base-url", `${url}/v1`, "-C", work], {
      env: { ...keys, HX_MAX_RETRIES: "0" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`hx: Could not reach ${url}/v1`);
    expect(run.stderr).toContain(
      "Check the network and --base-url; for a local server, check that it is running.",
    );
  });

  it("Ctrl-C (SIGINT) cancels the run cleanly: exit 130, stats still printed", async () => {
    server.hang();
    const child = spawn(process.execPath, [HX_BIN, "agent", "wait", ...openai()], { env: hxEnv(keys) });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGINT");
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(130);
    expect(stderr).toContain("hx: cancelled.");
    expect(stderr).toMatch(/turns=1 tool_calls=0 blocked=0/);
  });

  it("ends a runaway loop at --max-turns with a clear message", async () => {
    for (let i = 0; i < 3; i++) server.reply().tool("glob", { pattern: "*" });
    const run = await runHx(["agent", "loop", "--max-turns", "2", ...openai()], { env: keys });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("hx: Stopped after 2 turns without a final answer.");
    expect(run.stderr).toContain("--max-turns");
    expect(server.requests).toHaveLength(2);
  });

  it("prints one JSON object with --output-format json", async () => {
    server.reply().tool("glob", { pattern: "*.md" });
    server.reply().text("no markdown").usage({ input: 50, output: 7, cached: 20 });
    const run = await runHx(["agent", "list", "--output-format", "json", ...openai()], { env: keys });
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ result: "no markdown", turns: 2, tool_calls: 1, blocked: 0, stop: "done" });
    expect(out.usage.output_tokens).toBe(5 + 7);
    expect(out.usage.cache_read_input_tokens).toBe(20);
  });

  it("streams one JSON event per line with --output-format stream-json", async () => {
    server.reply().tool("glob", { pattern: "*" });
    server.reply().text("streamed answer", { chunks: 3 });
    const run = await runHx(["agent", "go", "--output-format", "stream-json", ...openai()], { env: keys });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const types = events.map((e) => e.type);
    expect(types).toContain("tool_call");
    expect(types).toContain("tool_result");
    expect(
      events
        .filter((e) => e.type === "text_delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("streamed answer");
    expect(events.at(-1)).toMatchObject({
      type: "result",
      result: "streamed answer",
      turns: 2,
      tool_calls: 1,
    });
  });
});

describe("hx agent with other providers", () => {
  it("DeepSeek: sends thinking, shows reasoning, and sends reasoning back after tool calls", async () => {
    server.reply().reasoning("I should list files.").tool("glob", { pattern: "*" });
    server.reply().reasoning("Now answer.").text("nothing here");
    const run = await runHx(
      ["agent", "look", "--provider", "deepseek", "--base-url", server.url, "-C", work, "-v"],
      {
        env: { DEEPSEEK_API_KEY: "sk-ds" },
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("nothing here\n");
    expect(run.stderr).toContain("I should list files.");
    const [first, second] = server.requests;
    expect(first.body.model).toBe("deepseek-flash");
    expect(first.body.thinking).toEqual({ type: "enabled" });
    const assistant = second.body.messages.find((m: { role: string }) => m.role === "assistant");
    expect(assistant.reasoning_content).toBe("I should list files.");
  });

  it("Anthropic: runs a tool loop through the Messages API", async () => {
    server.reply().tool("write_file", { path: "b.txt", content: "beta" });
    server.reply().text("wrote b");
    const run = await runHx(
      [
        "agent",
        "write",
        ...bypass,
        "--provider",
        "anthropic",
        "--base-url",
        server.url,
        "--model",
        "claude-test",
        "-C",
        work,
      ],
      { env: { ANTHROPIC_API_KEY: "sk-ant" } },
    );
    expect(run.stdout).toBe("wrote b\n");
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(work, "b.txt"), "utf8")).toBe("beta");
    expect(server.requests[0].path).toBe("/v1/messages");
    const last = server.requests[1].body.messages.at(-1);
    expect(last.role).toBe("user");
    expect(last.content[0].type).toBe("tool_result");
  });

  it("a command that times out says so in the trace, not only its output so far", async () => {
    server.reply().tool("bash", { command: "echo started; sleep 30", timeout: 1 });
    server.reply().text("done");
    const run = await runHx(["agent", "go", ...openai(), ...bypass], { env: keys });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("  Error: the command timed out after 1 s");
    const result = server.requests[1].body.messages.at(-1).content;
    expect(result).toMatch(/^Error: the command timed out after 1 s.*\n\nstarted$/s);
  });

  it("scripted: runs offline from a script file (the README demo)", async () => {
    const run = await runHx(
      [
        "agent",
        "demo",
        "--permission-mode",
        "acceptEdits",
        "--provider",
        "scripted",
        "--script",
        path.join(REPO_ROOT, "examples/offline-demo.json"),
      ],
      { cwd: work },
    );
    expect(run.stderr).toContain("> write_file path=hello.txt");
    expect(run.stdout).toBe("Created hello.txt and checked its content.\n");
    expect(run.code).toBe(0);
    expect(existsSync(path.join(work, "hello.txt"))).toBe(true);
  });
});

describe("task from stdin", () => {
  it("reads the task from a pipe when it is '-' or missing", async () => {
    server.reply().text("one");
    server.reply().text("two");
    const dash = await runHx(["agent", "-", ...openai()], { env: keys, input: "summarise the repo\n" });
    const none = await runHx(["agent", ...openai()], { env: keys, input: "list the files" });
    expect([dash.code, none.code]).toEqual([0, 0]);
    expect(server.requests.map((r) => r.body.messages[1].content)).toEqual([
      "summarise the repo",
      "list the files",
    ]);
  });
});

describe("project instructions", () => {
  it("puts AGENTS.md in the system prompt of every request", async () => {
    writeFileSync(path.join(work, "AGENTS.md"), "Always run npm test before answering.\n");
    server.reply().tool("glob", { pattern: "*" });
    server.reply().text("ok");
    const run = await runHx(["agent", "hi", ...openai()], { env: keys });
    expect(run.code).toBe(0);
    for (const request of server.requests) {
      expect(request.body.messages[0].content).toContain(
        "# Project instructions\n## AGENTS.md\nAlways run npm test before answering.",
      );
    }
  });
});

describe("settings files", () => {
  it("reads provider and model from .hx/settings.json; flags still win", async () => {
    const dir = path.join(work, ".hx");
    mkdirSync(dir);
    writeFileSync(
      path.join(dir, "settings.json"),
      JSON.stringify({ provider: "openai", model: "from-settings", baseURL: `${server.url}/v1` }),
    );
    server.reply().text("one");
    server.reply().text("two");
    // baseURL (where the key is sent) applies from a trusted folder only.
    await runHx(["agent", "a", "-C", work, "--trust"], { env: keys });
    await runHx(["agent", "b", "-C", work, "--trust", "--model", "from-flag"], { env: keys });
    expect(server.requests.map((r) => r.body.model)).toEqual(["from-settings", "from-flag"]);
  });
});
