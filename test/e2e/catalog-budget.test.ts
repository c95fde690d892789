// The catalog budget for a model hx's table does not know: the window the server reports,
// else a default that keeps 100 typical skills whole; -v names what the budget cut.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

let server: FakeModelServer;
let work: string;

beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-catalog-budget-");
  for (let i = 0; i < 100; i++) {
    const name = `skill-${String(i).padStart(3, "0")}`;
    const dir = path.join(work, ".agents", "skills", name);
    mkdirSync(dir, { recursive: true });
    const description = `Does task ${i} the way this project does it. Use it when the user asks about topic ${i} or its files.`;
    writeFileSync(
      path.join(dir, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`,
    );
  }
});
afterEach(async () => {
  await server.close();
});

const run = (extra: string[] = [], env: Record<string, string> = {}) =>
  runHx(
    [
      "agent",
      "hi",
      "--provider",
      "openai",
      "--base-url",
      `${server.url}/v1`,
      "--model",
      "local-model",
      "-C",
      work,
      ...extra,
    ],
    { env: { OPENAI_API_KEY: "sk-test", ...env } },
  );
const systemOf = () => String(server.requests[0]?.body.messages[0].content);

describe("catalog budget for an unknown model", () => {
  it("without a reported window, lists 100 typical skills with every description whole", async () => {
    server.reply().text("ok");
    const result = await run(["-v"]);
    expect(result.code).toBe(0);
    for (let i = 0; i < 100; i++) expect(systemOf()).toContain(`topic ${i} or its files.`);
    expect(result.stderr).not.toMatch(/shortened|name only/);
    expect(server.modelListRequests()).toBe(1); // asked, and the server had no list
  });

  it("uses the window the server reports, and -v names the skills it cut", async () => {
    server.models([{ id: "local-model", object: "model", context_length: 16_384 }]);
    server.reply().text("ok");
    const result = await run(["-v"]);
    expect(result.code).toBe(0);
    expect(server.modelListRequests()).toBe(1);
    // 2% of 16,384 tokens is 1,310 characters: far from 100 skills.
    expect(systemOf().length).toBeLessThan(1_310 + 600);
    expect(result.stderr).toMatch(
      /skills: (catalog over budget, descriptions shortened|listed by name only): skill-0/,
    );
  });

  it("asks no model list when the window is set or the budget is in characters", async () => {
    server.models([{ id: "local-model", object: "model", context_length: 16_384 }]);
    server.replyWith((_request, reply) => reply.text("ok"));
    expect((await run(["--context-window", "64k"])).code).toBe(0);
    expect((await run([], { HX_CONTEXT_WINDOW: "64000" })).code).toBe(0);
    const home = tempDir("hx-catalog-budget-home-");
    mkdirSync(path.join(home, ".hx"), { recursive: true });
    writeFileSync(
      path.join(home, ".hx", "settings.json"),
      JSON.stringify({ skills: { catalogBudget: 20_000 } }),
    );
    const configured = await run([], { HOME: home });
    expect(configured.code, configured.stderr).toBe(0);
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(3);
    expect(server.modelListRequests()).toBe(0);
    // The 20,000 characters set hold all 100 skills whole (16,384 tokens reported would not).
    expect(String(server.requests.at(-1)?.body.messages[0].content)).toContain("topic 99 or its files.");
  });
});
