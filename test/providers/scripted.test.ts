import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/providers/provider.js";
import { createScriptedProvider, parseScript, ScriptedProvider } from "../../src/providers/scripted.js";
import { tempDir } from "../support/temp-dir.js";
import { completeRecording, expectProviderError, request } from "./helpers.js";

function writeScript(content: unknown): string {
  const dir = tempDir("hx-script-");
  const file = path.join(dir, "script.json");
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

describe("scripted provider", () => {
  it("replies in order, streams text, and gives tool calls deterministic ids", async () => {
    const file = writeScript({
      replies: [
        {
          reasoning: "I should look around first.",
          text: "Let me look at the folder contents.",
          toolCalls: [
            { name: "bash", arguments: { command: "ls" } },
            { name: "read", arguments: '{"path": broken' },
          ],
        },
        { text: "Done.", usage: { inputTokens: 7, outputTokens: 3 } },
      ],
    });
    const provider = await createScriptedProvider(file);
    const first = await completeRecording(provider, request());
    expect(first.response.message).toEqual({
      role: "assistant",
      content: "Let me look at the folder contents.",
      reasoning: { text: "I should look around first." },
      toolCalls: [
        { id: "call_1_1", name: "bash", arguments: '{"command":"ls"}' },
        { id: "call_1_2", name: "read", arguments: '{"path": broken' },
      ],
    });
    expect(first.response.stopReason).toBe("tool_calls");
    const text = first.deltas.filter((d) => d.type === "text");
    expect(text.length).toBeGreaterThan(1);
    expect(text.map((d) => d.text).join("")).toBe("Let me look at the folder contents.");
    expect(first.response.usage.inputTokens).toBeGreaterThan(0);
    expect(first.response.usage.outputTokens).toBe(Math.ceil((35 + 27 + 4 + 16 + 4 + 16) / 4));

    const second = await provider.complete(request());
    expect(second.message.content).toBe("Done.");
    expect(second.usage).toEqual({
      inputTokens: 7,
      outputTokens: 3,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });

  it("fails with a config error when the script runs out", async () => {
    const provider = new ScriptedProvider([{ text: "only one" }], { source: "test.json" });
    await provider.complete(request());
    const error = await expectProviderError(provider);
    expect(error.kind).toBe("config");
    expect(error.message).toContain("ran out");
    expect(error.message).toContain("model call 2");
  });

  it("checks `expect` against what the model was sent", async () => {
    const provider = new ScriptedProvider([{ expect: "secret word", text: "ok" }, { expect: "nope" }]);
    const ok = await provider.complete(request([{ role: "user", content: "the secret word is here" }]));
    expect(ok.message.content).toBe("ok");
    const error = await expectProviderError(provider, request([{ role: "user", content: "nothing" }]));
    expect(error.kind).toBe("config");
    expect(error.message).toContain('"nope"');
  });

  it("can script a failure", async () => {
    const provider = new ScriptedProvider([{ error: { kind: "rate_limit", message: "Slow down." } }]);
    const error = await expectProviderError(provider);
    expect(error).toMatchObject({ kind: "rate_limit", message: "Slow down." });
  });

  it("rejects malformed scripts with config errors naming the reply and the field", async () => {
    expect(() => parseScript("{not json", "bad.json")).toThrow(/not valid JSON/);
    expect(() => parseScript("{}", "bad.json")).toThrow(
      "The script bad.json is not valid: replies: must be a list of replies, got nothing.",
    );
    expect(() =>
      parseScript('{"replies":[{"text":"ok"},{"toolCalls":[{"arguments":{}}]}]}', "bad.json"),
    ).toThrow(
      "The script bad.json is not valid: Reply 2: toolCalls.0.name: must be a tool name, got nothing.",
    );
    expect(() => parseScript('{"replies":[{"txt":"hi","usage":{"inputTokens":"many"}}]}', "s.json")).toThrow(
      'Reply 1: usage.inputTokens: must be a whole number of tokens, got a string ("many"); Reply 1: unknown key "txt".',
    );
    expect(() => parseScript('{"replies":[{"error":{"kind":"oops","message":"x"}}]}', "s.json")).toThrow(
      /Reply 1: error\.kind: must be one of auth, rate_limit, .*config, got a string \("oops"\)/,
    );
    const missing = await createScriptedProvider("/nonexistent/hx-script.json").catch((e) => e);
    expect(missing).toBeInstanceOf(ProviderError);
    expect(missing.kind).toBe("config");
    expect(missing.message).toBe("Cannot read the script /nonexistent/hx-script.json: it does not exist.");
  });

  it("keeps every request, takes computed replies and thrown errors, and can be extended", async () => {
    const provider = new ScriptedProvider([(req) => ({ text: `saw ${req.messages.length}` })]);
    provider.push({ error: new ProviderError("server", "boom", undefined, 503) });
    const messages: Parameters<typeof request>[0] = [{ role: "user", content: "hi" }];
    const first = await provider.complete(request(messages));
    expect(first.message.content).toBe("saw 1");
    messages.push({ role: "user", content: "changed later" });
    expect(provider.sent(0)).toEqual([{ role: "user", content: "hi" }]);
    const error = await expectProviderError(provider);
    expect(error).toMatchObject({ kind: "server", message: "boom", status: 503 });
    expect(provider.requests).toHaveLength(2);
  });

  it("honours cancellation", async () => {
    const provider = new ScriptedProvider([{ text: "x" }]);
    const controller = new AbortController();
    controller.abort();
    const error = await expectProviderError(provider, request(), { signal: controller.signal });
    expect(error.kind).toBe("aborted");
  });
});
