import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/providers/provider.js";
import { createProvider, providerDefaults, providerNames } from "../../src/providers/registry.js";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { tempDir } from "../support/temp-dir.js";
import { completeRecording, expectProviderError, request, testConfig } from "./helpers.js";

let server: FakeModelServer;
beforeEach(async () => {
  server = await startFakeModelServer();
});
afterEach(async () => {
  await server.close();
});

async function createError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error("expected createProvider to fail");
}

describe("provider registry", () => {
  it("lists the providers and their defaults", () => {
    expect(providerNames()).toEqual(["deepseek", "openai", "anthropic", "scripted"]);
    expect(providerDefaults("deepseek")).toEqual({
      name: "deepseek",
      api: "openai-chat",
      baseURL: "https://api.deepseek.com",
      keyEnv: "DEEPSEEK_API_KEY",
      model: "deepseek-flash",
      thinking: true,
    });
    expect(providerDefaults("anthropic").keyEnv).toBe("ANTHROPIC_API_KEY");
    expect(providerDefaults("openai").baseURL).toBe("https://api.openai.com/v1");
  });

  it("rejects an unknown provider, listing the known ones", async () => {
    const error = await createError(createProvider(testConfig({ provider: "gemini" }), {}));
    expect(error.kind).toBe("config");
    expect(error.message).toBe('Unknown provider "gemini".');
    expect(error.hint).toContain("deepseek, openai, anthropic, scripted");
    expect(() => providerDefaults("toString")).toThrow(ProviderError);
  });

  it("fails with a one-line config error when the key is missing", async () => {
    const error = await createError(createProvider(testConfig({ provider: "deepseek", model: "" }), {}));
    expect(error.kind).toBe("config");
    expect(error.message).toBe("DEEPSEEK_API_KEY is not set.");
    expect(error.hint).toContain("export DEEPSEEK_API_KEY=...");
    expect(error.hint).toContain("--provider");
    expect(error.message).not.toContain("\n");
  });

  it("uses a placeholder key for a non-default base URL (local servers)", async () => {
    server.reply().text("local model here");
    const provider = await createProvider(
      testConfig({ provider: "openai", model: "llama3", baseURL: `${server.url}/v1` }),
      {},
    );
    const response = await provider.complete(request());
    expect(response.message.content).toBe("local model here");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer hx-no-key");
    expect(server.requests[0]!.body.model).toBe("llama3");
  });

  it("reads the key from the provider's variable and applies default model and thinking", async () => {
    server.reply().text("hi");
    const provider = await createProvider(
      testConfig({ provider: "deepseek", model: "", baseURL: server.url }),
      {
        DEEPSEEK_API_KEY: "sk-deepseek",
      },
    );
    expect(provider.name).toBe("deepseek");
    expect(provider.model).toBe("deepseek-flash");
    await provider.complete(request());
    const sent = server.requests[0]!;
    expect(sent.path).toBe("/chat/completions");
    expect(sent.headers.authorization).toBe("Bearer sk-deepseek");
    expect(sent.body.model).toBe("deepseek-flash");
    expect(sent.body.thinking).toEqual({ type: "enabled" });
  });

  it("lets config.thinking override the provider default", async () => {
    server.reply().text("hi");
    const provider = await createProvider(
      testConfig({ provider: "deepseek", model: "deepseek-flash", baseURL: server.url, thinking: false }),
      { DEEPSEEK_API_KEY: "k" },
    );
    await provider.complete(request());
    expect(server.requests[0]!.body.thinking).toEqual({ type: "disabled" });
  });

  it("maps a rejected key to an auth error naming the provider's variable", async () => {
    server.httpError(401, { error: { message: "Authentication Fails, Your api key is invalid" } });
    const provider = await createProvider(testConfig({ provider: "deepseek", baseURL: server.url }), {
      DEEPSEEK_API_KEY: "wrong",
    });
    const error = await expectProviderError(provider);
    expect(error.kind).toBe("auth");
    expect(error.hint).toContain("DEEPSEEK_API_KEY");
  });

  it("creates the anthropic provider against the fake server", async () => {
    server.reply().text("claude says hi");
    const provider = await createProvider(
      testConfig({ provider: "anthropic", model: "", baseURL: server.url }),
      {
        ANTHROPIC_API_KEY: "sk-ant",
      },
    );
    const { response } = await completeRecording(provider, request());
    expect(response.message.content).toBe("claude says hi");
    expect(server.requests[0]!.path).toBe("/v1/messages");
    expect(server.requests[0]!.body.model).toBe(providerDefaults("anthropic").model);
  });

  it("requires a script for the scripted provider", async () => {
    const error = await createError(createProvider(testConfig({ provider: "scripted" }), {}));
    expect(error.kind).toBe("config");
    expect(error.hint).toContain("--script");
  });

  it("creates the scripted provider from a script file", async () => {
    const dir = tempDir("hx-registry-");
    const file = path.join(dir, "script.json");
    writeFileSync(file, JSON.stringify({ replies: [{ text: "scripted hello" }] }));
    const provider = await createProvider(testConfig({ provider: "scripted", model: "", script: file }), {});
    expect((await provider.complete(request())).message.content).toBe("scripted hello");
  });
});
