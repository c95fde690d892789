// The headless contract (docs/headless.md) through the built binary and the fake model server:
// the json result object, stream-json's init and result lines, --output-schema, budgets,
// --no-session-persistence and signals.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { HX_BIN, hxEnv, runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

let server: FakeModelServer;
let work: string;
let home: string;

beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-headless-");
  home = tempDir("hx-headless-home-");
});
afterEach(async () => {
  await server.close();
});

const openai = (model = "test-model") => [
  "--provider",
  "openai",
  "--base-url",
  `${server.url}/v1`,
  "--model",
  model,
  "-C",
  work,
];
const env = () => ({ OPENAI_API_KEY: "sk-test", HOME: home });
const bypass = ["--permission-mode", "bypassPermissions"];

function sessionFiles(): string[] {
  const root = path.join(home, ".hx", "sessions");
  if (!existsSync(root)) return [];
  // hx's own transcripts; the Claude-shaped mirror for hooks lives in claude/.
  return readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
    (f) => f.endsWith(".jsonl") && !f.split(path.sep).includes("claude"),
  );
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary output fields.
function jsonLines(stdout: string): Array<Record<string, any>> {
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("--output-format json", () => {
  it("prints Claude Code's result object with hx's fields beside it", async () => {
    server.reply().tool("bash", { command: "echo hi > made.txt" }, { id: "call_denied" });
    server.reply().text("could not write").usage({ input: 50, output: 7, cached: 20 });
    const run = await runHx(["agent", "write it", "--output-format", "json", ...openai()], { env: env() });
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      num_turns: 2,
      result: "could not write",
      total_cost_usd: null,
      permission_denials: [
        { tool_name: "bash", tool_use_id: "call_denied", tool_input: { command: "echo hi > made.txt" } },
      ],
      stop: "done",
      model: "test-model",
      provider: "openai",
      tool_calls: 1,
      blocked: 1,
      session_persisted: true,
    });
    expect(out.usage).toEqual({
      input_tokens: 10 + 30,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 20,
      output_tokens: 5 + 7,
      total_input_tokens: 60,
      reasoning_tokens: 0,
    });
    expect(out.duration_ms).toBeGreaterThanOrEqual(out.duration_api_ms);
    expect(out.duration_api_ms).toBeGreaterThan(0);
    // The session id names the saved session: a script can resume it.
    expect(sessionFiles().some((file) => file.includes(out.session_id))).toBe(true);
    server.reply().text("resumed");
    const again = await runHx(
      ["agent", "go on", "--output-format", "json", "--resume", out.session_id, ...openai()],
      { env: env() },
    );
    expect(JSON.parse(again.stdout)).toMatchObject({ session_id: out.session_id, result: "resumed" });
    expect(server.requests.at(-1)!.body.messages.length).toBeGreaterThan(3);
  });

  it("prices the run from the price table", async () => {
    server.reply().text("priced").usage({ input: 1_000_000, output: 100_000, cached: 0 });
    const run = await runHx(["agent", "hi", "--output-format", "json", ...openai("gpt-4o")], { env: env() });
    const out = JSON.parse(run.stdout);
    expect(out.total_cost_usd).toBeCloseTo(2.5 + 1, 6);
  });

  it("says error_max_turns when the turn limit ends the run", async () => {
    for (let i = 0; i < 2; i++) server.reply().tool("glob", { pattern: "*" });
    const run = await runHx(["agent", "loop", "--max-turns", "2", "--output-format", "json", ...openai()], {
      env: env(),
    });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      subtype: "error_max_turns",
      is_error: true,
      num_turns: 2,
    });
  });
});

describe("--output-format stream-json", () => {
  it("starts with system/init and ends with the same result object", async () => {
    server.reply().tool("glob", { pattern: "*" });
    server.reply().text("streamed answer", { chunks: 3 });
    const run = await runHx(["agent", "go", "--output-format", "stream-json", ...openai()], { env: env() });
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    const init = events[0]!;
    expect(init).toMatchObject({
      type: "system",
      subtype: "init",
      cwd: work,
      model: "test-model",
      provider: "openai",
      mcp_servers: [],
      permissionMode: "default",
    });
    expect(init.tools).toEqual(expect.arrayContaining(["bash", "read_file", "glob"]));
    expect(Array.isArray(init.skills)).toBe(true);
    expect(init.slash_commands).toContain("resume");
    const last = events.at(-1)!;
    expect(last).toMatchObject({
      type: "result",
      subtype: "success",
      session_id: init.session_id,
      result: "streamed answer",
      num_turns: 2,
    });
    expect(events.filter((e) => e.type === "result")).toHaveLength(1);
  });
});

describe("--output-schema", () => {
  const schema = {
    type: "object",
    properties: { verdict: { type: "string", enum: ["approve", "reject"] }, issues: { type: "integer" } },
    required: ["verdict", "issues"],
    additionalProperties: false,
  };
  const writeSchema = () => {
    writeFileSync(path.join(work, "schema.json"), JSON.stringify(schema));
    return ["--output-schema", "schema.json"];
  };

  it("tells the model, re-asks once on a mismatch, and puts the parsed object in the result", async () => {
    server.reply().text("Looks good to me!");
    server.reply().text('```json\n{"verdict": "approve", "issues": 0}\n```');
    const run = await runHx(["agent", "review", "--output-format", "json", ...writeSchema(), ...openai()], {
      env: env(),
    });
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ subtype: "success", structured_output: { verdict: "approve", issues: 0 } });
    expect(JSON.stringify(server.requests[0]!.body.messages[0])).toContain(
      '\\"enum\\":[\\"approve\\",\\"reject\\"]',
    );
    const reask = server.requests[1]!.body.messages.at(-1);
    expect(reask.role).toBe("user");
    expect(reask.content).toContain("does not match the required JSON Schema");
    expect(server.requests).toHaveLength(2);
  });

  it("exits 1 with the validation error when the second answer does not fit either", async () => {
    server.reply().text('{"verdict": "maybe"}');
    server.reply().text('{"verdict": "maybe", "issues": 2}');
    const run = await runHx(["agent", "review", "--output-format", "json", ...writeSchema(), ...openai()], {
      env: env(),
    });
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ subtype: "error_max_structured_output_retries", is_error: true });
    expect(out.structured_output_error).toContain("verdict");
    expect(out.structured_output).toBeUndefined();
    expect(run.stderr).toContain("hx: the final answer does not match --output-schema: verdict");
    expect(server.requests).toHaveLength(2);
  });

  it("refuses a schema file that is not JSON (exit 2)", async () => {
    writeFileSync(path.join(work, "bad.json"), "{ nope");
    const run = await runHx(["agent", "x", "--output-schema", "bad.json", ...openai()], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--output-schema: 'bad.json' is not JSON");
    expect(server.requests).toHaveLength(0);
  });
});

describe("budgets", () => {
  it("--max-budget-tokens stops before the next request: its own subtype, exit 3", async () => {
    server.reply().tool("glob", { pattern: "*" }).usage({ input: 80, output: 30 });
    server.reply().text("never sent");
    const run = await runHx(
      ["agent", "go", "--max-budget-tokens", "100", "--output-format", "json", ...openai()],
      { env: env() },
    );
    expect(run.code).toBe(3);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({
      subtype: "error_max_budget_tokens",
      is_error: true,
      budget: { kind: "tokens", limit: 100, spent: 110 },
    });
    expect(server.requests).toHaveLength(1);
    expect(run.stderr).toContain("Stopped at the budget of 100 tokens");
  });

  it("--max-budget-usd stops at the dollar budget (error_max_budget_usd, exit 3)", async () => {
    server.reply().tool("glob", { pattern: "*" }).usage({ input: 40_000, output: 0 });
    server.reply().text("never sent");
    const run = await runHx(
      ["agent", "go", "--max-budget-usd", "0.1", "--output-format", "json", ...openai("gpt-4o")],
      { env: env() },
    );
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({
      subtype: "error_max_budget_usd",
      total_cost_usd: 0.1,
      budget: { kind: "usd", limit: 0.1 },
    });
    expect(server.requests).toHaveLength(1);
  });

  it("--max-budget-usd refuses a model whose price is unknown (exit 2, nothing sent)", async () => {
    const run = await runHx(["agent", "go", "--max-budget-usd", "1", ...openai()], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("the price of model 'test-model' is unknown");
    expect(server.requests).toHaveLength(0);
  });
});

describe("--no-session-persistence", () => {
  it("writes no file under the session folder (and --ephemeral is the same)", async () => {
    for (const flag of ["--no-session-persistence", "--ephemeral"]) {
      server.reply().tool("bash", { command: "echo ok" });
      server.reply().text("done");
      const run = await runHx(["agent", "go", flag, "--output-format", "json", ...bypass, ...openai()], {
        env: env(),
      });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ result: "done", session_persisted: false });
      expect(existsSync(path.join(home, ".hx", "sessions"))).toBe(false);
    }
    server.reply().text("saved");
    await runHx(["agent", "go", ...openai()], { env: env() });
    expect(sessionFiles()).toHaveLength(1);
  });

  it("is refused with --continue", async () => {
    const run = await runHx(["agent", "go", "--ephemeral", "--continue", ...openai()], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("cannot continue a saved one");
  });
});

describe("signals in headless runs", () => {
  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`${signal}: ends the running command's process group, completes the transcript, exit ${code}`, async () => {
      const marker = path.join(work, "started");
      server
        .reply()
        .tool(
          "bash",
          { command: `echo $$ > ${marker}; sleep 30; echo late > late.txt` },
          { id: "call_long" },
        );
      const child = spawn(
        process.execPath,
        [HX_BIN, "agent", "wait", "--output-format", "json", "--sandbox", "off", ...bypass, ...openai()],
        { env: hxEnv(env()) },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => {
        stdout += d;
      });
      child.stderr.on("data", (d) => {
        stderr += d;
      });
      while (!existsSync(marker) || readFileSync(marker, "utf8").trim() === "") {
        await new Promise((r) => setTimeout(r, 20));
      }
      const shellPid = Number(readFileSync(marker, "utf8").trim());
      child.kill(signal);
      const exit = await new Promise((resolve) => child.on("close", resolve));
      expect(exit, stderr).toBe(code);
      const out = JSON.parse(stdout);
      expect(out).toMatchObject({
        type: "result",
        subtype: "error_during_execution",
        interrupted: true,
        signal,
      });
      expect(() => process.kill(shellPid, 0)).toThrow();
      expect(existsSync(path.join(work, "late.txt"))).toBe(false);
      // The transcript holds the call and its (cancelled) result.
      const [file] = sessionFiles();
      const lines = readFileSync(path.join(home, ".hx", "sessions", file!), "utf8")
        .trim()
        .split("\n");
      const messages = lines.map((l) => JSON.parse(l)).filter((e) => e.type === "message");
      const result = messages.find((e) => e.message.role === "tool" && e.message.toolCallId === "call_long");
      expect(result, lines.join("\n")).toBeDefined();
    });
  }
});
