// A hostile model server, both wires, in process: every fault ends in a clear ProviderError
// or a retry that sends the same valid request again.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/core/messages.js";
import type { ModelProvider, ProviderConfig } from "../../src/providers/provider.js";
import {
  anthropicProvider,
  completeRecording,
  expectProviderError,
  openaiProvider,
  request,
} from "../providers/helpers.js";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";

let server: FakeModelServer;
beforeEach(async () => {
  server = await startFakeModelServer();
});
afterEach(async () => {
  await server.close();
});

const wires = [
  {
    wire: "openai",
    make: (config: Partial<ProviderConfig> = {}) => openaiProvider(`${server.url}/v1`, { config }),
    endpoint: () => `${server.url}/v1`,
  },
  {
    wire: "anthropic",
    make: (config: Partial<ProviderConfig> = {}) => anthropicProvider(server.url, { config }),
    endpoint: () => server.url,
  },
] as const;

/** Every request the server saw carried the same body: a retry resends the request unchanged. */
function expectIdenticalRequests(count: number): void {
  expect(server.requests).toHaveLength(count);
  for (const later of server.requests.slice(1)) expect(later.body).toEqual(server.requests[0]!.body);
}

describe.each(wires)("$wire wire faults", ({ make, endpoint }) => {
  it("a retry-after beyond the cap ends the call at once, naming the wait", async () => {
    server.httpError(429, undefined, { "retry-after": "3600" });
    const retries: unknown[] = [];
    const error = await expectProviderError(await make(), request(), { onRetry: (r) => retries.push(r) });
    expect(error.kind).toBe("rate_limit");
    expect(error.message).toContain(`Rate limited by ${endpoint()} (HTTP 429`);
    expect(error.message).toContain("it asked to wait 1 h before trying again, longer than hx waits (1 min)");
    expect(error.hint).toBe("Try again later, or set HX_RETRY_MAX_WAIT_MS=3600000 to wait it out.");
    expect(retries).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("reads an HTTP-date retry-after and waits what it asks (within the cap)", async () => {
    server.httpError(503, undefined, { "retry-after": new Date(Date.now() + 1000).toUTCString() });
    server.reply().text("after the date");
    const { response, retries } = await completeRecording(await make(), request());
    expect(response.message.content).toBe("after the date");
    expect(retries).toHaveLength(1);
    expect(retries[0]!.reason).toBe("server error (HTTP 503)");
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(0);
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(1000);
    expectIdenticalRequests(2);
  });

  it("an HTTP-date retry-after far ahead ends the call, naming the wait", async () => {
    server.httpError(429, undefined, { "retry-after": new Date(Date.now() + 2 * 3600_000).toUTCString() });
    const error = await expectProviderError(await make());
    expect(error.message).toMatch(/it asked to wait (1 h 59 min|2 h) before trying again/);
  });

  it("names the server's wait when the retries run out", async () => {
    server.httpError(429, undefined, { "retry-after": "0" });
    const error = await expectProviderError(await make({ maxRetries: 0 }));
    expect(error.message).toContain("it asked to wait 0 ms before trying again.");
  });

  it("a stream that stalls after the headers is retried after the idle timeout", async () => {
    server.reply().text("never finished", { chunks: 4 }).stallAfter(2);
    server.reply().text("second try");
    const { response, retries } = await completeRecording(
      await make({ streamIdleTimeoutMs: 200 }),
      request(),
    );
    expect(response.message.content).toBe("second try");
    expect(retries.map((r) => r.reason)).toEqual(["the stream sent nothing for 200 ms"]);
    expectIdenticalRequests(2);
  });

  it("keep-alive comments count as signs of life: a slow start is not a stall", async () => {
    server.reply().text("worth the wait").keepAlive(6).delay(100);
    const { response, retries } = await completeRecording(
      await make({ streamIdleTimeoutMs: 350 }),
      request(),
    );
    expect(response.message.content).toBe("worth the wait");
    expect(retries).toEqual([]);
  });

  it("silence before the headers is retried after the request timeout", async () => {
    server.hang();
    server.reply().text("answered");
    const { response, retries } = await completeRecording(await make({ timeoutMs: 200 }), request());
    expect(response.message.content).toBe("answered");
    expect(retries.map((r) => r.reason)).toEqual(["no response within 200 ms"]);
  });

  it("a server that never sends the headers is waited on twice, not once per retry", async () => {
    for (let i = 0; i < 5; i += 1) server.hang();
    const error = await expectProviderError(await make({ timeoutMs: 200, maxRetries: 4 }));
    expect(error.kind).toBe("network");
    expect(error.message).toContain("did not begin to answer within 200 ms");
    expect(error.hint).toContain("HX_REQUEST_TIMEOUT_MS");
    expect(server.requests).toHaveLength(2);
  });

  it("a drop mid-answer is retried and the retry says what streamed text to discard", async () => {
    server.dropAfter(4).text("The first half and the rest", { chunks: 6 });
    server.reply().text("Whole answer");
    const { response, retries, deltas } = await completeRecording(await make(), request());
    expect(response.message.content).toBe("Whole answer");
    expect(retries).toHaveLength(1);
    const streamedBefore = deltas
      .slice(0, deltas.length - 3)
      .map((d) => d.text)
      .join("");
    expect(retries[0]!.discard).toEqual({ text: streamedBefore.length, reasoning: 0 });
    expect(retries[0]!.discard.text).toBeGreaterThan(0);
    expectIdenticalRequests(2);
  });

  it("malformed SSE is a protocol error naming the endpoint, not retried", async () => {
    server.reply().text("garbled", { chunks: 3 }).malformed(2);
    const error = await expectProviderError(await make());
    expect(error.kind).toBe("protocol");
    expect(error.message).toContain(`${endpoint()} answered in a form hx cannot read: a malformed event`);
    expect(error.message).not.toMatch(/dropped|network/);
    expect(error.hint).toContain("Check --base-url");
    expect(server.requests).toHaveLength(1);
  });

  it("JSON where a stream was expected is a protocol error", async () => {
    server.reply().text("a whole answer").asJson();
    const error = await expectProviderError(await make());
    expect(error.kind).toBe("protocol");
    expect(error.message).toContain("JSON where an event stream was expected (a whole answer");
  });

  it("an error sent as JSON with status 200 is quoted", async () => {
    server.raw(JSON.stringify({ error: { message: "model is loading" } }), {
      headers: { "content-type": "application/json" },
    });
    const error = await expectProviderError(await make());
    expect(error.message).toContain("JSON where an event stream was expected (error: model is loading)");
  });

  it("an HTML page with status 200 is a protocol error naming its title", async () => {
    server.html(200, "Sign in to the proxy");
    const error = await expectProviderError(await make());
    expect(error.kind).toBe("protocol");
    expect(error.message).toContain(
      'an HTML page titled "Sign in to the proxy" where an event stream was expected',
    );
  });

  it("an HTML error page with status 502 is a server error quoting its title, and retried", async () => {
    server.html(502, "502 Bad Gateway");
    server.html(502, "502 Bad Gateway");
    const { retries } = { retries: [] as string[] };
    const error = await expectProviderError(await make({ maxRetries: 1 }), request(), {
      onRetry: (r) => retries.push(r.reason),
    });
    expect(error.kind).toBe("server");
    expect(error.message).toContain('(HTTP 502: an HTML page titled "502 Bad Gateway")');
    expect(error.message).not.toContain("<html");
    expect(retries).toEqual(["server error (HTTP 502)"]);
  });

  it("a stream without any answer in it is retried, then reported", async () => {
    server.reply().noChoices();
    server.reply().noChoices();
    const error = await expectProviderError(await make({ maxRetries: 1 }));
    expect(error.kind).toBe("server");
    expect(error.message).toBe(`${endpoint()} sent an empty answer (the stream carried no answer).`);
    expectIdenticalRequests(2);
  });

  it("an empty answer (no text, no tool calls) is retried", async () => {
    server.reply();
    server.reply().text("now with words");
    const { response, retries } = await completeRecording(await make(), request());
    expect(response.message.content).toBe("now with words");
    expect(retries.map((r) => r.reason)).toEqual(["the answer was empty (no text and no tool calls)"]);
  });

  it("an answer that stays empty is asked for once more, then taken as it is", async () => {
    server.reply();
    server.reply();
    server.reply().text("never asked for");
    const { response, retries } = await completeRecording(await make({ maxRetries: 4 }), request());
    expect(response.message.content).toBe("");
    expect(response.message.toolCalls).toEqual([]);
    expect(retries).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it("a response over the size cap is aborted with a clear error", async () => {
    server
      .reply()
      .text("big")
      .padding(512 * 1024);
    const error = await expectProviderError(await make({ maxResponseBytes: 64 * 1024 }));
    expect(error.kind).toBe("protocol");
    expect(error.message).toBe(`The answer from ${endpoint()} passed 64 KiB; hx stopped reading it.`);
    expect(error.hint).toContain("HX_MAX_RESPONSE_BYTES (now 65536)");
    expect(server.requests).toHaveLength(1);
  });

  it("a padded body under the cap is read normally", async () => {
    server
      .reply()
      .text("fine")
      .padding(256 * 1024);
    const { response } = await completeRecording(await make(), request());
    expect(response.message.content).toBe("fine");
  });

  it("duplicate and reused tool-call ids become unique before the answer is returned", async () => {
    server
      .reply()
      .tool("read_file", { path: "a" }, { id: "dup" })
      .tool("read_file", { path: "b" }, { id: "dup" })
      .tool("read_file", { path: "c" }, { id: "earlier" });
    const history: Message[] = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "", toolCalls: [{ id: "earlier", name: "glob", arguments: "{}" }] },
      { role: "tool", toolCallId: "earlier", toolName: "glob", content: "x" },
    ];
    const { response } = await completeRecording(await make(), request(history));
    const ids = response.message.toolCalls.map((call) => call.id);
    expect(ids[0]).toBe("dup");
    expect(new Set([...ids, "earlier"]).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("Ctrl-C (abort) ends a retry wait at once", async () => {
    server.httpError(429, undefined, { "retry-after": "50" });
    const provider: ModelProvider = await make();
    const controller = new AbortController();
    const announced: number[] = [];
    const error = await expectProviderError(provider, request(), {
      signal: controller.signal,
      onRetry: (r) => {
        announced.push(r.delayMs);
        // Abort once the wait has begun (a test timeout, not a timing assertion, catches a hang).
        setTimeout(() => controller.abort(), 20);
      },
    });
    expect(announced).toEqual([50_000]);
    expect(error.kind).toBe("aborted");
    expect(server.requests).toHaveLength(1);
  });
});
