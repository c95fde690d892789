import { describe, expect, it } from "vitest";
import { createSecretRedaction } from "../../src/guards/secret-redaction.js";
import {
  childEnvironment,
  droppedSecretNames,
  isSecretVariable,
  secretValues,
} from "../../src/secrets/child-env.js";
import { redactUrlPasswords } from "../../src/secrets/redact.js";
import type { PreparedCall } from "../../src/tools/registry.js";

const env = {
  PATH: "/usr/bin",
  HOME: "/home/me",
  DEEPSEEK_API_KEY: "sk-deep-123456",
  OPENAI_API_KEY: "sk-open-123456",
  ANTHROPIC_API_KEY: "sk-ant-123456",
  GITHUB_TOKEN: "ghp_abcdef",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  CLIENT_SECRET: "cs",
  DB_PASSWORD: "pw",
  my_password_file: "/x",
  DATABASE_URL: "postgres://app:hunter2@db/app",
  PUBLIC_URL: "https://example.com/a@b",
  SSH_AUTH_SOCK: "/tmp/agent.sock",
  TOKENIZERS_PARALLELISM: "false",
  KEYBOARD: "us",
};

describe("childEnvironment", () => {
  it("drops provider keys and *_API_KEY, *_TOKEN, *_SECRET, *PASSWORD* names, and URLs with a password", () => {
    expect(Object.keys(childEnvironment(env)).sort()).toEqual(
      ["HOME", "KEYBOARD", "PATH", "PUBLIC_URL", "SSH_AUTH_SOCK", "TOKENIZERS_PARALLELISM"].sort(),
    );
  });

  it("passes through the names settings list, and adds extras", () => {
    const child = childEnvironment(env, { passthrough: ["GITHUB_TOKEN"], extra: { PAGER: "cat" } });
    expect(child.GITHUB_TOKEN).toBe("ghp_abcdef");
    expect(child.OPENAI_API_KEY).toBeUndefined();
    expect(child.PAGER).toBe("cat");
  });

  it("names what it drops, for hx doctor", () => {
    expect(droppedSecretNames(env, ["GITHUB_TOKEN"])).toEqual([
      "ANTHROPIC_API_KEY",
      "AWS_SECRET_ACCESS_KEY",
      "CLIENT_SECRET",
      "DATABASE_URL",
      "DB_PASSWORD",
      "DEEPSEEK_API_KEY",
      "OPENAI_API_KEY",
      "my_password_file",
    ]);
  });

  it("judges names case-insensitively, by suffix", () => {
    expect(isSecretVariable("npm_config__auth_token", "x")).toBe(true);
    expect(isSecretVariable("TOKEN", "x")).toBe(true);
    expect(isSecretVariable("TOKENIZERS_PARALLELISM", "x")).toBe(false);
  });
});

describe("secret redaction in tool output", () => {
  const call = {} as PreparedCall;
  it("replaces known secret values and passwords in URLs", async () => {
    const redaction = createSecretRedaction(secretValues(env));
    const output = await redaction.afterToolCall!(
      call,
      { content: "key=sk-open-123456 url=https://bot:tok3n@github.com/x" },
      {} as never,
    );
    expect(output?.content).toBe("key=[OPENAI_API_KEY redacted] url=https://bot:***@github.com/x");
    expect(await redaction.afterToolCall!(call, { content: "nothing here" }, {} as never)).toBeUndefined();
  });

  it("redactUrlPasswords keeps the user and host", () => {
    expect(redactUrlPasswords("Could not reach http://user:s3cret@127.0.0.1:9/v1 (http://u:p@h/x)")).toBe(
      "Could not reach http://user:***@127.0.0.1:9/v1 (http://u:***@h/x)",
    );
    expect(redactUrlPasswords("mail me@example.com, https://example.com/a@b")).toBe(
      "mail me@example.com, https://example.com/a@b",
    );
  });
});
