// The real hx binary against a hostile model server: each fault ends with a clear message and
// a sensible exit code, and every request sent after it is valid.
import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { HX_BIN, hxEnv, runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import {
  ANTHROPIC_KEY,
  anthropicArgs,
  BYPASS,
  OPENAI_KEY,
  openaiArgs,
  requestProblems,
  waitFor,
} from "../support/wire.js";

let server: FakeModelServer;
let work: string;
beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-faults-");
});
afterEach(async () => {
  await server.close();
});

const wires = [
  {
    wire: "openai",
    args: () => openaiArgs(server, work),
    env: OPENAI_KEY,
    keyEnv: "OPENAI_API_KEY",
    endpoint: () => `${server.url}/v1`,
  },
  {
    wire: "anthropic",
    args: () => anthropicArgs(server, work),
    env: ANTHROPIC_KEY,
    keyEnv: "ANTHROPIC_API_KEY",
    endpoint: () => server.url,
  },
] as const;

function expectValidRequests(): void {
  for (const request of server.requests) expect(requestProblems(request)).toEqual([]);
}

describe.each(wires)("hx agent, $wire wire", ({ args, env, keyEnv, endpoint }) => {
  // The bundle is minified without keepNames: errors are still told apart (instanceof).
  it("names the cause and the fix for a 401, a lasting 429 and an unreachable server", async () => {
    server.httpError(401);
    const auth = await runHx(["agent", "hi", ...args()], { env });
    expect(auth.code).toBe(1);
    expect(auth.stderr).toContain(`hx: API key rejected by ${endpoint()} (HTTP 401`);
    expect(auth.stderr).toContain(`Check ${keyEnv}: it must hold a valid key for this endpoint.`);

    server.httpError(429);
    const limited = await runHx(["agent", "hi", ...args()], { env: { ...env, HX_MAX_RETRIES: "0" } });
    expect(limited.code).toBe(1);
    expect(limited.stderr).toContain(`hx: Rate limited by ${endpoint()} (HTTP 429`);
    expect(limited.stderr).toContain("Wait a moment and try again, or raise HX_MAX_RETRIES (now 0).");

    const closed = await startFakeModelServer();
    await closed.close();
    const unreachableArgs = args().map((arg) => arg.replace(server.url, closed.url));
    const down = await runHx(["agent", "hi", ...unreachableArgs], { env: { ...env, HX_MAX_RETRIES: "1" } });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/retrying in \d+\.\ds \(attempt 1\): could not connect \(ECONNREFUSED\)/);
    expect(down.stderr).toContain(`hx: Could not reach ${closed.url}`);
    expect(down.stderr).toContain("(ECONNREFUSED).");
    expect(down.stderr).toContain(
      "Check the network and --base-url; for a local server, check that it is running.",
    );
  });

  it("retry-after: 3600 ends within seconds, naming the wait; exit 1", async () => {
    server.httpError(429, undefined, { "retry-after": "3600" });
    const run = await runHx(["agent", "hi", ...args()], { env, timeoutMs: 15_000 });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`hx: Rate limited by ${endpoint()} (HTTP 429`);
    expect(run.stderr).toContain("it asked to wait 1 h before trying again, longer than hx waits (1 min).");
    expect(run.stderr).toContain("Try again later, or set HX_RETRY_MAX_WAIT_MS=3600000 to wait it out.");
    expect(run.stderr).not.toContain("retrying");
    expect(server.requests).toHaveLength(1);
  });

  it("a stream that stalls is retried after HX_STREAM_IDLE_TIMEOUT_MS", async () => {
    server.reply().text("stuck half", { chunks: 4 }).stallAfter(3);
    server.reply().text("second try");
    const run = await runHx(["agent", "hi", ...args()], {
      env: { ...env, HX_STREAM_IDLE_TIMEOUT_MS: "300" },
    });
    expect(run.stdout).toBe("second try\n");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/retrying in \d+\.\ds \(attempt 1\): the stream sent nothing for 300 ms/);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
  });

  it("malformed SSE is a protocol error naming the endpoint, without the SDK's raw lines", async () => {
    server.reply().text("garbled").malformed(2);
    const run = await runHx(["agent", "hi", ...args()], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`hx: ${endpoint()} answered in a form hx cannot read: a malformed event`);
    expect(run.stderr).toContain("Check --base-url");
    expect(run.stderr).not.toMatch(/Could not parse message|From chunk|check the network|dropped/i);
  });

  it("duplicate tool-call ids are made unique; each call is answered exactly once", async () => {
    server
      .reply()
      .tool("glob", { pattern: "*.md" }, { id: "dup" })
      .tool("glob", { pattern: "*.ts" }, { id: "dup" });
    server.reply().tool("glob", { pattern: "*.js" }, { id: "dup" });
    server.reply().text("done");
    const run = await runHx(["agent", "look", ...args(), ...BYPASS], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");
    expect(server.requests).toHaveLength(3);
    expectValidRequests();
  });

  it("a drop in the middle of a tool call is retried; the request after it is valid", async () => {
    server.dropAfter(3).tool("glob", { pattern: "*.md" }, { chunks: 6 });
    server.reply().tool("glob", { pattern: "*.md" });
    server.reply().text("found them");
    const run = await runHx(["agent", "look", ...args(), ...BYPASS], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("found them\n");
    expect(server.requests).toHaveLength(3);
    expectValidRequests();
  });

  it("an answer cut by the output limit warns; json says stop: length; exit 0", async () => {
    server.reply().text("The list goes on and").stop("length");
    server.reply().text("The list goes on and").stop("length");
    const text = await runHx(["agent", "list", ...args()], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe("The list goes on and\n");
    expect(text.stderr).toContain(
      "warning: the answer was cut off at the model's output limit; it is incomplete.",
    );
    const json = await runHx(["agent", "list", ...args(), "--output-format", "json"], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ result: "The list goes on and", stop: "length" });
    expect(json.stderr).toContain("the answer was cut off at the model's output limit");
  });
});

describe("hx agent faults (one wire is enough)", () => {
  it("stream-json tells consumers to discard the partial answer after a retry", async () => {
    server.dropAfter(4).text("A partial answer that breaks", { chunks: 6 });
    server.reply().text("The whole answer", { chunks: 2 });
    const run = await runHx(["agent", "hi", ...openaiArgs(server, work), "--output-format", "stream-json"], {
      env: OPENAI_KEY,
    });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const retryAt = events.findIndex((event) => event.type === "retry");
    expect(retryAt).toBeGreaterThan(0);
    const before = events.slice(0, retryAt).filter((event) => event.type === "text_delta");
    const after = events.slice(retryAt).filter((event) => event.type === "text_delta");
    const discarded = before.map((event) => event.text).join("");
    expect(events[retryAt]).toMatchObject({ discard: { text: discarded.length, reasoning: 0 } });
    expect(discarded.length).toBeGreaterThan(0);
    expect(after.map((event) => event.text).join("")).toBe("The whole answer");
    expect(events.at(-1)).toMatchObject({ type: "result", result: "The whole answer", stop: "done" });
  });

  it("Ctrl-C (SIGINT) ends a retry wait at once", async () => {
    server.httpError(429, undefined, { "retry-after": "50" });
    const child = spawn(process.execPath, [HX_BIN, "agent", "hi", ...openaiArgs(server, work)], {
      env: hxEnv(OPENAI_KEY),
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    await waitFor(() => stderr.includes("retrying in 50.0s"), "the retry notice");
    child.kill("SIGINT");
    // Without an abortable wait the child would sleep 50 s; the test's timeout catches that.
    expect(await closed).toBe(130);
    expect(stderr).toContain("hx: cancelled.");
    expect(server.requests).toHaveLength(1);
  });

  it("bad or huge timeout and retry variables are usage errors, never an overflow", async () => {
    for (const [name, value] of [
      ["HX_REQUEST_TIMEOUT_MS", "99999999999"],
      ["HX_STREAM_IDLE_TIMEOUT_MS", "0"],
      ["HX_RETRY_MAX_WAIT_MS", "1e3"],
      ["HX_MAX_RETRIES", "1000"],
    ] as const) {
      const run = await runHx(["agent", "hi", ...openaiArgs(server, work)], {
        env: { ...OPENAI_KEY, [name]: value },
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(`${name} must be a whole number from \\d+ to \\d+ \\(got '${value}'\\)`),
      );
    }
    expect(server.requests).toHaveLength(0);
  });
});
