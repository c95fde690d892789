import { describe, expect, it } from "vitest";
import { resolveRunConfig, UsageError } from "../../src/cli/run-config.js";

describe("resolveRunConfig precedence: flags > env > settings", () => {
  it("uses the defaults when nothing is set", () => {
    const config = resolveRunConfig({}, {}, {});
    expect(config).toMatchObject({
      provider: "deepseek",
      model: undefined,
      maxTurns: 50,
      outputFormat: "text",
    });
  });

  it("lets env beat settings and flags beat env", () => {
    const settings = { provider: "anthropic", model: "claude-x", baseURL: "http://settings" };
    const env = { HX_PROVIDER: "openai", HX_MODEL: "gpt-env", HX_BASE_URL: "http://env" };
    expect(resolveRunConfig({}, env, settings)).toMatchObject({
      provider: "openai",
      model: "gpt-env",
      baseURL: "http://env",
    });
    expect(
      resolveRunConfig({ provider: "deepseek", model: "m", baseUrl: "http://flag" }, env, settings),
    ).toMatchObject({ provider: "deepseek", model: "m", baseURL: "http://flag" });
  });

  it("does not carry a model or base URL from a lower layer than the provider", () => {
    const config = resolveRunConfig(
      { provider: "anthropic" },
      {},
      { provider: "deepseek", model: "deepseek-flash" },
    );
    expect(config.provider).toBe("anthropic");
    expect(config.model).toBeUndefined();
  });

  it("keeps a settings model when settings also chose the provider", () => {
    expect(resolveRunConfig({}, {}, { model: "deepseek-pro" }).model).toBe("deepseek-pro");
  });

  it("reads retries and the request timeout from the environment, naming a bad variable", () => {
    expect(resolveRunConfig({}, {}, {})).toMatchObject({
      maxRetries: 4,
      requestTimeoutMs: 120_000,
      streamIdleTimeoutMs: 120_000,
      maxRetryWaitMs: 60_000,
      maxResponseBytes: 64 * 1024 * 1024,
    });
    const env = {
      HX_MAX_RETRIES: "0",
      HX_REQUEST_TIMEOUT_MS: "5000",
      HX_STREAM_IDLE_TIMEOUT_MS: "300",
      HX_RETRY_MAX_WAIT_MS: "0",
      HX_MAX_RESPONSE_BYTES: "2048",
    };
    expect(resolveRunConfig({}, env, {})).toMatchObject({
      maxRetries: 0,
      requestTimeoutMs: 5000,
      streamIdleTimeoutMs: 300,
      maxRetryWaitMs: 0,
      maxResponseBytes: 2048,
    });
    expect(() => resolveRunConfig({}, { HX_MAX_RETRIES: "-1" }, {})).toThrow(
      "HX_MAX_RETRIES must be a whole number from 0 to 100 (got '-1').",
    );
    expect(() => resolveRunConfig({}, { HX_REQUEST_TIMEOUT_MS: "soon" }, {})).toThrow(
      /^HX_REQUEST_TIMEOUT_MS must be/,
    );
  });

  it("refuses timer values Node cannot hold (it would fire after 1 ms)", () => {
    for (const name of ["HX_REQUEST_TIMEOUT_MS", "HX_STREAM_IDLE_TIMEOUT_MS", "HX_RETRY_MAX_WAIT_MS"]) {
      expect(resolveRunConfig({}, { [name]: "2147483647" }, {})).toBeTruthy();
      expect(() => resolveRunConfig({}, { [name]: "2147483648" }, {})).toThrow(
        `${name} must be a whole number from ${name === "HX_RETRY_MAX_WAIT_MS" ? 0 : 1} to 2147483647 (got '2147483648').`,
      );
      for (const bad of ["1e9", "1.5", "Infinity", "0x10", "-5"]) {
        expect(() => resolveRunConfig({}, { [name]: bad }, {})).toThrow(new RegExp(`^${name} must be`));
      }
    }
  });

  it("parses numbers and switches, rejecting bad ones with a usage error", () => {
    expect(resolveRunConfig({ maxTurns: "7", thinking: "off" }, {}, {})).toMatchObject({
      maxTurns: 7,
      thinking: false,
    });
    expect(() => resolveRunConfig({ maxTurns: "zero" }, {}, {})).toThrow(UsageError);
    expect(() => resolveRunConfig({ maxTurns: "0" }, {}, {})).toThrow(
      /--max-turns must be a positive whole number/,
    );
    expect(() => resolveRunConfig({ thinking: "maybe" }, {}, {})).toThrow(/--thinking must be 'on' or 'off'/);
    expect(() => resolveRunConfig({ outputFormat: "xml" }, {}, {})).toThrow(/--output-format must be one of/);
    expect(() => resolveRunConfig({ baseUrl: "--permission-mode" }, {}, {})).toThrow(
      /--base-url must be an http/,
    );
    expect(() => resolveRunConfig({}, { HX_BASE_URL: "localhost:11434" }, {})).toThrow(
      /^HX_BASE_URL must be/,
    );
    expect(resolveRunConfig({ baseUrl: "http://127.0.0.1:1/v1" }, {}, {}).baseURL).toBe(
      "http://127.0.0.1:1/v1",
    );
  });
});
