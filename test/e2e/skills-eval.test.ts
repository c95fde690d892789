// `hx skills eval` through the real binary against the fake model server, which decides per
// query whether the "model" loads a skill, so every figure in the report is checked.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { KEYS, messagesOf, openaiFlags, useSeedFixture } from "./skills-support.js";

const fixture = useSeedFixture();

/**
 * What the fake model does with each query, by call number for that query (1-based):
 * the skill it loads, "bash" for another tool first, or undefined for a plain answer.
 */
const BEHAVIOUR: Record<string, (call: number) => string | undefined> = {
  "update the upstream reference": () => "sync-upstream",
  同步上游: (n) => (n === 2 ? undefined : "sync-upstream"), // 2 of 3
  "pull the newest learn-claude-code": (n) => (n === 1 ? "sync-upstream" : "course-blog"), // 1 of 3: a miss
  "what is 2+2": () => undefined,
  "list the files": () => "bash",
  "write a blog post about upstream": (n) => (n === 3 ? undefined : "sync-upstream"), // 2 of 3: false trigger
};

function scriptServer() {
  const calls = new Map<string, number>();
  fixture.server.replyWith((request, reply) => {
    const user = messagesOf(request)
      .filter((m) => m.role === "user")
      .at(-1);
    const query = String(user?.content ?? "");
    const call = (calls.get(query) ?? 0) + 1;
    calls.set(query, call);
    const action = BEHAVIOUR[query]?.(call);
    reply.usage({ input: 100, output: 10, cached: 0, cacheWrite: 0, reasoning: 0 });
    if (action === "bash") reply.tool("bash", { command: "ls" });
    else if (action) reply.tool("load_skill", { name: action });
    else reply.text("an answer");
  });
}

function writeTriggers(dir: string) {
  mkdirSync(path.join(dir, "evals"), { recursive: true });
  const queries = [
    { query: "update the upstream reference", should_trigger: true, split: "train" },
    { query: "同步上游", should_trigger: true, split: "train" },
    { query: "pull the newest learn-claude-code", should_trigger: true, split: "validation" },
    { query: "what is 2+2", should_trigger: false, split: "train" },
    { query: "list the files", should_trigger: false, split: "validation" },
    { query: "write a blog post about upstream", should_trigger: false, split: "validation" },
  ];
  writeFileSync(path.join(dir, "evals", "triggers.json"), JSON.stringify(queries));
}

describe("hx skills eval (fake model server)", () => {
  it("measures trigger rates, recall, precision, false triggers and what loaded instead", async () => {
    scriptServer();
    const skillDir = path.join(fixture.project, ".agents", "skills", "sync-upstream");
    writeTriggers(skillDir);
    const home = tempDir("hx-home-");
    const run = await runHx(
      [
        "skills",
        "eval",
        "sync-upstream",
        "--json",
        "-j",
        "2",
        ...openaiFlags(fixture.server, fixture.project),
      ],
      { env: { ...KEYS, HOME: home } },
    );
    expect(run.code, run.stderr).toBe(1); // two queries fail
    const report = JSON.parse(run.stdout);
    const skill = report.skills[0];
    const rates = Object.fromEntries(
      skill.queryResults.map((q: { query: string; triggerRate: number }) => [q.query, q.triggerRate]),
    );
    expect(rates).toEqual({
      "update the upstream reference": 1,
      同步上游: 2 / 3,
      "pull the newest learn-claude-code": 1 / 3,
      "what is 2+2": 0,
      "list the files": 0,
      "write a blog post about upstream": 2 / 3,
    });
    // Triggered: the first two positives and the false trigger → recall 2/3, precision 2/3.
    expect(skill.recall).toBeCloseTo(2 / 3);
    expect(skill.precision).toBeCloseTo(2 / 3);
    expect(skill.falseTriggers).toBe(1);
    expect(skill.falseTriggerQueries).toEqual(["write a blog post about upstream"]);
    expect(skill.loadedInstead).toEqual({ "course-blog": 2 });
    expect(skill.train).toMatchObject({ queries: 3, passed: 3, recall: 1, precision: 1 });
    expect(skill.validation).toMatchObject({ queries: 3, passed: 1, recall: 0, precision: 0 });
    expect(report.totals).toMatchObject({
      queries: 6,
      runs: 18,
      failedRuns: 0,
      inputTokens: 1800,
      outputTokens: 180,
    });
    // Fresh sessions: every request holds one user message; nothing ran, nothing was saved.
    expect(fixture.server.requests).toHaveLength(18);
    for (const request of fixture.server.requests) {
      expect(messagesOf(request).filter((m) => m.role !== "system")).toHaveLength(1);
    }
    expect(
      existsSync(path.join(home, ".hx", "sessions")) ? readdirSync(path.join(home, ".hx", "sessions")) : [],
    ).toEqual([]);
  });

  it("prints a table, honours --runs, --threshold and --split, and passes when every query passes", async () => {
    scriptServer();
    writeTriggers(path.join(fixture.project, ".agents", "skills", "sync-upstream"));
    const run = await runHx(
      [
        "skills",
        "eval",
        "--runs",
        "3",
        "--threshold",
        "0.6",
        "--split",
        "train",
        ...openaiFlags(fixture.server, fixture.project),
      ],
      { env: KEYS },
    );
    // 同步上游 at 2/3 ≥ 0.6 still passes; the train split has no failure.
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/sync-upstream {2}\(pass at a trigger rate >= 0\.6, 3 runs per query\)/);
    expect(run.stdout).toContain("   2/3  ok      load     train  同步上游");
    expect(run.stdout).toContain("recall 1.00  precision 1.00  false triggers 0  passed 3/3");
    expect(run.stdout).toMatch(/total: 1 skill\(s\), 3 queries, 9 runs \(0 failed\)/);
    expect(fixture.server.requests).toHaveLength(9);
  });

  it("works the same over the Anthropic Messages wire (--provider anthropic)", async () => {
    const calls = new Map<string, number>();
    fixture.server.replyWith((request, reply) => {
      const last = (request.body.messages as Array<{ role: string; content: unknown }>)
        .filter((m) => m.role === "user")
        .at(-1);
      const content = last?.content;
      const query =
        typeof content === "string" ? content : ((content as Array<{ text?: string }>)[0]?.text ?? "");
      const call = (calls.get(query) ?? 0) + 1;
      calls.set(query, call);
      reply.usage({ input: 50, output: 5, cached: 0, cacheWrite: 0, reasoning: 0 });
      // "deploy now" loads the skill on 2 runs of 3; "hello" never does.
      if (query === "deploy now" && call !== 2) reply.tool("load_skill", { name: "sync-upstream" });
      else reply.text("an answer");
    });
    const file = path.join(fixture.project, "q.json");
    writeFileSync(
      file,
      JSON.stringify([
        { query: "deploy now", should_trigger: true },
        { query: "hello", should_trigger: false },
      ]),
    );
    const run = await runHx(
      [
        "skills",
        "eval",
        "sync-upstream",
        "--queries",
        "q.json",
        "--json",
        "--provider",
        "anthropic",
        "--base-url",
        fixture.server.url,
        "--model",
        "claude-sonnet-4-6",
        "-C",
        fixture.project,
      ],
      { env: { ANTHROPIC_API_KEY: "sk-ant-test" } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(fixture.server.requests.every((r) => r.path.endsWith("/messages"))).toBe(true);
    const [skill] = JSON.parse(run.stdout).skills;
    expect(skill.queryResults.map((q: { triggerRate: number }) => q.triggerRate)).toEqual([2 / 3, 0]);
    expect(skill).toMatchObject({
      recall: 1,
      precision: 1,
      falseTriggers: 0,
      inputTokens: 300,
      outputTokens: 30,
    });
  });

  it("-j N runs N sessions at once (their requests overlap); -j 1 runs one at a time", async () => {
    const queries = ["one", "two", "three", "four"].map((query) => ({ query, should_trigger: false }));
    writeFileSync(path.join(fixture.project, "q.json"), JSON.stringify(queries));
    // Each answer takes a while (frames 150 ms apart), so runs started together overlap.
    fixture.server.replyWith((_request, reply) => {
      reply.text("an answer", { chunks: 3 }).delay(150);
    });
    /** The most requests (from index `from` on) the server was answering at one moment. */
    const mostAtOnce = (from: number) => {
      const edges = fixture.server.requests.slice(from).flatMap((r) => [
        { at: r.receivedAt, step: 1 },
        { at: r.respondedAt ?? Number.POSITIVE_INFINITY, step: -1 },
      ]);
      edges.sort((a, b) => a.at - b.at || a.step - b.step);
      let now = 0;
      let most = 0;
      for (const edge of edges) {
        now += edge.step;
        most = Math.max(most, now);
      }
      return most;
    };
    const evalWith = async (jobs: string) => {
      const run = await runHx(
        [
          "skills",
          "eval",
          "course-blog",
          "--queries",
          "q.json",
          "--runs",
          "1",
          "-j",
          jobs,
          "--json",
          ...openaiFlags(fixture.server, fixture.project),
        ],
        { env: KEYS },
      );
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout);
    };
    await evalWith("1");
    expect(fixture.server.requests).toHaveLength(4);
    expect(mostAtOnce(0)).toBe(1);
    const report = await evalWith("4");
    expect(fixture.server.requests).toHaveLength(8);
    expect(mostAtOnce(4)).toBeGreaterThan(1);
    expect(report.totals).toMatchObject({ queries: 4, runs: 4, failedRuns: 0 });
    // Time spent: per skill the sessions' time summed (each answer takes ≥ 300 ms here), in
    // total the wall-clock time of the whole evaluation.
    expect(report.skills[0].ms).toBeGreaterThanOrEqual(4 * 300);
    expect(report.totals.ms).toBeGreaterThanOrEqual(300);
  });

  it("--queries FILE, and clear errors for a skill without queries", async () => {
    scriptServer();
    const file = path.join(fixture.project, "q.json");
    writeFileSync(file, JSON.stringify([{ query: "what is 2+2", should_trigger: false }]));
    const ok = await runHx(
      [
        "skills",
        "eval",
        "course-blog",
        "--queries",
        "q.json",
        "--runs",
        "1",
        "--json",
        ...openaiFlags(fixture.server, fixture.project),
      ],
      { env: KEYS },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).skills[0]).toMatchObject({
      skill: "course-blog",
      recall: null,
      precision: null,
      passed: 1,
    });
    const missing = await runHx(
      ["skills", "eval", "course-blog", ...openaiFlags(fixture.server, fixture.project)],
      {
        env: KEYS,
      },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /course-blog: .*evals\/triggers\.json not found\. Write it, or pass --queries FILE/,
    );
  });
});

describe("hx skills eval of a conditional skill", () => {
  it("says that a fresh session does not list it (its figures measure it unseen)", async () => {
    const dir = path.join(fixture.project, ".agents", "skills", "ts-style");
    mkdirSync(path.join(dir, "evals"), { recursive: true });
    writeFileSync(
      path.join(dir, "SKILL.md"),
      '---\nname: ts-style\ndescription: TS rules.\npaths: "src/**/*.ts"\n---\nRules.\n',
    );
    writeFileSync(
      path.join(dir, "evals", "triggers.json"),
      JSON.stringify([{ query: "q", should_trigger: true }]),
    );
    fixture.server.replyWith((_request, reply) => {
      reply.text("an answer");
    });
    const run = await runHx(
      ["skills", "eval", "ts-style", "--runs", "1", ...openaiFlags(fixture.server, fixture.project)],
      { env: KEYS },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "note: ts-style is conditional (paths: src/**/*.ts): a session lists it only after a tool touches a matching file",
    );
    expect(messagesOf(fixture.server.requests[0])[0].content).not.toContain("ts-style");
  });
});

describe("hx skills eval when the provider fails", () => {
  it("a query with no completed run is ERROR (exit 1), left out of recall and precision", async () => {
    const dir = tempDir("hx-eval-script-");
    writeFileSync(
      path.join(dir, "q.json"),
      JSON.stringify([
        { query: "update the reference", should_trigger: true },
        { query: "and again", should_trigger: true },
      ]),
    );
    writeFileSync(
      path.join(dir, "script.json"),
      JSON.stringify({
        replies: [
          { toolCalls: [{ name: "load_skill", arguments: { name: "sync-upstream" } }] },
          { error: { kind: "auth", message: "bad key" } },
        ],
      }),
    );
    const args = ["skills", "eval", "sync-upstream", "--queries", path.join(dir, "q.json"), "--runs", "1"];
    const scripted = [
      "--provider",
      "scripted",
      "--script",
      path.join(dir, "script.json"),
      "-C",
      fixture.project,
    ];
    const run = await runHx([...args, ...scripted], { env: KEYS });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^ {3}err {2}ERROR {3}load {5}\w+ {2}and again {2}\(bad key\)$/m);
    expect(run.stdout).toContain("recall 1.00  precision 1.00  false triggers 0  passed 1/2");
    expect(run.stdout).toMatch(/total: 1 skill\(s\), 2 queries, 2 runs \(1 failed\)/);
  });
});

describe("hx skills new", () => {
  it("writes a starter evals/triggers.json that eval reads", async () => {
    const project = tempDir("hx-new-");
    const run = await runHx(["skills", "new", "release-notes", "-C", project]);
    expect(run.code, run.stderr).toBe(0);
    const file = path.join(project, ".agents", "skills", "release-notes", "evals", "triggers.json");
    expect(run.stdout).toContain(`Created ${file}`);
    const { readTriggerFile } = await import("../../src/skills/eval/triggers.js");
    const read = readTriggerFile(file);
    expect(read.ok && read.queries.map((q) => q.shouldTrigger)).toEqual([true, true, false, false]);
  });
});
